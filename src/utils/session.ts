import { history } from '@umijs/max';
import { DEFAULT_AVATAR } from '@/constants';
import type { WhoAmI } from '#contract/admin';
import type { ErrorCode } from '#contract/envelope';
import { message } from '@/utils/feedback';
import { setTimeZone } from '@/utils/format';

/** docs/requirements.md, constants: the token lives in localStorage under this key. */
export const TOKEN_KEY = 'adminToken';

export const LOGIN_PATH = '/login';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** The initial state of docs/requirements.md (entities): empty until an admin is known. */
export interface InitialState {
  name?: string;
  avatar?: string;
  adminInfo?: WhoAmI;
}

export function toInitialState(admin: WhoAmI): InitialState {
  const adminInfo: WhoAmI = {
    _id: admin._id,
    loginId: admin.loginId,
    nickname: admin.nickname,
    avatar: admin.avatar,
    permission: admin.permission,
    twoFactorEnabled: admin.twoFactorEnabled,
    mustSetUp2fa: admin.mustSetUp2fa,
    mustChangePassword: admin.mustChangePassword,
    timeZone: admin.timeZone,
  };
  setTimeZone(admin.timeZone);
  return { name: admin.nickname, avatar: admin.avatar || DEFAULT_AVATAR, adminInfo };
}

/**
 * Where to go after login. Only a same-origin path is followed: it must start with exactly one
 * `/` (`//host` and `/\host` are read by browsers as another origin) and must not lead back to
 * the login page.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`) || raw.startsWith(`${LOGIN_PATH}/`)) {
    return '/';
  }
  return raw;
}

/** The login page's address, remembering the page the admin was on. */
export function loginPathFrom(from: string): string {
  const target = safeRedirect(from);
  return target === '/' ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

function currentPath(): string {
  const { pathname, search } = history.location;
  return `${pathname}${search}`;
}

export const SESSION_MESSAGES = {
  expired: '登录过期，请重新登录',
  /** The server ended a session whose token was still good: someone else did (an admin, a password change, a disabled account). */
  ended: '你的登录已在其他地方被结束，请重新登录',
} as const;

/**
 * docs/requirements.md, session: a page that finds no session drops the token and sends the admin
 * to /login, saying why by the answer's errorCode (never by its text).
 */
export function expireSession(reason?: ErrorCode, { replace = false }: { replace?: boolean } = {}): void {
  clearToken();
  if (history.location.pathname !== LOGIN_PATH) {
    const login = loginPathFrom(currentPath());
    // Replaced where the page left was never one to go back to (reached by Back after signing out).
    if (replace) history.replace(login);
    else history.push(login);
  }
  // One key: several calls failing at once with 401 show one warning, not a stack of them.
  const content = reason === 'SESSION_ENDED' ? SESSION_MESSAGES.ended : SESSION_MESSAGES.expired;
  message.warning({ content, key: 'session-expired' });
}
