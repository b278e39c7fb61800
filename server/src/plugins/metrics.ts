import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows, rememberedAnswers, type Database } from '../db/client';
import { COUNTERS, type CounterName, counterValue } from '../lib/counters';
import { fail } from '../lib/http';
import { sql } from 'drizzle-orm';

/**
 * GET /metrics in the Prometheus text format (docs/operations.md lists each metric). Off unless
 * METRICS_TOKEN is set (then a bearer token is the only way in) or METRICS=loopback (a caller on
 * this machine, not through a proxy); otherwise it answers 404 like any unknown page.
 */

export interface MetricsOptions {
  token: string | null;
  loopback: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
// Seconds; the server's calls mostly take a few milliseconds, a slow one up to the statement time-out.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Who may read: the token's holder, or (METRICS=loopback) a direct caller on loopback. */
function admitted(request: FastifyRequest, options: MetricsOptions): boolean {
  const header = request.headers.authorization;
  if (options.token) return typeof header === 'string' && header.startsWith('Bearer ') && sameToken(header.slice(7), options.token);
  // The socket's own address, not request.ip: a proxy on this machine forwards strangers' calls.
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return options.loopback && !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '');
}

export function registerMetrics(app: FastifyInstance, database: Database, options: MetricsOptions) {
  const enabled = options.token !== null || options.loopback;
  if (!enabled) {
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => reply.status(404).send(fail(404, '页面不存在')));
    return;
  }

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Answered calls by method, route pattern and status, with their time to answer',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  // One child per series, found by a string: prom-client's labels() works out its key from the
  // values on every call, which the cheapest calls (whoami) felt (bench/NOTES.md, metrics overhead).
  const series = new Map<string, ReturnType<typeof requests.labels>>();
  const observe = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${status} ${route}`;
    let child = series.get(key);
    if (!child) {
      child = requests.labels(method, route, String(status));
      series.set(key, child);
    }
    child.observe(seconds);
  };

  const stats = () => database.stats?.() ?? { pool: null, feedLive: null };
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (open: all it holds, idle: not in use)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = stats().pool;
      if (!pool) return;
      this.set({ state: 'open' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Calls waiting for a PostgreSQL pool connection now',
    registers: [registry],
    collect() {
      this.set(stats().pool?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'db_lock_waits',
    help: "Statements of this database waiting for a lock now (pg_stat_activity's wait_event_type = 'Lock')",
    registers: [registry],
    async collect() {
      try {
        const [row] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        this.set(Number(row?.n ?? 0));
      } catch {
        // The database does not answer: the probes and the request errors say so.
      }
    },
  });
  new Gauge({
    name: 'sessions_in_memory',
    help: 'Session look-ups remembered in this process (SESSIONS_IN_MEMORY)',
    registers: [registry],
    collect() {
      this.set(rememberedAnswers(database.db, 'sessions'));
    },
  });
  new Gauge({
    name: 'public_answers_in_memory',
    help: "The public site's reads remembered in this process until a write (layer answers)",
    registers: [registry],
    collect() {
      this.set(rememberedAnswers(database.db, 'answers'));
    },
  });
  new Gauge({
    name: 'change_feed_live',
    help: '1 while the change feed that keeps remembered sessions true is trusted, 0 while it is down (absent without one)',
    registers: [registry],
    collect() {
      const live = stats().feedLive;
      if (live !== null) this.set(live ? 1 : 0);
    },
  });
  const counters: Array<[CounterName, string, string]> = [
    [COUNTERS.lockTimeouts, 'db_lock_timeouts_total', 'Calls that waited for a lock past DB_LOCK_TIMEOUT_MS'],
    [COUNTERS.statementTimeouts, 'db_statement_timeouts_total', 'Statements stopped by DB_STATEMENT_TIMEOUT_MS'],
    [COUNTERS.throttledSignIns, 'sign_in_throttled_total', 'Sign-in attempts refused by the throttle (429)'],
    [COUNTERS.versionConflicts, 'version_conflicts_total', 'Writes refused because the record changed since it was read (409)'],
    [COUNTERS.unversionedWrites, 'unversioned_writes_total', 'Writes sent without a version (last write wins)'],
    [COUNTERS.reauthRequired, 'reauth_required_total', 'Powerful actions refused for want of a fresh proof of identity (403)'],
    [COUNTERS.reauthProofs, 'reauth_proofs_total', 'Fresh proofs of identity given (POST /api/admin/me/reauth)'],
    [
      COUNTERS.passwordChangeRequired,
      'password_change_required_total',
      'Calls refused until a generated initial password is changed (403)',
    ],
  ];
  for (const [counter, name, help] of counters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(counterValue(counter));
      },
    });
  }

  // Written with `done`: it runs on every call, and must not cost one a promise.
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!admitted(request, options)) return reply.status(404).send(fail(404, '页面不存在'));
    return reply
      .header('Content-Type', registry.contentType)
      .header('Cache-Control', 'no-store')
      .send(await registry.metrics());
  });
}
