/*
 * The signed-in admin's own account (issue 13): profile, password, two-step sign-in, sessions and
 * sign-in history, plus the super admin's calls on another admin's account and the security
 * setting. Failures follow services/api.ts.
 */
import type {
  AdminSession,
  ChangePasswordBody,
  LoginRecord,
  LoginRecordQuery,
  LoginTwoFactorBody,
  RecoveryCodes,
  RecoveryCodesLeft,
  RegenerateRecoveryCodesBody,
  SecuritySettings,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorSetup,
  UpdateMeBody,
} from '#contract/account';
import type { Admin } from '#contract/admin';
import type { ReauthBody, ReauthResult } from '#contract/version';
import type { LoginResult } from '#contract/auth';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const ME = '/api/admin/me';
const adminPath = (id: string) => `/api/admin/${encodeURIComponent(id)}`;

export function updateMe(changes: UpdateMeBody): Promise<Admin> {
  return api<Admin>(ME, { method: 'PATCH', data: changes });
}

/**
 * A fresh proof of identity (password or code) for the actions that need one. Its caller, the
 * ReauthDialog, shows a refusal itself; a refused proof must not ask for another proof either.
 */
export function reauth(body: ReauthBody): Promise<ReauthResult> {
  return api<ReauthResult>(`${ME}/reauth`, { method: 'POST', data: body, skipErrorHandler: true });
}

export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await api<unknown>(`${ME}/password`, { method: 'POST', data: body });
}

export function setUp2fa(): Promise<TwoFactorSetup> {
  return api<TwoFactorSetup>(`${ME}/2fa/setup`, { method: 'POST', data: {} });
}

export function enable2fa(body: TwoFactorEnableBody): Promise<RecoveryCodes> {
  return api<RecoveryCodes>(`${ME}/2fa/enable`, { method: 'POST', data: body });
}

/** How many unused recovery codes the signed-in admin has left. */
export function recoveryCodesLeft(): Promise<RecoveryCodesLeft> {
  return api<RecoveryCodesLeft>(`${ME}/2fa/recovery-codes`);
}

/** Ten new recovery codes (the old ones stop working), proven by the current password or a code. */
export function regenerateRecoveryCodes(body: RegenerateRecoveryCodesBody): Promise<RecoveryCodes> {
  return api<RecoveryCodes>(`${ME}/2fa/recovery-codes`, { method: 'POST', data: body });
}

export async function disable2fa(body: TwoFactorDisableBody): Promise<void> {
  await api<unknown>(`${ME}/2fa/disable`, { method: 'POST', data: body });
}

export function listMySessions(): Promise<AdminSession[]> {
  return api<AdminSession[]>(`${ME}/sessions`);
}

export async function endMySession(sessionId: string): Promise<void> {
  await api<unknown>(`${ME}/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' });
}

/** Ends every session of this admin but the one making the call. */
export async function endMyOtherSessions(): Promise<void> {
  await api<unknown>(`${ME}/sessions`, { method: 'DELETE' });
}

export function listMyLogins(params: TableParams<LoginRecordQuery>): Promise<TableResult<LoginRecord>> {
  return fetchTable<LoginRecord>(`${ME}/logins`, params);
}

export function listAdminSessions(adminId: string): Promise<AdminSession[]> {
  return api<AdminSession[]>(`${adminPath(adminId)}/sessions`);
}

export async function endAdminSessions(adminId: string): Promise<void> {
  await api<unknown>(`${adminPath(adminId)}/sessions`, { method: 'DELETE' });
}

export async function reset2fa(adminId: string): Promise<void> {
  await api<unknown>(`${adminPath(adminId)}/2fa`, { method: 'DELETE' });
}

export function getSecuritySettings(): Promise<SecuritySettings> {
  return api<SecuritySettings>('/api/settings/security');
}

export function updateSecuritySettings(changes: SecuritySettings): Promise<SecuritySettings> {
  return api<SecuritySettings>('/api/settings/security', { method: 'PATCH', data: changes });
}

/** The login page's second step tells each refusal apart itself, so the global handler stays out. */
export function loginTwoFactor(body: LoginTwoFactorBody): Promise<LoginResult> {
  return api<LoginResult>('/api/admin/login/2fa', { method: 'POST', data: body, skipErrorHandler: true });
}
