import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/errors';

// PostgreSQL text cannot hold U+0000: left in, it would fail the query as a 500.
const NUL = '\u0000';
const HAS_NUL = '请求内容不能包含空字符（\\u0000）';
// White space and the default-ignorable code points (zero-width space and joiners, soft hyphen,
// variation selectors, …), and nothing else.
const SHOWS_NOTHING = /^[\s\p{Default_Ignorable_Code_Point}]+$/u;

function normalise(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.includes(NUL)) throw badRequest(HAS_NUL);
    // Only invisible characters (zero-width spaces, …) is as empty as only spaces.
    return SHOWS_NOTHING.test(value) ? '' : value.trim();
  }
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => normalise(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) throw badRequest(HAS_NUL);
    out[key] = normalise(item, depth + 1);
  }
  return out;
}

/** Strings are trimmed before validation, so "  " is refused where a value is required (docs/api.md). */
export function registerInputNormalisation(app: FastifyInstance) {
  // Written with `done` (no promise per call); a refusal is handed to done as the error.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      if (request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
        request.body = normalise(request.body);
      }
      if (request.query && typeof request.query === 'object') {
        request.query = normalise(request.query);
      }
      // Path parameters are matched, not trimmed: only the NUL check applies to them.
      for (const param of Object.values((request.params ?? {}) as Record<string, unknown>)) {
        if (typeof param === 'string' && param.includes(NUL)) throw badRequest(HAS_NUL);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
