import { Secret, TOTP } from 'otpauth';

// RFC 6238 with the parameters every authenticator app understands: SHA-1, 6 digits, 30 seconds.
const PERIOD_S = 30;
const ISSUER = 'coder station';

function totp(secret: string, loginId: string) {
  return new TOTP({ issuer: ISSUER, label: loginId, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, RFC 4226's recommendation), Base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secret: string, loginId: string): string {
  return totp(secret, loginId).toString();
}

/**
 * The time step of `code` if it is right at `at` (one step of drift either way, for clocks a little
 * off), or null. The caller accepts a step only once (admins.totp_last_step), so a code seen once
 * cannot be replayed within its window.
 */
export function totpStep(secret: string, code: string, at: number): number | null {
  const delta = totp(secret, '').validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? null : Math.floor(at / 1000 / PERIOD_S) + delta;
}

/** The code of `at` (tests and the browser tests compute codes as an authenticator app would). */
export function totpCode(secret: string, at: number): string {
  return totp(secret, '').generate({ timestamp: at });
}
