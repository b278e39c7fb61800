import type { FastifyInstance } from 'fastify';

function trimStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.trim();
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => trimStrings(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = trimStrings(item, depth + 1);
  return out;
}

/** Strings are trimmed before validation, so "  " is refused where a value is required (CONTRACT.md). */
export function registerInputNormalisation(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
      request.body = trimStrings(request.body);
    }
    if (request.query && typeof request.query === 'object') {
      request.query = trimStrings(request.query);
    }
  });
}
