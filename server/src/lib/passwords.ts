import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { badRequest } from './errors';
import { adminPasswordProblem, userPasswordProblem } from './password-rules';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane). Argon2id is the library's default
// algorithm; its enum is a const enum that cannot be imported as a value here.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Refuses (400, the reason in Chinese) an administrator's password that breaks a rule of password-rules.ts. */
export function checkAdminPassword(password: string, owner: { loginId: string; nickname?: string }) {
  const problem = adminPasswordProblem(password, owner);
  if (problem) throw badRequest(problem);
}

/** Refuses a user's (public site account's) password: too short, or common. */
export function checkUserPassword(password: string) {
  const problem = userPasswordProblem(password);
  if (problem) throw badRequest(problem);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * The old system's hash: unsalted md5 hex of the password, kept only for imported accounts until
 * their first sign-in replaces it (docs/import.md).
 */
export function verifyLegacyMd5(md5Hex: string, password: string): boolean {
  const expected = Buffer.from(md5Hex.toLowerCase(), 'hex');
  const actual = createHash('md5').update(password, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let dummyHash: Promise<string> | null = null;
/**
 * Spends the same time as a real check when the account does not exist, so that the answer's
 * timing does not tell which loginIds are taken.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** A strong password a person can still copy by hand (no look-alike characters). */
export function randomPassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * A generated administrator's password that passes the administrators' rules: drawn again in the
 * (rare) case the random text happens to contain the account name or nickname.
 */
export function randomAdminPassword(owner: { loginId: string; nickname?: string }): string {
  for (;;) {
    const password = randomPassword();
    if (!adminPasswordProblem(password, owner)) return password;
  }
}
