import { createSigner, createVerifier } from 'fast-jwt';
import { LRUCache } from 'lru-cache';

export interface TokenClaims {
  /** The admin's id. */
  sub: string;
  /** The session row that keeps the token alive. */
  sid: string;
}

// One fixed algorithm: a token signed any other way (or with "none") is refused.
const ALGORITHM = 'HS256' as const;

/** How many verified tokens a process remembers (an admin's browser holds one per session). */
const REMEMBERED_TOKENS = 1000;

/** The claim a member's token carries (signed with its own key): what routes a call to the member side. */
export const MEMBER_KIND = 'member';

export function createTokens(secret: string, kind?: typeof MEMBER_KIND) {
  const verifier = createVerifier({ key: secret, algorithms: [ALGORITHM] });
  // Every call checks its token. A token that verified is remembered, by its own text, with its
  // claims and its expiry: the same token again is then a map lookup and a clock check, where
  // the signature check (or fast-jwt's own cache, a SHA-256 of the token) cost every call a few
  // microseconds. A remembered token is refused once it has expired, as the verifier would; a
  // token that fails is not remembered, so every forged one pays for its check.
  // Expiry is checked on the wall clock, as the verifier checks it; the cache only bounds the count.
  const verified = new LRUCache<string, { claims: TokenClaims & { expiresAt: number }; expiresAt: number }>({ max: REMEMBERED_TOKENS });
  return {
    sign(claims: TokenClaims, lifetimeMs: number): string {
      return createSigner({ key: secret, algorithm: ALGORITHM, expiresIn: lifetimeMs })(kind ? { ...claims, kind } : { ...claims });
    },
    /** The claims of a well-signed, unexpired token and when it expires (epoch ms), or null. */
    verify(token: string): (TokenClaims & { expiresAt: number }) | null {
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return known.claims;
        verified.delete(token);
      }
      let payload: Partial<TokenClaims> & { exp?: number; kind?: unknown };
      try {
        payload = verifier(token) as typeof payload;
      } catch {
        return null;
      }
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
      if (payload.kind !== kind) return null;
      const claims = { sub: payload.sub, sid: payload.sid, expiresAt: payload.exp * 1000 };
      verified.set(token, { claims, expiresAt: claims.expiresAt });
      return claims;
    },
  };
}

/**
 * Whose token an Authorization header carries, read without checking it (the check is the
 * route's): 'visitor' without one, 'member' when its payload says so, else 'admin'. Only routes
 * the call to a side; a forged claim meets that side's own key and is refused there.
 */
export function audienceOf(authorization: string | undefined): 'visitor' | 'member' | 'admin' {
  if (authorization === undefined) return 'visitor';
  // Asked twice per guarded call (routing, then the token check) and again on every call of the
  // same token: decoding the payload each time was a per cent of a list call's CPU.
  // Only what a token of ours can be is kept, so that odd headers cannot fill the memory.
  if (authorization.length > 1024) return readAudience(authorization);
  let audience = audiences.get(authorization);
  if (audience === undefined) {
    audience = readAudience(authorization);
    audiences.set(authorization, audience);
  }
  return audience;
}

const audiences = new LRUCache<string, 'member' | 'admin'>({ max: 1000 });

function readAudience(authorization: string): 'member' | 'admin' {
  const payload = /^Bearer\s+[^.\s]+\.([^.\s]+)\.[^.\s]+\s*$/i.exec(authorization)?.[1];
  if (!payload) return 'admin';
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { kind?: unknown }).kind === MEMBER_KIND ? 'member' : 'admin';
  } catch {
    return 'admin';
  }
}
