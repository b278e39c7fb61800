import { AsyncResource } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { Pool } from 'pg';
import { listenForChanges, type FeedState } from './change-feed';
import { postgresListen, type Listen } from './notifications';
import { ALL_LAYERS, layersOf, setLayers, type Layers } from './layers';
import { preparedStatements, type QueryClient } from './pglite-statements';
import { poolClient } from './statement-watch';
import { ABANDON_MARGIN_MS, type DatabaseTimeouts } from './timeouts';

export { DEFAULT_TIMEOUTS, type DatabaseTimeouts } from './timeouts';
export { STATEMENT_WATCH_MS } from './statement-watch';
import { backfillLoginKeys } from './login-keys';
import * as schema from './schema';

/** The drizzle handle both drivers share; a transaction handle is one too. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Per database open in this process that may remember answers, by its drizzle handle: a number
 * that moves whenever what a read answers may have changed, or null while that cannot be known.
 */
const changeVersions = new WeakMap<Db, (tables: readonly string[]) => number | null>();

/** The layers whose answers memoUntilWrite remembers (db/layers.ts). */
export type MemoLayer = 'sessions' | 'answers';

/** The answers memoUntilWrite holds per database and layer (GET /metrics). */
const memos = new WeakMap<Db, Array<{ layer: MemoLayer; memo: { readonly size: number } }>>();

/** How many answers of `layer` are remembered for `db` now. */
export function rememberedAnswers(db: Db, layer: MemoLayer): number {
  return (memos.get(db) ?? []).reduce((sum, entry) => sum + (entry.layer === layer ? entry.memo.size : 0), 0);
}

/**
 * `lookup`, with its answers remembered per key until something it reads is written, while its
 * layer (`sessions` or `answers`, db/layers.ts) is on.
 *
 * On the embedded database that is exact: the data-dir lock makes this process the database's
 * only client, so nothing can change what a read answers but a statement this process sends, and
 * the statement client counts every one that may have (see StatementClient.writes; a SELECT
 * cannot, the product has no function that writes).
 *
 * On PostgreSQL other processes write too. There answers are remembered only when the database
 * was opened with `memo` (the server; see SESSIONS_IN_MEMORY), and only while its change feed
 * (db/change-feed.ts) is trusted: this process's own writes are counted as on the embedded
 * database, and the writes of every process to `tables` are announced by the database's triggers
 * (migrations 0010 and 0023) on a channel this process listens to, within TRUST_MS at most.
 * While the channel is down every call runs `lookup`: memory is never trusted without it.
 *
 * A remembered answer comes back as it is (callers never change it); a looked-up one as a promise.
 * A lookup that fails is not remembered.
 *
 * Either way an answer read while a write went on is not kept. `keep` says whether an answer may
 * be remembered and `fresh` whether a remembered one still holds for these arguments (what the
 * statement compares with the clock, say). `tables` must name every table whose triggers announce
 * a change to what `lookup` reads. `size` with `maxSize` bounds the memory by the answers' sizes
 * as well as their count.
 */
export function memoUntilWrite<A extends unknown[], R>(
  db: Db,
  lookup: (...args: A) => Promise<R>,
  options: {
    layer: MemoLayer;
    tables: readonly string[];
    key: (...args: A) => string;
    keep: (answer: R) => boolean;
    fresh: (answer: R, ...args: A) => boolean;
    max?: number;
    size?: (answer: R) => number;
    maxSize?: number;
  },
): (...args: A) => R | Promise<R> {
  const changes = changeVersions.get(db);
  if (!changes || !layersOf(db)[options.layer]) return lookup;
  const { tables } = options;
  const version = () => changes(tables);
  // Bounded by count (and size), the least recently used answer going first; a write makes every
  // answer stale at once by moving the version, so nothing needs evicting for it.
  const memo = new LRUCache<string, { version: number; answer: R }>({
    max: options.max ?? 1000,
    ...(options.size &&
      options.maxSize && { maxSize: options.maxSize, sizeCalculation: (entry) => Math.max(1, options.size!(entry.answer)) }),
  });
  memos.set(db, [...(memos.get(db) ?? []), { layer: options.layer, memo }]);
  return (...args) => {
    const before = version();
    if (before === null) return lookup(...args);
    const key = options.key(...args);
    const known = memo.get(key);
    // A remembered answer is answered as it is, not as a promise: the session check of every
    // guarded call then costs no promise and no turn of the microtask queue.
    if (known && known.version === before && options.fresh(known.answer, ...args)) return known.answer;
    return lookup(...args).then((answer) => {
      if (version() === before && options.keep(answer)) memo.set(key, { version: before, answer });
      return answer;
    });
  };
}

export interface Database {
  db: Db;
  kind: 'embedded' | 'postgres';
  /** Which optimisations run behind this handle (db/layers.ts). */
  layers: Layers;
  /**
   * Applies the committed migrations, then computes what SQL cannot (db/login-keys.ts); safe when
   * several processes start at once.
   */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** LISTEN to a channel's notifications (the review queue's live events), on both databases. */
  listen: Listen;
  close(): Promise<void>;
  /** What GET /metrics reads: the pool's connections (PostgreSQL) and whether the change feed is trusted. */
  stats?(): DatabaseStats;
  /**
   * The embedded database only: its whole data directory as one tar (PGlite's `dumpDataDir`), which
   * `startFrom` opens again. The server tests start every file from one migrated copy (test/harness.ts).
   */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabaseStats {
  /** node-postgres' public totalCount / idleCount / waitingCount; null on the embedded database. */
  pool: { total: number; idle: number; waiting: number } | null;
  /** Whether remembered answers are trusted now (db/change-feed.ts); null when nothing is remembered. */
  feedLive: boolean | null;
}

/**
 * Called as a statement is sent, with its text (never its parameters); what it answers, if
 * anything, is called once with the statement's error (null when it succeeded).
 */
export type StatementHook = (text: string) => ((error: unknown) => void) | null;

interface QueryObserver {
  /** The optimisations to run (db/layers.ts); every one unless said otherwise. */
  layers?: Layers;
  /**
   * Called with every statement drizzle sends and its parameters (tests count the round trips of
   * a call; the benchmark replays them through pgbench).
   */
  onQuery?: (sql: string, params: unknown[]) => void;
  /** Around every statement the server sends, on both drivers (lib/tracing.ts: a span each). */
  onStatement?: StatementHook;
}

export type DatabaseOptions = QueryObserver &
  (
    | {
        kind: 'postgres';
        url: string;
        poolSize?: number;
        timeouts?: DatabaseTimeouts;
        onPoolError?: (error: Error) => void;
        /**
         * Let memoUntilWrite remember answers (the session check), through a change feed: a
         * dedicated listening connection (db/change-feed.ts). Off by default: the command-line
         * tools and the benchmark's statement capture have no use for one.
         */
        memo?: boolean;
        onFeedState?: (state: FeedState) => void;
      }
    | {
        kind: 'embedded';
        dataDir: string | null;
        /**
         * In memory (dataDir null): start from this dump of a data directory (dumpDataDir) instead
         * of an empty cluster, which skips initdb: ~0.4 s instead of ~2 s.
         */
        startFrom?: Blob;
        /**
         * Let memoUntilWrite remember answers; on by default (exact there). It counts writes through
         * the statement client, so it needs the `statements` layer as well as `sessions`.
         */
        memo?: boolean;
      }
  );

function queryLogger({ onQuery }: QueryObserver) {
  return onQuery ? { logQuery: (query: string, params: unknown[]) => onQuery(query, params) } : undefined;
}

/**
 * A pool that gives a waiting caller its client in the caller's own async context: pg-pool hands it
 * over from the call that released it, whose request a statement's span would otherwise join.
 */
class CallerContextPool extends Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's connect() overloads take and give any; this forwards them.
  connect(callback?: any): any {
    return callback ? super.connect(AsyncResource.bind(callback)) : super.connect();
  }
}

/** What drizzle's PGlite driver calls on its client: PGlite's public query and transaction. */
type TransactionClient = QueryClient & { transaction<T>(work: (tx: QueryClient) => Promise<T>): Promise<T> };

/** `client` with `onStatement` around each of its statements, those of its transactions included. */
function observed(client: TransactionClient, onStatement: StatementHook): TransactionClient {
  const observe = (inner: QueryClient): QueryClient => ({
    async query<T>(text: string, params?: unknown[], queryOptions?: Parameters<QueryClient['query']>[2]) {
      const end = onStatement(text);
      try {
        const result = await inner.query<T>(text, params, queryOptions);
        end?.(null);
        return result;
      } catch (error) {
        end?.(error);
        throw error;
      }
    },
  });
  const outside = observe(client);
  return {
    query: (text, params, queryOptions) => outside.query(text, params, queryOptions),
    transaction: (work) => client.transaction((tx) => work(observe(tx))),
  } as TransactionClient;
}

export function migrationsFolder(): string {
  // The source tree (server/src/db) and the bundle (server/dist) sit at different depths.
  const candidates = [path.resolve(__dirname, '../../migrations'), path.resolve(__dirname, '../migrations')];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`找不到数据库迁移目录（查找过 ${candidates.join('、')}）`);
  return found;
}

/**
 * PGlite zeroes its shared memory when it is made, so all of shared_buffers is resident from the
 * start; its files sit in the page cache, 8MB holds the lists' hot pages, and one backend runs.
 * Nothing here changes what is written or when (figures: docs/decisions/0003).
 */
const EMBEDDED_SETTINGS = ['shared_buffers=8MB', 'max_connections=8'];

/**
 * The settings of every connection to PostgreSQL (the benchmark's floor and pgbench use them too):
 * JIT recompiles a prepared statement on every execution and parallel workers start for branches a
 * search then skips; no statement here repays either (figures: docs/decisions/0007).
 */
export const SESSION_SETTINGS = '-c jit=off -c max_parallel_workers_per_gather=0';

/** Connections a server process keeps to PostgreSQL (the benchmark's floor uses as many). */
export const DEFAULT_POOL_SIZE = 10;

// Any constant works; it only has to be the same in every process of this product.
const MIGRATION_LOCK_KEY = 7_001_2024;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const timeouts = options.timeouts;
    const layers = options.layers ?? ALL_LAYERS;
    let writes = 0;
    const feed =
      options.memo && (layers.sessions || layers.answers) ? listenForChanges({ url: options.url, onState: options.onFeedState }) : null;
    const pool = new (options.onStatement ? CallerContextPool : Pool)({
      connectionString: options.url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      // Without time-outs (the command-line tools) a long statement or lock wait is allowed.
      connectionTimeoutMillis: timeouts?.acquireMs ?? 10_000,
      ...(timeouts && { lock_timeout: timeouts.lockMs, statement_timeout: timeouts.statementMs }),
      // Without the watch, pg's own query_timeout stops the wait (public, but it leaves the
      // statement in flight on a connection that goes back to the pool: see poolClient).
      ...(timeouts && !layers.watch && { query_timeout: timeouts.statementMs + ABANDON_MARGIN_MS }),
      Client: poolClient({
        boundMs: timeouts && layers.watch ? timeouts.statementMs + ABANDON_MARGIN_MS : null,
        onWrite: feed ? () => void writes++ : null,
        onStatement: options.onStatement ?? null,
      }),
      // A connection whose peer vanished without closing it is noticed instead of hanging.
      keepAlive: true,
      options: SESSION_SETTINGS,
    });
    // An idle client losing its connection (a database restart) must not crash the process.
    pool.on('error', (error) => options.onPoolError?.(error));
    // The pool listens only to idle clients: one checked out (a transaction between two
    // statements) that loses its connection would raise an unhandled 'error' and end the process.
    // Its statement fails on its own (503), and the pool drops the broken client on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg({ client: pool, schema, logger: queryLogger(options) }) as unknown as Db;
    const listeners = new Set<Promise<() => Promise<void>>>();
    setLayers(db, layers);
    if (feed) {
      changeVersions.set(db, (tables) => {
        const version = feed.version(tables);
        return version === null ? null : version + writes;
      });
    }
    return {
      db,
      kind: 'postgres',
      layers,
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
          // Still under the migration lock: one process at a time computes the missing keys.
          await backfillLoginKeys(db);
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
          client.release();
        }
      },
      async ping() {
        await pool.query('select 1');
      },
      listen: (channel, onPayload) => {
        const stop = postgresListen(options.url)(channel, onPayload);
        listeners.add(stop);
        return stop;
      },
      stats: () => ({
        pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
        feedLive: feed ? feed.trusted() : null,
      }),
      async close() {
        await Promise.all([...listeners].map(async (stop) => (await stop)()));
        await feed?.close();
        await pool.end();
      },
    };
  }

  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  // Migration 0001 creates pg_trgm (its indexes gave way to search_grams in 0008); PGlite loads an
  // extension only when told to.
  const client = new PGlite({
    dataDir: options.dataDir ?? undefined,
    loadDataDir: options.startFrom,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  await client.waitReady;
  const layers = options.layers ?? ALL_LAYERS;
  // Without the statement client, drizzle's own PGlite driver over PGlite's query().
  const statements = layers.statements ? preparedStatements(client) : null;
  const queries: TransactionClient = statements ?? (client as unknown as TransactionClient);
  const db = drizzlePglite({
    client: (options.onStatement ? observed(queries, options.onStatement) : queries) as unknown as PGlite,
    schema,
    logger: queryLogger(options),
  }) as unknown as Db;
  setLayers(db, layers);
  if (statements && (layers.sessions || layers.answers) && options.memo !== false) changeVersions.set(db, statements.writes);
  return {
    db,
    kind: 'embedded',
    layers,
    async migrate() {
      statements?.countWrite();
      try {
        await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        statements?.countWrite();
      }
      await backfillLoginKeys(db);
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    // PGlite delivers a notification to its own listeners, in this process: the only one it has.
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async close() {
      if (!client.closed) await client.close();
    },
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}
