/** The image the login page shows; its text is what the tests type. */
export const CAPTCHA_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="10" y="30">AbCd</text></svg>';

/**
 * The login page loads its captcha with window.fetch (an image, not an API call through the
 * request layer): answer it with CAPTCHA_SVG, installed afresh before each test. Call at a test
 * file's top level.
 */
export function stubCaptchaFetch() {
  const captchaFetch = jest.fn(async () => ({ ok: true, status: 200, text: async () => CAPTCHA_SVG }));
  beforeEach(() => {
    captchaFetch.mockClear();
    Object.defineProperty(window, 'fetch', { value: captchaFetch, configurable: true, writable: true });
  });
  return captchaFetch;
}
