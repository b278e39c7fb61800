import { sql } from 'drizzle-orm';
import { contentFixtures } from '../../test/content';
import { createTestContext, type TestContext } from '../../test/harness';
import { queryRows } from './client';
import { createUserRepository } from '../modules/user/user.repository';
import { DAY_ANCHOR_FROM, keptTotal, type CountedList, type CountKey } from './list-counts';
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

    await db.execute(sql`truncate comments, issues, interviews, books, users`);
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

describe('kept days and deep pages of the user list', () => {
  const DAY = 86_400_000;

  /** The kept days (span 1) and 32-day blocks (span 32) against the users there are. */
  async function expectDaysTrue() {
    const { db } = ctx.database;
    for (const span of [1, 32]) {
      const kept = await queryRows<{ day: number; n: number }>(
        db,
        sql`select day, n::int as n from list_days where list = 'users' and span = ${span} and n <> 0 order by day`,
      );
      const truth = await queryRows<{ day: number; n: number }>(
        db,
        sql`select (floor(register_date / 86400000.0 / ${span}) * ${span})::int as day, count(*)::int as n from users group by 1 order by 1`,
      );
      expect({ span, days: kept.map((r) => [Number(r.day), Number(r.n)]) }).toEqual({
        span,
        days: truth.map((r) => [Number(r.day), Number(r.n)]),
      });
    }
  }

  /** `count` users, the i-th registered at `date(i)`. */
  async function addUsers(count: number, date: (i: number) => number) {
    const dates = Array.from({ length: count }, (_, i) => date(i));
    await ctx.database.db.execute(sql`
      insert into users (id, login_id, password_hash, nickname, avatar, register_date, last_login_date)
      select 'e' || lpad(to_hex(g), 23, '0'), 'deep_' || g, 'x', 'deep ' || g, '', d, d
      from generate_series(1, ${count}::int) g, lateral (select (${JSON.stringify(dates)}::jsonb ->> (g - 1))::bigint as d) x`);
  }

  beforeEach(async () => {
    await ctx.database.db.execute(sql`truncate comments, issues, users`);
  });

  it('follow inserts, date changes, deletes, rollbacks and truncation', async () => {
    const { db } = ctx.database;
    // Several per day, on day boundaries exactly, and before 1970.
    await addUsers(40, (i) => (i % 7) * DAY - (i % 3) * 1000 + (i % 2 ? DAY - 1 : 0) - 3 * DAY);
    await expectDaysTrue();
    await db
      .update(users)
      .set({ registerDate: sql`${users.registerDate} + ${5 * DAY}` })
      .where(sql`${users.loginId} like 'deep_1%'`);
    await expectDaysTrue();
    await db.delete(users).where(sql`${users.loginId} like 'deep_2%'`);
    await expectDaysTrue();
    await expect(
      db.transaction(async (tx) => {
        await contentFixtures(tx).user();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectDaysTrue();
    await db.execute(sql`truncate comments, issues, users`);
    const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from list_days where list = 'users'`);
    expect(Number(n)).toBe(0);
  });

  it('answer every deep page exactly as skipping the rows would', async () => {
    const { db } = ctx.database;
    // 2,600 users over days of three 32-day blocks, unevenly, with shared timestamps inside a day
    // and days left empty.
    const base = 19_000 * DAY;
    await addUsers(2600, (i) => base + [0, 0, 1, 3, 3, 3, 4, 8, 40][i % 9] * DAY + (i % 5) * 60_000);
    await expectDaysTrue();
    const repo = createUserRepository(db);
    const plain = async (offset: number, limit: number) =>
      (
        await queryRows<{ id: string }>(db, sql`select id from users order by register_date desc, id desc limit ${limit} offset ${offset}`)
      ).map((r) => r.id);
    for (const pageSize of [10, 7, 100]) {
      const pages = [DAY_ANCHOR_FROM / pageSize, 201, 250, 251, 259, 260, 261, 300, 372, 400];
      for (const current of pages.map((p) => Math.ceil(p))) {
        const page = await repo.list({}, { current, pageSize });
        const offset = (current - 1) * pageSize;
        expect({ current, pageSize, ids: page.data.map((u) => u.id), count: page.count }).toEqual({
          current,
          pageSize,
          ids: await plain(offset, pageSize),
          count: 2600,
        });
      }
    }
  });
});
