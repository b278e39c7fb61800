import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { queryRows } from '../../src/db/client';
import { bearer, createTestContext, type TestContext } from '../harness';
import { consistencyProblems } from '../live/consistency';

/**
 * Mixed writes on shared parents, many at once: comments added to and deleted from one issue and
 * one book, issues approved and unapproved, an issue deleted with its comments, a user deleted
 * with their issues and comments (some of them on the shared parents), a type renamed, new
 * issues of that type. On PostgreSQL (CI's run, TEST_DATABASE_URL) these ran into deadlocks
 * (counter rows and parent rows taken in opposite orders) that ended in 500s and an exhausted
 * pool; the write locks (src/db/write-lock.ts) make them impossible. Every answer must be 2xx or
 * a 4xx the race explains (a comment deleted twice, a parent gone), never 5xx; every counter
 * must equal its count after each round, and PostgreSQL must have detected no deadlock.
 */
const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? 6);
const COMMENTS_PER_PARENT = 10;

let t: TestContext;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext();
  auth = bearer(await t.rootToken());
}, 120_000);
afterAll(() => t.close());

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.inject({ method, url, headers: auth, ...(payload && { payload }) });
}

async function created(method: 'POST', url: string, payload: object): Promise<string> {
  const response = await call(method, url, payload);
  if (response.statusCode !== 201 && response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json().data._id as string;
}

let serial = 0;
const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

const newUser = () => created('POST', '/api/user', { loginId: `race_${unique()}`, loginPwd: 'race-pass-1', nickname: '并发用户' });
const newIssue = (userId: string, typeId: string) =>
  created('POST', '/api/issue', { issueTitle: `并发问答 ${unique()}`, issueContent: '<p>问题</p>', userId, typeId });
const newBook = (typeId: string) =>
  created('POST', '/api/book', {
    bookTitle: `并发书籍 ${unique()}`,
    bookIntro: '<p>简介</p>',
    downloadLink: 'https://example.com/book',
    requirePoints: 10,
    typeId,
  });
const newComment = (userId: string, parent: { issueId: string } | { bookId: string }) =>
  call('POST', '/api/comment', {
    commentType: 'issueId' in parent ? 1 : 2,
    userId,
    ...parent,
    commentContent: `<p>评论 ${unique()}</p>`,
  });

async function deadlocksSoFar(): Promise<number | null> {
  if (t.database.kind !== 'postgres') return null;
  const [row] = await queryRows<{ deadlocks: string }>(
    t.database.db,
    sql`select deadlocks from pg_stat_database where datname = current_database()`,
  );
  return Number(row.deadlocks);
}

/** The deadlock count once every backend has reported its statistics (they flush about once a second). */
async function settledDeadlocks(): Promise<number | null> {
  if (t.database.kind !== 'postgres') return null;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await t.database.db.execute(sql`select pg_stat_clear_snapshot()`);
  return deadlocksSoFar();
}

describe('concurrent writes on shared parents', () => {
  it(`${ROUNDS} rounds of mixed writes: no 5xx, counters exact, no deadlock`, async () => {
    const deadlocksBefore = await settledDeadlocks();
    const typeId = await created('POST', '/api/type', { typeName: `并发分类${unique()}` });
    const otherTypeId = await created('POST', '/api/type', { typeName: `并发分类${unique()}` });
    const author = await newUser();
    let sent = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const commenters = await Promise.all([newUser(), newUser(), newUser()]);
      const doomedUser = await newUser();
      const issue = await newIssue(author, typeId);
      const book = await newBook(typeId);
      const doomedIssue = await newIssue(author, typeId);
      const doomedUsersIssue = await newIssue(doomedUser, typeId);
      const toApprove = await Promise.all([newIssue(author, typeId), newIssue(author, otherTypeId)]);

      const existing: { issue: string[]; book: string[] } = { issue: [], book: [] };
      for (let i = 0; i < COMMENTS_PER_PARENT; i++) {
        const writer = i % 3 === 0 ? doomedUser : commenters[i % commenters.length];
        existing.issue.push((await newComment(writer, { issueId: issue })).json().data._id);
        existing.book.push((await newComment(writer, { bookId: book })).json().data._id);
      }
      for (let i = 0; i < 3; i++) {
        await newComment(commenters[i], { issueId: doomedIssue });
        await newComment(commenters[i], { issueId: doomedUsersIssue });
      }

      const writes: Array<Promise<LightMyRequestResponse>> = [];
      for (let i = 0; i < COMMENTS_PER_PARENT; i++) {
        writes.push(call('DELETE', `/api/comment/${existing.issue[i]}`));
        writes.push(newComment(commenters[i % commenters.length], { issueId: issue }));
        writes.push(call('DELETE', `/api/comment/${existing.book[i]}`));
        writes.push(newComment(commenters[i % commenters.length], { bookId: book }));
      }
      for (const id of toApprove) {
        writes.push(call('PATCH', `/api/issue/${id}`, { issueStatus: true }));
        writes.push(call('PATCH', `/api/issue/${id}`, { issueStatus: false }));
      }
      writes.push(call('PATCH', `/api/issue/${toApprove[0]}`, { typeId: otherTypeId }));
      writes.push(call('DELETE', `/api/issue/${doomedIssue}`));
      writes.push(call('DELETE', `/api/user/${doomedUser}`));
      writes.push(call('PATCH', `/api/type/${typeId}`, { typeName: `并发分类${unique()}` }));
      writes.push(newIssue(author, typeId).then(() => call('GET', `/api/issue/${issue}`)));
      writes.push(call('GET', `/api/comment/issuecomment/${issue}?current=1&pageSize=10`));
      writes.push(call('GET', '/api/issue?current=1&pageSize=10'));

      const answers = await Promise.all(writes);
      sent += answers.length;
      const failed = answers.filter((r) => r.statusCode >= 500).map((r) => `${r.statusCode} ${r.body}`);
      expect(failed).toEqual([]);
      // A comment of the doomed user may already be gone with them (404); nothing else may fail.
      const refused = answers.filter((r) => r.statusCode >= 400 && r.statusCode !== 404).map((r) => `${r.statusCode} ${r.body}`);
      expect(refused).toEqual([]);

      expect(await consistencyProblems(t.database.db)).toEqual([]);
      const shown = (await call('GET', `/api/issue/${issue}`)).json().data;
      const [{ n }] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from comments where issue_id = ${issue}`);
      expect(shown.commentNumber).toBe(n);
    }

    expect(sent).toBeGreaterThanOrEqual(ROUNDS * 50);
    const deadlocksAfter = await settledDeadlocks();
    expect(deadlocksAfter).toBe(deadlocksBefore);
    console.log(`concurrency suite on ${t.database.kind}: ${ROUNDS} rounds, ${sent} concurrent requests, 0 answers >= 500`);
  }, 300_000);
});
