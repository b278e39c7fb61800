import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { scratchDatabase } from '../../test/live/postgres';
import { SESSION_CHANNEL, SESSION_TABLES, TRUST_MS } from './change-feed';
import { memoUntilWrite, openDatabase, queryRows, type Database } from './client';

/**
 * The session memory on PostgreSQL (memoUntilWrite through the change feed): only with
 * TEST_DATABASE_URL. The same across two server processes, end to end: test/faults/two-servers.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LISTENER = 'coder-station session listener';

onPostgres('sessions kept in memory on PostgreSQL', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  // Another process's connection: its writes reach this one only through the triggers' notifications.
  let other: Client;

  beforeAll(async () => {
    scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'cs_test');
    database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 3, memo: true });
    await database.migrate();
    other = new Client({ connectionString: scratch.url });
    await other.connect();
    await other.query(`insert into admins (id, login_id, password_hash, nickname, avatar, permission, created_at)
      values ('feed-admin-0000000000001', 'feed-admin', 'x', 'feed', 'a.png', 1, 0)`);
  }, 60_000);

  afterAll(async () => {
    await other?.end();
    await database?.close();
    await scratch?.drop();
  });

  function countedLookup() {
    let calls = 0;
    const lookup = async (id: string) => {
      calls++;
      const rows = await queryRows<{ id: string }>(database.db, sql`select id from admin_sessions where id = ${id}`);
      return rows[0] ?? null;
    };
    const memo = memoUntilWrite(database.db, lookup, {
      layer: 'sessions',
      tables: SESSION_TABLES,
      key: (id) => id,
      keep: (row) => row !== null,
      fresh: () => true,
    });
    return { memo, calls: () => calls };
  }

  async function newSession(id: string) {
    await other.query(
      `insert into admin_sessions (id, admin_id, created_at, expires_at) values ($1, 'feed-admin-0000000000001', 0, 1e13)`,
      [id],
    );
  }

  /** Waits until the memo answers from memory again (the feed is listening and trusted). */
  async function untilRemembered(memo: (id: string) => unknown, calls: () => number, id: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      await memo(id);
      const before = calls();
      await memo(id);
      if (calls() === before) return;
      if (Date.now() > deadline) throw new Error('the session memory never became trusted');
      await sleep(50);
    }
  }

  it('answers from memory until another connection deletes the session, and sees that within TRUST_MS', async () => {
    await newSession('feed-1');
    const { memo, calls } = countedLookup();
    await untilRemembered(memo, calls, 'feed-1');
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const id = `feed-1-${i}`;
      await newSession(id);
      await untilRemembered(memo, calls, id);
      await other.query('delete from admin_sessions where id = $1', [id]);
      const deleted = performance.now();
      while ((await memo(id)) !== null) await sleep(2);
      delays.push(performance.now() - deleted);
    }
    expect(Math.max(...delays)).toBeLessThanOrEqual(TRUST_MS);
  });

  it("sees this process's own writes at once", async () => {
    await newSession('feed-2');
    const { memo, calls } = countedLookup();
    await untilRemembered(memo, calls, 'feed-2');
    await database.db.execute(sql`delete from admin_sessions where id = 'feed-2'`);
    expect(await memo('feed-2')).toBeNull();
  });

  it('announces what the session check reads, not "last seen" nor the TOTP step', async () => {
    await newSession('feed-3');
    const listener = new Client({ connectionString: scratch.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', ({ payload }) => {
      if (!payload?.startsWith('hb ')) heard.push(payload ?? '');
    });
    await listener.query(`listen ${SESSION_CHANNEL}`);
    const announces = async (statement: string) => {
      heard.length = 0;
      await other.query(statement);
      // A round trip on the listening connection: what was committed before has been delivered.
      await listener.query('select 1');
      return heard.length > 0;
    };
    try {
      expect(await announces(`update admin_sessions set last_seen_at = 5 where id = 'feed-3'`)).toBe(false);
      expect(await announces(`update admins set totp_last_step = 7 where id = 'feed-admin-0000000000001'`)).toBe(false);
      expect(await announces(`update admin_sessions set expires_at = 2e13 where id = 'feed-3'`)).toBe(true);
      expect(await announces(`update admins set enabled = false where id = 'feed-admin-0000000000001'`)).toBe(true);
      expect(await announces(`update admins set enabled = true where id = 'feed-admin-0000000000001'`)).toBe(true);
      expect(await announces(`insert into settings (key, value) values ('require_2fa', 'true')`)).toBe(true);
      expect(await announces(`delete from settings where key = 'require_2fa'`)).toBe(true);
      expect(await announces(`delete from admin_sessions where id = 'feed-3'`)).toBe(true);
      expect(await announces(`delete from admin_sessions where id = 'no-such-session'`)).toBe(false);
    } finally {
      await listener.end();
    }
  });

  it('without its listening connection, looks every session up and refuses a revoked one at once, then listens again', async () => {
    await newSession('feed-4');
    await newSession('feed-5');
    const { memo, calls } = countedLookup();
    await untilRemembered(memo, calls, 'feed-4');
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = new URL(scratch.url).pathname.slice(1);
    try {
      // Nobody may connect (the pool's connections stay): the listener cannot come back yet.
      await admin.query(`alter database "${name}" allow_connections false`);
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [name, LISTENER],
      );
      expect(killed.rowCount).toBe(1);
      await sleep(100);
      // Down: every call asks the database, and what another connection revokes is refused at once.
      const before = calls();
      await memo('feed-5');
      await memo('feed-5');
      expect(calls()).toBe(before + 2);
      await other.query(`delete from admin_sessions where id = 'feed-4'`);
      expect(await memo('feed-4')).toBeNull();
    } finally {
      await admin.query(`alter database "${name}" allow_connections true`);
      await admin.end();
    }
    // Back: remembered again.
    await untilRemembered(memo, calls, 'feed-5');
  }, 30_000);
});
