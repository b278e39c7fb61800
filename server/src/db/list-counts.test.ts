import { and, eq, sql } from 'drizzle-orm';
import { contentFixtures } from '../../test/content';
import { createTestContext, type TestContext } from '../../test/harness';
import { queryRows } from './client';
import { createUserRepository } from '../modules/user/user.repository';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { BUCKET_ANCHOR_FROM, bucketKey, keptTotal, pageIdsByBuckets, type CountedList, type CountKey } from './list-counts';
import { comments, issues, users } from './schema';

let ctx: TestContext;

async function keptCount(list: CountedList, key: CountKey = {}): Promise<number> {
  const [row] = await queryRows<{ n: number }>(ctx.database.db, sql`select ${keptTotal(list, key)} as n`);
  return Number(row.n);
}
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Every kept count against a real count(*), for every key that occurs and for "any". */
async function expectCountsTrue() {
  const { db } = ctx.database;
  const truth = await queryRows<{ list: string; flag: boolean; kind: number; type_id: string; n: number }>(
    db,
    sql`
      select 'users' as list, enabled as flag, 0 as kind, '' as type_id, count(*)::int as n from users group by enabled
      union all select 'issues', issue_status, 0, type_id, count(*)::int from issues group by issue_status, type_id
      union all select 'comments', false, comment_type, type_id, count(*)::int from comments group by comment_type, type_id
      union all select 'books', false, 0, type_id, count(*)::int from books group by type_id
      union all select 'interviews', false, 0, type_id, count(*)::int from interviews group by type_id`,
  );
  const lists = ['users', 'issues', 'comments', 'books', 'interviews'] as const;
  for (const list of lists) {
    const rows = truth.filter((r) => r.list === list);
    expect({ list, n: await keptCount(list) }).toEqual({ list, n: rows.reduce((sum, r) => sum + Number(r.n), 0) });
    for (const row of rows) {
      const key =
        list === 'users'
          ? { flag: row.flag }
          : list === 'issues'
            ? { flag: row.flag, typeId: row.type_id }
            : list === 'comments'
              ? { kind: Number(row.kind), typeId: row.type_id }
              : { typeId: row.type_id };
      expect({ list, key, n: await keptCount(list, key) }).toEqual({ list, key, n: Number(row.n) });
    }
  }
}

describe('kept list counts', () => {
  it('follow inserts, updates, deletes, cascades and truncation in the same transaction', async () => {
    const { db } = ctx.database;
    const fx = contentFixtures(db);
    const [typeA, typeB] = [await fx.type(), await fx.type()];
    const userIds = [await fx.user(), await fx.user({ enabled: false }), await fx.user()];
    await fx.book(typeA);
    await fx.interview(typeB);
    const issueA = await fx.issue(userIds[0], typeA);
    const issueB = await fx.issue(userIds[1], typeB, { issueStatus: true });
    await fx.comment({ userId: userIds[2], typeId: typeA, issueId: issueA });
    await fx.comment({ userId: userIds[0], typeId: typeB, issueId: issueB });
    await expectCountsTrue();
    expect(await keptCount('users', { flag: false })).toBe(1);

    // Several rows in one statement, and a change of key.
    await db.update(users).set({ enabled: false });
    await db.update(issues).set({ issueStatus: true, typeId: typeB });
    await db.update(comments).set({ typeId: typeB });
    await expectCountsTrue();

    // Deleting a user takes their issues, and the comments under those, by foreign-key cascade.
    await db.delete(users).where(sql`${users.id} = ${userIds[0]}`);
    await expectCountsTrue();

    // A transaction that rolls back leaves the counts as they were.
    await expect(
      db.transaction(async (tx) => {
        await contentFixtures(tx).user();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectCountsTrue();

    await db.execute(sql`truncate book_unlocks, points_ledger, user_sessions, comments, issues, interviews, books, users`);
    await expectCountsTrue();
    expect(await keptCount('users')).toBe(0);
  });

  it('answer the list totals the API shows', async () => {
    const fx = contentFixtures(ctx.database.db);
    const type = await fx.type();
    for (let i = 0; i < 3; i++) await fx.user({ enabled: i > 0 });
    const user = await fx.user();
    await fx.issue(user, type, { issueStatus: true });
    const token = await ctx.rootToken();
    const get = async (url: string) =>
      (await ctx.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).json().data.count as number;
    const [all] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from users`);
    expect(await get('/api/user')).toBe(Number(all.n));
    const [disabled] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from users where not enabled`);
    expect(await get('/api/user?enabled=false')).toBe(Number(disabled.n));
    expect(await get(`/api/issue?issueStatus=true&typeId=${type}`)).toBe(1);
    expect(await get(`/api/issue?issueStatus=false&typeId=${type}`)).toBe(0);
  });
});

describe('kept buckets and deep pages', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  /** What migration 0009 counts: each list's date column and key sets (columns). */
  const BUCKETED: Array<{ list: CountedList; table: string; date: string; keySets: string[][] }> = [
    { list: 'users', table: 'users', date: 'register_date', keySets: [[], ['enabled']] },
    { list: 'books', table: 'books', date: 'on_shelf_date', keySets: [[], ['type_id']] },
    { list: 'interviews', table: 'interviews', date: 'on_shelf_date', keySets: [[], ['type_id']] },
    { list: 'issues', table: 'issues', date: 'issue_date', keySets: [[], ['issue_status'], ['type_id'], ['issue_status', 'type_id']] },
    { list: 'comments', table: 'comments', date: 'comment_date', keySets: [['comment_type'], ['comment_type', 'type_id']] },
  ];

  /** Every kept bucket (hour, day, 32 days) of every key of every list against the rows there are. */
  async function expectBucketsTrue() {
    const { db } = ctx.database;
    for (const { list, table, date, keySets } of BUCKETED) {
      const kept = await queryRows<{ key: string; span: number; start: number; n: number }>(
        db,
        sql`select key, span::int as span, start, n::int as n from list_buckets where list = ${list} and n <> 0 order by 1, 2, 3`,
      );
      const truth: typeof kept = [];
      for (const keySet of keySets) {
        const key = keySet.length
          ? sql.join(
              [...keySet].sort().map((column) => sql`${`${column}=`} || ${sql.identifier(column)}::text`),
              sql` || '&' || `,
            )
          : sql`''`;
        for (const span of [1, 24, 768]) {
          truth.push(
            ...(await queryRows<{ key: string; span: number; start: number; n: number }>(
              db,
              sql`select ${key} as key, ${span}::int as span, (floor(${sql.identifier(date)} / ${HOUR}::float8 / ${span}) * ${span})::int as start,
                  count(*)::int as n from ${sql.identifier(table)} group by 1, 3`,
            )),
          );
        }
      }
      const order = (rows: typeof kept) =>
        rows.map((r) => `${r.key}|${Number(r.span)}|${Number(r.start)}|${Number(r.n)}`).sort((a, b) => (a < b ? -1 : 1));
      expect({ list, buckets: order(kept) }).toEqual({ list, buckets: order(truth) });
    }
  }

  /** `count` users, the i-th registered at `date(i)`, every fourth disabled. */
  async function addUsers(count: number, date: (i: number) => number) {
    const dates = Array.from({ length: count }, (_, i) => date(i));
    await ctx.database.db.execute(sql`
      insert into users (id, login_id, password_hash, nickname, avatar, register_date, last_login_date, enabled)
      select 'e' || lpad(to_hex(g), 23, '0'), 'deep_' || g, 'x', 'deep ' || g, '', d, d, g % 4 <> 0
      from generate_series(1, ${count}::int) g, lateral (select (${JSON.stringify(dates)}::jsonb ->> (g - 1))::bigint as d) x`);
  }

  /** Dates over hours, days and 32-day blocks, unevenly, with shared timestamps and empty stretches. */
  const spread = (base: number) => (i: number) =>
    base + [0, 0, 1, 3, 3, 3, 4, 8, 40][i % 9] * DAY + [0, 1, 1, 5, 23][i % 5] * HOUR + (i % 7) * 60_000;

  beforeEach(async () => {
    await ctx.database.db.execute(sql`truncate book_unlocks, points_ledger, user_sessions, comments, issues, books, interviews, users`);
  });

  it('follow inserts, date and key changes, deletes, cascades, rollbacks and truncation', async () => {
    const { db } = ctx.database;
    const fx = contentFixtures(db);
    const [typeA, typeB] = [await fx.type(), await fx.type()];
    // Several per hour, on hour and day boundaries exactly, and before 1970.
    await addUsers(40, (i) => (i % 7) * DAY + (i % 4) * HOUR - (i % 3) * 1000 + (i % 2 ? DAY - 1 : 0) - 3 * DAY);
    const [author] = await queryRows<{ id: string }>(db, sql`select id from users order by id limit 1`);
    for (let i = 0; i < 6; i++) {
      const issue = await fx.issue(author.id, i % 2 ? typeA : typeB, { issueStatus: i % 3 === 0, issueDate: i * 5 * HOUR });
      await fx.comment({ userId: author.id, typeId: typeA, issueId: issue, commentDate: i * 7 * HOUR });
      const book = await fx.book(typeB, { onShelfDate: i * 30 * DAY });
      await fx.comment({ userId: author.id, typeId: typeB, bookId: book, commentDate: -i * HOUR });
      await fx.interview(i % 2 ? typeA : typeB, { onShelfDate: i * 11 * HOUR });
    }
    await expectBucketsTrue();
    await db
      .update(users)
      .set({ registerDate: sql`${users.registerDate} + ${5 * DAY + 3 * HOUR}`, enabled: sql`not ${users.enabled}` })
      .where(sql`${users.loginId} like 'deep_1%'`);
    await db
      .update(issues)
      .set({ issueStatus: sql`not ${issues.issueStatus}`, typeId: typeA, issueDate: sql`${issues.issueDate} + ${HOUR}` });
    await db.update(comments).set({ typeId: typeB });
    await expectBucketsTrue();
    await db.delete(users).where(sql`${users.loginId} like 'deep_2%'`);
    // The author's issues and comments go with them by foreign-key cascade.
    await db.delete(users).where(sql`${users.id} = ${author.id}`);
    await expectBucketsTrue();
    await expect(
      db.transaction(async (tx) => {
        await contentFixtures(tx).user();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectBucketsTrue();
    await db.execute(sql`truncate book_unlocks, points_ledger, user_sessions, comments, issues, books, interviews, users`);
    const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from list_buckets`);
    expect(Number(n)).toBe(0);
  });

  it('find every page exactly as skipping the rows would, for every counted combination of filters', async () => {
    const { db } = ctx.database;
    const fx = contentFixtures(db);
    const [typeA, typeB] = [await fx.type(), await fx.type()];
    const base = 19_000 * DAY;
    await addUsers(1300, spread(base));
    const [author] = await queryRows<{ id: string }>(db, sql`select id from users order by id limit 1`);
    const issue = await fx.issue(author.id, typeA, { issueDate: base });
    const book = await fx.book(typeA, { onShelfDate: base });
    await db.execute(sql`
      insert into issues (id, issue_title, issue_content, issue_status, issue_date, user_id, type_id)
      select 'f' || lpad(to_hex(g), 23, '0'), 'q', 'q', g % 3 = 0, ${base}::bigint + (g % 9) * ${DAY} + (g % 5) * ${HOUR} + (g % 7) * 60000,
             ${author.id}, case when g % 2 = 0 then ${typeA} else ${typeB} end
      from generate_series(1, 1300) g`);
    await db.execute(sql`
      insert into comments (id, user_id, issue_id, book_id, type_id, comment_content, comment_date, comment_type)
      select 'c' || lpad(to_hex(g), 23, '0'), ${author.id}, case when g % 3 = 0 then null else ${issue} end,
             case when g % 3 = 0 then ${book} end, case when g % 2 = 0 then ${typeA} else ${typeB} end, 'c',
             ${base}::bigint + (g % 11) * ${DAY} + (g % 4) * ${HOUR} + (g % 3) * 60000, case when g % 3 = 0 then 2 else 1 end
      from generate_series(1, 1300) g`);
    await expectBucketsTrue();

    const cases: Array<{
      list: CountedList;
      table: PgTable;
      date: PgColumn;
      id: PgColumn;
      filters: Array<[PgColumn, string | number | boolean]>;
    }> = [
      { list: 'users', table: users, date: users.registerDate, id: users.id, filters: [] },
      { list: 'users', table: users, date: users.registerDate, id: users.id, filters: [[users.enabled, false]] },
      { list: 'issues', table: issues, date: issues.issueDate, id: issues.id, filters: [] },
      { list: 'issues', table: issues, date: issues.issueDate, id: issues.id, filters: [[issues.issueStatus, true]] },
      { list: 'issues', table: issues, date: issues.issueDate, id: issues.id, filters: [[issues.typeId, typeB]] },
      {
        list: 'issues',
        table: issues,
        date: issues.issueDate,
        id: issues.id,
        filters: [
          [issues.typeId, typeA],
          [issues.issueStatus, false],
        ],
      },
      { list: 'comments', table: comments, date: comments.commentDate, id: comments.id, filters: [[comments.commentType, 1]] },
      {
        list: 'comments',
        table: comments,
        date: comments.commentDate,
        id: comments.id,
        filters: [
          [comments.commentType, 2],
          [comments.typeId, typeA],
        ],
      },
    ];
    for (const { list, table, date, id, filters } of cases) {
      const where = filters.length ? and(...filters.map(([column, value]) => eq(column, value))) : undefined;
      const key = bucketKey(filters.map(([column, value]) => [column.name, value]));
      const plain = await queryRows<{ id: string }>(
        db,
        sql`select ${id} as id from ${table} where ${where ?? sql`true`} order by ${date} desc, ${id} desc`,
      );
      for (const limit of [10, 7, 100]) {
        for (let offset = 0; offset <= plain.length + limit; offset += offset < 40 ? 1 : 37) {
          const page = pageIdsByBuckets({ list, key, table, where, date, id, limit, offset });
          const found = await queryRows<{ id: string }>(db, sql`select id from ${page} order by ${sql.raw('id')} desc`);
          const expected = plain.slice(offset, offset + limit).map((r) => r.id);
          // Ties in the date are broken by id, and ids here do not follow the date: compare in id order.
          expect({ list, key, limit, offset, ids: found.map((r) => r.id) }).toEqual({
            list,
            key,
            limit,
            offset,
            ids: [...expected].sort().reverse(),
          });
        }
      }
    }
  });

  it('serve deep pages of the lists through the kept buckets, with their totals', async () => {
    const { db } = ctx.database;
    await addUsers(2900, spread(19_000 * DAY));
    const repo = createUserRepository(db);
    for (const [filter, where] of [
      [{}, sql`true`],
      [{ enabled: true }, sql`enabled`],
    ] as const) {
      const plain = await queryRows<{ id: string }>(db, sql`select id from users where ${where} order by register_date desc, id desc`);
      for (const pageSize of [10, 7, 100]) {
        const pages = Math.ceil(plain.length / pageSize);
        for (const current of [Math.ceil(BUCKET_ANCHOR_FROM / pageSize) + 1, pages - 1, pages, pages + 1]) {
          const page = await repo.list(filter, { current, pageSize });
          const offset = (current - 1) * pageSize;
          expect({ filter, current, pageSize, ids: page.data.map((u) => u.id), count: page.count }).toEqual({
            filter,
            current,
            pageSize,
            ids: plain.slice(offset, offset + pageSize).map((r) => r.id),
            count: plain.length,
          });
        }
      }
    }
  });
});
