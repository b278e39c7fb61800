import Bowser from 'bowser';

/** 「Chrome 120 · Windows 10」 from a User-Agent header (bowser), or 「未知浏览器」. */
export function describeBrowser(userAgent: string): string {
  if (!userAgent.trim()) return '未知浏览器';
  try {
    const { browser, os } = Bowser.parse(userAgent);
    const name = browser.name ? [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ') : '';
    const system = os.name ? [os.name, os.versionName].filter(Boolean).join(' ') : '';
    return [name, system].filter(Boolean).join(' · ') || userAgent.slice(0, 60);
  } catch {
    return userAgent.slice(0, 60);
  }
}
