import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import { canonicalLoginId } from '../lib/account-names';
import { createTestContext, type TestContext } from '../../test/harness';
import * as pool from './content';
import { isEmpty, resetContent, seed } from './seed';

/** Words that say what a text is about, per type: written here, apart from the templates they check. */
const TOPIC_WORDS: Record<pool.TypeName, string[]> = {
  HTML: ['HTML', '&lt;img', 'alt'],
  CSS: ['CSS', 'flex'],
  JavaScript: ['JavaScript', 'Promise', '闭包', 'debounce', 'language-js'],
  TypeScript: ['TypeScript', 'language-ts'],
  React: ['React', 'useEffect'],
  Vue: ['Vue'],
  前端工程化: ['前端工程', 'webpack', '构建'],
  'Node.js': ['Node.js'],
  Go: ['Go ', 'Go 语言', 'goroutine', 'language-go'],
  Java: ['Java'],
  Python: ['Python'],
  数据库: ['数据库', 'PostgreSQL', 'SQL', '索引'],
  算法: ['算法', '排序', '复杂度'],
};

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

    // Every user's canonical name is the one the repositories compute (lib/account-names.ts).
    const named = await queryRows<{ login_id: string; login_key: string | null }>(
      t.database.db,
      sql`select login_id, login_key from users`,
    );
    expect(named.filter((u) => u.login_key !== canonicalLoginId(u.login_id))).toEqual([]);
  });

  it('makes every book, question and issue from one template: its type matches the topic of its title and text, its comments fit it', async () => {
    const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.database.db, query);
    const books = await rows<{ title: string; text: string; type: string }>(
      sql`select book_title as title, book_intro as text, type_name as type from books join types on types.id = books.type_id`,
    );
    const interviews = await rows<{ title: string; text: string; type: string }>(
      sql`select interview_title as title, interview_content as text, type_name as type from interviews join types on types.id = interviews.type_id`,
    );
    const issues = await rows<{ id: string; title: string; text: string; type: string }>(
      sql`select issues.id, issue_title as title, issue_content as text, type_name as type from issues join types on types.id = issues.type_id`,
    );
    const comments = await rows<{ issueId: string | null; bookId: string | null; text: string }>(
      sql`select issue_id as "issueId", book_id as "bookId", comment_content as text from comments`,
    );
    expect(books.length * interviews.length * issues.length * comments.length).toBeGreaterThan(0);

    // A seeded row is its template's, its title at most numbered (a later edition, a variant).
    const templateOf = <T extends { title: string }>(templates: T[], title: string, suffix: RegExp) =>
      templates.find((tpl) => tpl.title === title) ?? templates.find((tpl) => tpl.title === title.replace(suffix, ''));
    for (const book of books) {
      const template = templateOf(pool.BOOKS, book.title, /（第\d+版）$/);
      expect({ title: book.title, type: book.type, text: book.text }).toEqual({
        title: book.title,
        type: template?.type,
        text: template?.intro,
      });
    }
    for (const interview of interviews) {
      const template = templateOf(pool.INTERVIEWS, interview.title, /（\d+）$/);
      expect({ title: interview.title, type: interview.type, text: interview.text }).toEqual({
        title: interview.title,
        type: template?.type,
        text: template?.content,
      });
    }
    const issueTemplate = new Map<string, (typeof pool.ISSUES)[number]>();
    for (const issue of issues) {
      const template = pool.ISSUES.find((tpl) => tpl.title === issue.title);
      expect({ title: issue.title, type: issue.type, text: issue.text }).toEqual({
        title: issue.title,
        type: template?.type,
        text: template?.content,
      });
      issueTemplate.set(issue.id, template!);
    }

    // Each of those templates is about its type: its title or text names the subject.
    const used = [
      ...pool.BOOKS.map((b) => ({ ...b, text: b.intro })),
      ...pool.INTERVIEWS.map((q) => ({ ...q, text: q.content })),
      ...pool.ISSUES.map((i) => ({ ...i, text: i.content })),
    ];
    for (const { type, title, text } of used) {
      expect({ title, about: TOPIC_WORDS[type].some((word) => `${title}${text}`.includes(word)) }).toEqual({ title, about: true });
    }

    // An issue's comments answer that issue (or suit any question); a book's talk about a book.
    for (const comment of comments) {
      if (comment.issueId) {
        const template = issueTemplate.get(comment.issueId)!;
        expect([...template.answers, ...pool.ISSUE_REPLIES]).toContain(comment.text);
      } else {
        expect(pool.BOOK_COMMENTS).toContain(comment.text);
      }
    }
    // Not only the replies that suit any question: the issues' own answers are used.
    const ownAnswers = comments.filter((c) => c.issueId && issueTemplate.get(c.issueId)!.answers.includes(c.text));
    expect(ownAnswers.length).toBeGreaterThan(comments.filter((c) => c.issueId).length / 3);
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
