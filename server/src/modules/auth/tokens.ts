import { createSigner, createVerifier } from 'fast-jwt';

export interface TokenClaims {
  /** The admin's id. */
  sub: string;
  /** The session row that keeps the token alive. */
  sid: string;
}

// One fixed algorithm: a token signed any other way (or with "none") is refused.
const ALGORITHM = 'HS256' as const;

export function createTokens(secret: string) {
  // Every call checks its token: the outcome for a token seen lately (its claims, or its error) is
  // kept by the token's own text, and fast-jwt still refuses a kept token once it has expired.
  const verifier = createVerifier({ key: secret, algorithms: [ALGORITHM], cache: 1000, cacheKeyBuilder: (token) => token });
  return {
    sign(claims: TokenClaims, lifetimeMs: number): string {
      return createSigner({ key: secret, algorithm: ALGORITHM, expiresIn: lifetimeMs })({ ...claims });
    },
    /** The claims of a well-signed, unexpired token, or null. */
    verify(token: string): TokenClaims | null {
      try {
        const payload = verifier(token) as Partial<TokenClaims>;
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { sub: payload.sub, sid: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
