import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { createTokens, MEMBER_KIND } from './tokens';

/**
 * Everything the server derives from its JWT secret: the token signer, the key that encrypts TOTP
 * secrets at rest and the key that hashes recovery codes. A database dump alone then gives away
 * neither the secrets nor the codes, as long as the JWT secret is not in the dump: that holds when
 * JWT_SECRET is set in the environment (as production should); without it the secret is generated
 * and kept in the settings table, and the dump holds the key too.
 */
export function createKeys(jwtSecret: string) {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', jwtSecret, 'coder-station', info, 32));
  const secretKey = derive('totp-secret-v1');
  const recoveryKey = derive('recovery-code-v1');
  return {
    tokens: createTokens(jwtSecret),
    /** Members' tokens: their own key, so that neither kind of token ever passes the other's check. */
    memberTokens: createTokens(derive('member-token-v1').toString('base64url'), MEMBER_KIND),

    /** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },

    /** The sealed text, or null when it was sealed with another key (the JWT secret changed) or tampered with. */
    open(sealed: string): string | null {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', secretKey, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },

    /** A recovery code's stored form: keyed, so that it can be looked up but not guessed from a dump. */
    recoveryHash(adminId: string, code: string): string {
      return createHmac('sha256', recoveryKey)
        .update(`${adminId}:${normaliseRecoveryCode(code)}`)
        .digest('hex');
    },
  };
}
export type Keys = ReturnType<typeof createKeys>;

/** Recovery codes are shown as `XXXXX-XXXXX`; typed in any case, with or without the dash or spaces. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Ten characters of 31 (about 50 bits), shown in two groups. */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    if (i === 5) out += '-';
    out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  }
  return out;
}
