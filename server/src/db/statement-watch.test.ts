import net from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { scratchDatabase } from '../../test/live/postgres';
import { openDatabase, queryRows, STATEMENT_WATCH_MS, type Database } from './client';
import { socketOf } from './statement-watch';
import { ABANDON_MARGIN_MS } from './timeouts';

// The watch drops a connection through pg's undocumented `connection.stream`: this fails, on any
// database, when a pg upgrade takes it away or it no longer ends the connection.
describe("pg's connection socket, as the watch uses it", () => {
  it('is there, and destroying it fails the connection at once', async () => {
    const sockets: net.Socket[] = [];
    // A peer that accepts and never answers: the connection waits for its first reply.
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'none' });
    client.on('error', () => undefined);
    const connecting = client.connect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    socketOf(client).destroy();
    await expect(connecting).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});

/**
 * The client's own bound on a statement (poolClient's watch), for a PostgreSQL that does not
 * answer at all: only with TEST_DATABASE_URL. PostgreSQL's statement_timeout is switched off in
 * the statement's own transaction, so that only the client can give up on it. The fault test
 * (test/faults/postgres-pause) does the same against a stopped server.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const STATEMENT_MS = 100;
const BOUND_MS = STATEMENT_MS + ABANDON_MARGIN_MS;

onPostgres('a statement with no answer', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;

  beforeAll(async () => {
    scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'cs_test');
    database = await openDatabase({
      kind: 'postgres',
      url: scratch.url,
      poolSize: 2,
      timeouts: { acquireMs: 2000, lockMs: 2000, statementMs: STATEMENT_MS },
    });
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('is given up on once its bound has passed, and the pool goes on with a new connection', async () => {
    const started = performance.now();
    const hung = database.db.transaction(async (tx) => {
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(sql`select pg_sleep(5)`);
    });
    await expect(hung).rejects.toThrow();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(BOUND_MS);
    expect(waited).toBeLessThan(BOUND_MS + STATEMENT_WATCH_MS + 1000);

    const [row] = await queryRows<{ ok: number }>(database.db, sql`select 1 as ok`);
    expect(Number(row.ok)).toBe(1);
  });

  it('leaves the statements that are answered in time alone, however many run at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => queryRows<{ n: number }>(database.db, sql`select ${i}::int as n, pg_sleep(0.01)`)),
    );
    expect(answers.map(([row]) => Number(row.n))).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});
