/*
 * When every admin must use two-step sign-in and this one has not set it up, the server refuses
 * everything but the setup calls with a 403 whose errorCode is TWO_FACTOR_SETUP_REQUIRED. The screen follows: it
 * leads the admin to 个人设置 → 两步验证 and keeps them there (TwoFactorGuard in app.tsx). The flag
 * comes from whoami on a reload, and from such a refusal right after signing in, whose answer does
 * not carry it.
 */
export const TWO_FACTOR_SETUP_PATH = '/settings?tab=twoFactor';

const EVENT = 'coder-station:must-set-up-2fa';

/** Called by the request layer on the refusal above. */
export function announceMustSetUp2fa(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onMustSetUp2fa(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}

/** Where an admin who must set up two-step sign-in may be: the two-step tab only. */
export function isTwoFactorSetupPage(pathname: string, search: string): boolean {
  return pathname === '/settings' && new URLSearchParams(search).get('tab') === 'twoFactor';
}
