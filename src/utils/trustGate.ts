/*
 * The screen's side of issue 26's proof before power and first sign-in. A 403 REAUTH_REQUIRED
 * asks the admin for a fresh proof in the ReauthDialog (mounted once, in app.tsx) and the request
 * layer repeats the refused call once it is given; a 403 PASSWORD_CHANGE_REQUIRED leads to
 * 个人设置 → 修改密码 and keeps the admin there (PasswordChangeGuard in app.tsx).
 */
export const PASSWORD_CHANGE_PATH = '/settings?tab=password';

const MUST_CHANGE_EVENT = 'coder-station:must-change-password';

/** `windowSeconds`: how long the proof will last, as the refusal said (REAUTH_WINDOW_SECONDS). */
type ReauthAsker = (windowSeconds?: number) => Promise<boolean>;
let asker: ReauthAsker | null = null;
// Several calls refused at once (a page's loads) share one dialog and one answer.
let pending: Promise<boolean> | null = null;

/** Installed by the dialog's host; answers whether a proof was given. */
export function setReauthAsker(ask: ReauthAsker | null): void {
  asker = ask;
}

/** Asks for a fresh proof of identity; false when the admin closed the dialog or no dialog is mounted. */
export function askForReauth(windowSeconds?: number): Promise<boolean> {
  if (!asker) return Promise.resolve(false);
  pending ??= asker(windowSeconds).finally(() => {
    pending = null;
  });
  return pending;
}

export function announceMustChangePassword(): void {
  window.dispatchEvent(new Event(MUST_CHANGE_EVENT));
}

export function onMustChangePassword(listener: () => void): () => void {
  window.addEventListener(MUST_CHANGE_EVENT, listener);
  return () => window.removeEventListener(MUST_CHANGE_EVENT, listener);
}

export function isPasswordChangePage(pathname: string, search: string): boolean {
  return pathname === '/settings' && new URLSearchParams(search).get('tab') === 'password';
}
