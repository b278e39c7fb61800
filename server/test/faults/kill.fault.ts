import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/client';
import { call, signIn } from '../live/client';
import { consistencyProblems } from '../live/consistency';
import { PostgresCluster } from '../live/postgres';
import { embeddedDataDir, ServerProcess, sleep } from '../live/server-process';
import { ledgerProblems, prepare, startWrites, type Ledger } from './writes';

/**
 * kill -9 of the server in the middle of concurrent writes (creations, and deletions that cascade
 * to issues and comments and recount the counters): after a restart every acknowledged write is
 * there and no cascade is half done.
 */

let dataDir: string;
beforeEach(async () => {
  dataDir = await embeddedDataDir();
}, 180_000);
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function crashDuringWrites(server: ServerProcess): Promise<{ ledger: Ledger; inFlightAtKill: number }> {
  const token = await signIn(server.url);
  const ledger = await prepare(server.url, token);
  const load = startWrites(server.url, token, ledger);
  // Enough acknowledged writes that the ledger means something, then the crash, mid-flight.
  const deadline = Date.now() + 20_000;
  const enough = () => load.acknowledged() >= 40 && ledger.created.uploads.length >= 2 && ledger.deleted.users.length >= 2;
  while (!enough() && Date.now() < deadline) await sleep(20);
  expect(enough()).toBe(true);
  const inFlightAtKill = load.inFlight();
  await server.kill9();
  await load.stop();
  return { ledger, inFlightAtKill };
}

async function expectKept(ledger: Ledger, database: Database) {
  expect(await ledgerProblems(database.db, ledger)).toEqual([]);
  expect(await consistencyProblems(database.db)).toEqual([]);
}

function summary(ledger: Ledger) {
  const { created, deleted } = ledger;
  return `acknowledged: ${created.users.length} users, ${created.books.length} books, ${created.issues.length} issues, ${created.comments.length} comments, ${created.uploads.length} uploads created; ${deleted.users.length} users and ${deleted.issues.length} issues deleted; ${ledger.unanswered} calls cut off`;
}

describe('kill -9 during concurrent writes', () => {
  it('embedded database: the stale lock is taken over, the database reopens, every acknowledged write is kept', async () => {
    const first = await ServerProcess.start({ dataDir });
    const { ledger, inFlightAtKill } = await crashDuringWrites(first);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(ledger.refused).toEqual([]);

    // The dead process's lock is still on disk: it must not stop the restart.
    const lockFile = path.join(dataDir, 'server.lock');
    expect(fs.readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(first.pid));

    const second = await ServerProcess.start({ dataDir });
    expect(fs.readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(second.pid));
    // The session made before the crash survived it too.
    const token = await signIn(second.url);
    for (const id of ledger.created.users.slice(0, 3)) {
      expect((await call(second.url, 'GET', `/api/user/${id}`, { token })).status).toBe(200);
    }
    for (const upload of ledger.created.uploads.slice(0, 3)) {
      const served = await fetch(`${second.url}${upload.path}`);
      expect(Buffer.from(await served.arrayBuffer()).equals(upload.bytes)).toBe(true);
    }
    expect(await second.terminate()).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(lockFile)).toBe(false);

    const database = await openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'pglite') });
    try {
      await expectKept(ledger, database);
    } finally {
      await database.close();
    }
    console.log(`embedded, kill -9 with ${inFlightAtKill} calls in flight; ${summary(ledger)}; 0 lost`);
  }, 90_000);

  it('PostgreSQL: every acknowledged write is kept and the counters hold', async () => {
    const cluster = await PostgresCluster.create();
    try {
      const databaseUrl = await cluster.createDatabase('kill9');
      const first = await ServerProcess.start({ dataDir, databaseUrl });
      const { ledger, inFlightAtKill } = await crashDuringWrites(first);
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(ledger.refused).toEqual([]);

      const second = await ServerProcess.start({ dataDir, databaseUrl });
      const token = await signIn(second.url);
      expect((await call(second.url, 'GET', '/api/issue?pageSize=100', { token })).status).toBe(200);
      expect(await second.terminate()).toEqual({ code: 0, signal: null });

      const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
      try {
        await expectKept(ledger, database);
      } finally {
        await database.close();
      }
      console.log(`PostgreSQL, kill -9 with ${inFlightAtKill} calls in flight; ${summary(ledger)}; 0 lost`);
    } finally {
      await cluster.destroy();
    }
  }, 90_000);
});
