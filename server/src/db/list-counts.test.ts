import { sql } from 'drizzle-orm';
import { contentFixtures } from '../../test/content';
import { createTestContext, type TestContext } from '../../test/harness';
import { queryRows } from './client';
import { keptTotal, type CountedList, type CountKey } from './list-counts';
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
