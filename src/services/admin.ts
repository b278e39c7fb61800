import type { Admin, CreateAdminBody, CreatedAdmin, UpdateAdminBody, WhoAmI } from '#contract/admin';
import type { LoginAnswer, LoginBody } from '#contract/auth';
import { api } from './api';

export const CAPTCHA_URL = '/res/captcha';

const path = (id: string) => `/api/admin/${encodeURIComponent(id)}`;

export function listAdmins(): Promise<Admin[]> {
  return api<Admin[]>('/api/admin');
}

export function getAdmin(id: string): Promise<Admin> {
  return api<Admin>(path(id));
}

export function createAdmin(admin: CreateAdminBody): Promise<CreatedAdmin> {
  return api<CreatedAdmin>('/api/admin', { method: 'POST', data: admin });
}

export function updateAdmin(id: string, changes: UpdateAdminBody): Promise<Admin> {
  return api<Admin>(path(id), { method: 'PATCH', data: changes });
}

export async function removeAdmin(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}

/** True when the loginId is taken. */
export function adminIsExist(loginId: string): Promise<boolean> {
  return api<boolean>(`/api/admin/adminIsExist/${encodeURIComponent(loginId)}`);
}

/**
 * The login page tells each refusal apart itself, so the global handler stays out. An account
 * with two-step sign-in answers a challenge instead of a token (services/account loginTwoFactor).
 */
export function login(params: LoginBody): Promise<LoginAnswer> {
  return api<LoginAnswer>('/api/admin/login', {
    method: 'POST',
    data: params,
    skipErrorHandler: true,
  });
}

/** Revokes the token on the server; the caller ends the session whatever it answers. */
export async function logout(): Promise<void> {
  await api<unknown>('/api/admin/logout', { method: 'POST', skipErrorHandler: true });
}

/** Rejects with a 401 when there is no live session; the caller decides what follows. */
export function whoami(): Promise<WhoAmI | null> {
  return api<WhoAmI | null>('/api/admin/whoami', { skipErrorHandler: true });
}

/**
 * The captcha is SVG markup, not an envelope. Its answer is tied to this browser by a cookie,
 * which must go along.
 */
export async function fetchCaptcha(): Promise<string> {
  const response = await fetch(CAPTCHA_URL, { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) throw new Error(`captcha ${response.status}`);
  return response.text();
}
