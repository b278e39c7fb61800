import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { migrationsFolder, queryRows, type Database } from '../db/client';

/** How long /readyz waits for the database before it says 503. */
export const READY_TIMEOUT_MS = 500;

/** The migrations this build ships (its journal): a database with fewer is not ready for it. */
function shippedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * GET /livez: the process answers. GET /readyz: it should be sent calls — the database answers
 * within READY_TIMEOUT_MS, its migrations are all applied and no stop has begun. /healthz stays
 * as it was (the database answers).
 */
export function registerProbes(app: FastifyInstance, database: Database) {
  const expected = shippedMigrations();
  // One look at the database at a time: probes every 100 ms at a database that hangs must not
  // take every pool connection; a probe that comes meanwhile waits for the same look.
  let looking: Promise<boolean> | null = null;
  const look = () => {
    looking ??= queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      .then(([row]) => Number(row?.n ?? 0) >= expected)
      .catch(() => false)
      .finally(() => {
        looking = null;
      });
    return looking;
  };

  app.get('/livez', { schema: { hide: true } }, (_request, reply) => {
    reply.header('Cache-Control', 'no-store').send({ status: 'ok' });
  });

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (app.stopping()) return reply.status(503).send({ status: 'stopping' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
    });
    const answer = await Promise.race([look(), timedOut]);
    clearTimeout(timer);
    if (answer === 'timeout') return reply.status(503).send({ status: 'database not answering' });
    if (!answer) return reply.status(503).send({ status: 'database unavailable or not migrated' });
    if (app.stopping()) return reply.status(503).send({ status: 'stopping' });
    return { status: 'ok' };
  });
}
