/*
 * Passkeys (issue 26): the signed-in admin's own (个人设置 → 通行密钥) and the sign-in with one
 * (使用通行密钥登录). The browser's part goes through @simplewebauthn/browser; failures follow
 * services/api.ts.
 */
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { LoginResult } from '#contract/auth';
import type { Passkey, PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from '#contract/passkey';
import { api } from './api';

const MINE = '/api/admin/me/passkeys';

export function listPasskeys(): Promise<Passkey[]> {
  return api<Passkey[]>(MINE);
}

/** Asks the server for a challenge, lets the browser make the passkey, and stores it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const optionsJSON = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>(`${MINE}/options`, { method: 'POST', data: {} });
  const response = await startRegistration({ optionsJSON });
  return api<Passkey>(MINE, { method: 'POST', data: { name, response: response as PasskeyRegistrationResponse } });
}

export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return api<Passkey>(`${MINE}/${encodeURIComponent(id)}`, { method: 'PATCH', data: { name } });
}

export async function removePasskey(id: string): Promise<void> {
  await api<unknown>(`${MINE}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Signs in with a passkey the browser offers (no account name). The page shows its own text for a
 * refusal (skipErrorHandler), as for the password sign-in.
 */
export async function signInWithPasskey(remember: boolean): Promise<LoginResult> {
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/api/admin/login/passkey/options', {
    method: 'POST',
    data: {},
    skipErrorHandler: true,
  });
  const response = await startAuthentication({ optionsJSON });
  return api<LoginResult>('/api/admin/login/passkey', {
    method: 'POST',
    data: { response: response as PasskeyAuthenticationResponse, remember },
    skipErrorHandler: true,
  });
}

/** A refusal by the browser or the authenticator (cancelled, timed out, no passkey), not by the server. */
export function isBrowserRefusal(error: unknown): boolean {
  return (
    error instanceof Error &&
    ['NotAllowedError', 'AbortError', 'InvalidStateError', 'SecurityError', 'NotSupportedError'].includes(error.name)
  );
}

/**
 * A passkey's answer proving the signed-in admin (re-authentication): options listing the own
 * passkeys, the browser's assertion, for `POST /api/admin/me/reauth` `{ passkey }` to carry.
 */
export async function passkeyProof(): Promise<PasskeyAuthenticationResponse> {
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]['optionsJSON']>(`${MINE}/proof-options`, {
    method: 'POST',
    data: {},
  });
  return (await startAuthentication({ optionsJSON })) as PasskeyAuthenticationResponse;
}
