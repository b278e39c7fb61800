import path from 'node:path';
import type { Config } from '../config';
import { lockDataDir } from '../lib/data-dir-lock';
import type { FeedState } from './change-feed';
import { openDatabase, type Database, type DatabaseTimeouts, type StatementHook } from './client';
import { parseLayers, type Layers } from './layers';

/**
 * The optimisations DB_LAYERS asks for (db/layers.ts; `plain`: none, the reference
 * implementation). Read here rather than in config.ts: only the opening of the database uses it.
 */
export function configuredLayers(env: NodeJS.ProcessEnv = process.env): Layers {
  return parseLayers(env.DB_LAYERS);
}

/**
 * The database the configuration names, for the server and the command-line tools alike:
 * PostgreSQL at DATABASE_URL, or else the embedded one in DATA_DIR, which only one process may
 * open at a time (DataDirInUseError when another holds it). `close` also gives the data folder
 * back, as does a failure to open.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  // The server bounds its waits (config.databaseTimeouts) and may keep sessions in memory
  // (config.sessionsInMemory); the command-line tools do neither.
  options: {
    onPoolError?: (error: Error) => void;
    timeouts?: DatabaseTimeouts;
    memo?: boolean;
    onFeedState?: (state: FeedState) => void;
    layers?: Layers;
    /** Around every statement (lib/tracing.ts). */
    onStatement?: StatementHook;
  } = {},
): Promise<Database> {
  const layers = options.layers ?? configuredLayers();
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  let database: Database;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            onPoolError: options.onPoolError,
            timeouts: options.timeouts,
            memo: options.memo,
            onFeedState: options.onFeedState,
            layers,
            onStatement: options.onStatement,
          }
        : {
            kind: 'embedded',
            dataDir: path.join(config.dataDir, 'pglite'),
            memo: options.memo ?? true,
            layers,
            onStatement: options.onStatement,
          },
    );
  } catch (error) {
    release();
    throw error;
  }
  const close = database.close.bind(database);
  return Object.assign(database, {
    async close() {
      try {
        await close();
      } finally {
        release();
      }
    },
  });
}
