import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import { createTestContext, type TestContext } from '../../test/harness';
import { isEmpty, resetContent, seed } from './seed';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const count = async (table: string) =>
  (await queryRows<{ n: number }>(t.database.db, sql.raw(`select count(*)::int as n from ${table}`)))[0].n;

describe('seed', () => {
  it('fills an empty database with the sizes asked for, consistent counters and valid references', async () => {
    expect(await isEmpty(t.database.db)).toBe(true);
    const progress: string[] = [];
    await seed(t.database.db, { users: 50, books: 20, interviews: 15, issues: 60, comments: 400 }, (table, done, total) => {
      if (done === total) progress.push(table);
    });
    expect(progress).toEqual(['types', 'users', 'books', 'interviews', 'issues', 'comments', 'counters']);
    expect(await count('users')).toBe(50);
    expect(await count('books')).toBe(20);
    expect(await count('interviews')).toBe(15);
    expect(await count('issues')).toBe(60);
    expect(await count('comments')).toBe(400);
    expect(await count('types')).toBeGreaterThanOrEqual(13);
    expect(await isEmpty(t.database.db)).toBe(false);

    const [check] = await queryRows<Record<string, number>>(
      t.database.db,
      sql`select
        (select count(*)::int from issues i where comment_number <> (select count(*) from comments c where c.issue_id = i.id)) as bad_issue_counts,
        (select count(*)::int from books b where comment_number <> (select count(*) from comments c where c.book_id = b.id)) as bad_book_counts,
        (select count(*)::int from comments where (comment_type = 1) <> (issue_id is not null) or (comment_type = 2) <> (book_id is not null)) as bad_comment_kinds,
        (select count(*)::int from comments c join issues i on i.id = c.issue_id where c.type_id <> i.type_id) as bad_comment_types,
        (select count(*)::int from issues i join users u on u.id = i.user_id where u.register_date > i.issue_date) as asked_before_registering,
        (select count(*)::int from users where id !~ '^[0-9a-f]{24}$') as bad_ids,
        (select count(distinct issue_status)::int from issues) as both_review_states,
        (select count(*)::int from interviews where interview_content like '%<pre><code%') as with_code`,
    );
    expect(check).toEqual({
      bad_issue_counts: 0,
      bad_book_counts: 0,
      bad_comment_kinds: 0,
      bad_comment_types: 0,
      asked_before_registering: 0,
      bad_ids: 0,
      both_review_states: 2,
      with_code: expect.any(Number),
    });
    expect(check.with_code).toBeGreaterThan(0);
  });

  it('adds to existing content on a second run without colliding ids or loginIds', async () => {
    await seed(t.database.db, { users: 10, books: 0, interviews: 0, issues: 5, comments: 20 });
    expect(await count('users')).toBe(60);
    expect(await count('issues')).toBe(65);
    expect(await count('comments')).toBe(420);
  });

  it('reset removes all content but keeps the admins', async () => {
    const admins = await count('admins');
    await resetContent(t.database.db);
    expect(await isEmpty(t.database.db)).toBe(true);
    expect(await count('admins')).toBe(admins);
  });
});
