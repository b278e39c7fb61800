import path from 'node:path';
import type { Config } from '../config';
import { lockDataDir } from '../lib/data-dir-lock';
import { openDatabase, type Database, type DatabaseTimeouts } from './client';

/**
 * The database the configuration names, for the server and the command-line tools alike:
 * PostgreSQL at DATABASE_URL, or else the embedded one in DATA_DIR, which only one process may
 * open at a time (DataDirInUseError when another holds it). `close` also gives the data folder
 * back, as does a failure to open.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  // The server bounds its waits (config.databaseTimeouts); the command-line tools pass none.
  options: { onPoolError?: (error: Error) => void; timeouts?: DatabaseTimeouts } = {},
): Promise<Database> {
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  let database: Database;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl, onPoolError: options.onPoolError, timeouts: options.timeouts }
        : { kind: 'embedded', dataDir: path.join(config.dataDir, 'pglite') },
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
