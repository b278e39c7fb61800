import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { memoUntilWrite, openDatabase, queryRows, type Database } from './client';
import { preparedStatements, type StatementClient } from './pglite-statements';
import { SESSION_TABLES } from './change-feed';

// The embedded database only: these are PGlite's statement client and the memo it makes exact.
let pg: PGlite;
let client: StatementClient;
let database: Database;

beforeAll(async () => {
  pg = new PGlite();
  client = preparedStatements(pg);
  await pg.exec(`
    create table t (id int primary key, name text, big bigint, flag boolean, doc jsonb, raw bytea, at timestamptz);
    insert into t values (1, 'één', 9007199254740993, true, '{"a":[1,2]}', '\\x0102', '2024-01-02 03:04:05+00'),
                         (2, null, 7, false, null, null, null);`);
  database = await openDatabase({ kind: 'embedded', dataDir: null });
  await database.migrate();
}, 120_000);
afterAll(async () => {
  await pg.close();
  await database.close();
});

describe('prepared statement client', () => {
  const statement = 'select id, name, big, flag, doc, raw, at from t where id >= $1 order by id';

  it.each(['object', 'array'] as const)('answers what PGlite query answers, rows as %ss', async (rowMode) => {
    const ours = await client.query(statement, [1], { rowMode });
    const theirs = await pg.query(statement, [1], { rowMode });
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.fields).toEqual(theirs.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })));
    expect(ours.rows).toHaveLength(2);
  });

  it('uses the parsers and serializers it is given, as PGlite does', async () => {
    const options = { rowMode: 'array' as const, parsers: { 1184: (value: string) => `at ${value}` }, serializers: { 23: () => '2' } };
    const ours = await client.query('select id, at from t where id = $1', [1], options);
    expect(ours.rows).toEqual((await pg.query('select id, at from t where id = $1', [1], options)).rows);
    expect(ours.rows).toEqual([[2, null]]);
    expect((await client.query('select at from t where id = 1', [], options)).rows).toEqual([['at 2024-01-02 03:04:05+00']]);
  });

  it('counts the rows a write changed', async () => {
    const ours = await client.query('update t set flag = flag where id <= $1', [2]);
    expect(ours).toMatchObject({ affectedRows: 2, rowCount: 2, rows: [] });
  });

  it("throws PGlite's DatabaseError with the state and the statement, and goes on working", async () => {
    const failure = client.query('insert into t (id) values ($1)', [1]);
    await expect(failure).rejects.toMatchObject({
      code: '23505',
      constraint: 't_pkey',
      query: 'insert into t (id) values ($1)',
      params: [1],
    });
    await expect(client.query('select count(*)::int as n from t')).resolves.toMatchObject({ rows: [{ n: 2 }] });
  });

  it('prepares a statement again when its table changed shape', async () => {
    await client.query('create table shape (a int)');
    await client.query('insert into shape values (1)');
    expect((await client.query('select * from shape')).rows).toEqual([{ a: 1 }]);
    await client.query('alter table shape add column b int default 2');
    expect((await client.query('select * from shape')).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('keeps at most 200 statements prepared, closing the least recently used', async () => {
    const own = new PGlite();
    try {
      const statements = preparedStatements(own);
      const named = (text: string) => own.query<{ name: string }>(`select name from pg_prepared_statements where statement = $1`, [text]);
      await statements.query('select 0 as kept');
      for (let i = 1; i <= 250; i++) {
        await statements.query(`select ${i} as n`);
        // Used again and again: never the least recently used.
        if (i % 50 === 0) await statements.query('select 0 as kept');
      }
      // The next statement prepared closes those pushed out on the way.
      await statements.query('select 251 as n');
      const open = (await own.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0].n;
      // 200 kept, and the one just pushed out, which the next statement prepared will close.
      expect(open).toBe(201);
      expect((await named('select 0 as kept')).rows).toHaveLength(1);
      expect((await named('select 1 as n')).rows).toHaveLength(0);
      expect((await named('select 250 as n')).rows).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('runs nothing of its own inside a transaction another caller holds', async () => {
    let outside: Promise<{ rows: Array<{ name: string | null }> }> | undefined;
    await client.transaction(async (tx) => {
      await tx.query('update t set name = $1 where id = 2', ['在事务中']);
      outside = client.query<{ name: string | null }>('select name from t where id = 2');
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query('update t set name = $1 where id = 2', ['之后']);
    });
    expect((await outside!).rows).toEqual([{ name: '之后' }]);
  });

  it('says the database is closed instead of reaching a closed module', async () => {
    const closing = new PGlite();
    const closed = preparedStatements(closing);
    await closing.close();
    await expect(closed.query('select 1')).rejects.toThrow('PGlite is closed');
  });

  it('counts every statement but a SELECT, and every failure, as a possible write', async () => {
    const before = client.writes();
    await client.query('select 1');
    expect(client.writes()).toBe(before);
    await client.query('update t set flag = flag where id = 1');
    expect(client.writes()).toBe(before + 1);
    await client.transaction(async (tx) => {
      await tx.query('delete from t where id = 3');
    });
    expect(client.writes()).toBeGreaterThan(before + 1);
    const afterTransaction = client.writes();
    await expect(client.query('select 1/0')).rejects.toMatchObject({ code: '22012' });
    expect(client.writes()).toBe(afterTransaction + 1);
  });
});

describe('memoUntilWrite on the embedded database', () => {
  function countedLookup() {
    let calls = 0;
    const lookup = async (id: string, now: number) => {
      calls++;
      const rows = await queryRows<{ id: string; expires: number }>(
        database.db,
        sql`select id, expires_at::float8 as expires from admin_sessions where id = ${id} and expires_at > ${now}`,
      );
      return rows[0] ?? null;
    };
    const memo = memoUntilWrite(database.db, lookup, {
      layer: 'sessions',
      tables: SESSION_TABLES,
      key: (id) => id,
      keep: (row) => row !== null,
      fresh: (row, _id, now) => row !== null && row.expires > now,
    });
    return { memo, calls: () => calls };
  }

  beforeAll(async () => {
    await database.db.execute(sql`insert into admins (id, login_id, password_hash, nickname, avatar, permission, created_at)
      values ('memo-admin-0000000000001', 'memo-admin', 'x', 'memo', 'a.png', 1, 0)`);
    await database.db.execute(sql`insert into admin_sessions (id, admin_id, created_at, expires_at)
      values ('memo-session', 'memo-admin-0000000000001', 0, 1000)`);
  });

  it('answers again from memory until something is written', async () => {
    const { memo, calls } = countedLookup();
    expect(await memo('memo-session', 10)).toMatchObject({ id: 'memo-session' });
    expect(await memo('memo-session', 20)).toMatchObject({ id: 'memo-session' });
    expect(calls()).toBe(1);
    await database.db.execute(sql`update admin_sessions set expires_at = 2000 where id = 'memo-session'`);
    expect(await memo('memo-session', 30)).toMatchObject({ expires: 2000 });
    expect(calls()).toBe(2);
  });

  it('does not keep what the statement would no longer answer at a later time', async () => {
    const { memo, calls } = countedLookup();
    expect(await memo('memo-session', 10)).not.toBeNull();
    expect(await memo('memo-session', 5000)).toBeNull();
    expect(calls()).toBe(2);
  });

  it('sees a deletion made in a transaction, and keeps no answer that was not found', async () => {
    const { memo, calls } = countedLookup();
    expect(await memo('memo-session', 10)).not.toBeNull();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`delete from admin_sessions where id = 'memo-session'`);
    });
    expect(await memo('memo-session', 10)).toBeNull();
    expect(await memo('memo-session', 10)).toBeNull();
    expect(calls()).toBe(3);
  });

  it('does not keep an answer read while a write went on', async () => {
    await database.db.execute(sql`insert into admin_sessions (id, admin_id, created_at, expires_at)
      values ('memo-session-2', 'memo-admin-0000000000001', 0, 1000)`);
    const { memo, calls } = countedLookup();
    // The lookup waits for the transaction, which changes the row before it ends.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await held;
      await tx.execute(sql`update admin_sessions set expires_at = 3000 where id = 'memo-session-2'`);
    });
    const during = memo('memo-session-2', 10);
    release();
    await transaction;
    expect(await during).toMatchObject({ expires: 3000 });
    await database.db.execute(sql`update admin_sessions set expires_at = 4000 where id = 'memo-session-2'`);
    expect(await memo('memo-session-2', 10)).toMatchObject({ expires: 4000 });
    expect(await memo('memo-session-2', 10)).toMatchObject({ expires: 4000 });
    expect(calls()).toBe(2);
  });

  it('remembers a bounded number of answers, forgetting the least recently used first', async () => {
    await database.db.execute(sql`insert into admin_sessions (id, admin_id, created_at, expires_at)
      values ('memo-lru-1', 'memo-admin-0000000000001', 0, 1000), ('memo-lru-2', 'memo-admin-0000000000001', 0, 1000),
             ('memo-lru-3', 'memo-admin-0000000000001', 0, 1000)`);
    const looked: string[] = [];
    const memo = memoUntilWrite(
      database.db,
      async (id: string) => {
        looked.push(id);
        return (await queryRows<{ id: string }>(database.db, sql`select id from admin_sessions where id = ${id}`))[0] ?? null;
      },
      { layer: 'sessions', tables: SESSION_TABLES, key: (id) => id, keep: (row) => row !== null, fresh: () => true, max: 2 },
    );
    for (const id of ['memo-lru-1', 'memo-lru-2', 'memo-lru-1', 'memo-lru-3', 'memo-lru-1', 'memo-lru-2']) await memo(id);
    // 2 was the least recently used when 3 came: only it was forgotten.
    expect(looked).toEqual(['memo-lru-1', 'memo-lru-2', 'memo-lru-3', 'memo-lru-2']);
  });

  it('is the lookup itself on a database it does not know (PostgreSQL)', async () => {
    let calls = 0;
    const lookup = async () => ++calls;
    const other = await openDatabase({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      const memo = memoUntilWrite(other.db, lookup, {
        layer: 'sessions',
        tables: SESSION_TABLES,
        key: () => 'k',
        keep: () => true,
        fresh: () => true,
      });
      expect(memo).toBe(lookup);
    } finally {
      await other.close();
    }
  });
});
