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
  // kept under the token's SHA-256 (fast-jwt's own key), and a kept token is still refused once it
  // has expired. A hash instead of the HMAC check and the decoding.
  const verifier = createVerifier({ key: secret, algorithms: [ALGORITHM], cache: 1000 });
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
