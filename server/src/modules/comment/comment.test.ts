import { eq } from 'drizzle-orm';
import { books, comments, issues } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let userId: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('comment-editor', 2)).token;
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('Vue');
  userId = await fx.user({ nickname: '评论者' });
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });
const COMMENT_KEYS = ['_id', 'bookId', 'commentContent', 'commentDate', 'commentType', 'issueId', 'typeId', 'userId'];
const ROW_KEYS = [...COMMENT_KEYS, 'target', 'user'].sort();

async function post(payload: object) {
  return t.inject({ method: 'POST', url: '/api/comment', ...as(), payload });
}

async function commentNumber(kind: 'issue' | 'book', id: string): Promise<number | undefined> {
  const table = kind === 'issue' ? issues : books;
  const [row] = await t.database.db.select({ n: table.commentNumber }).from(table).where(eq(table.id, id));
  return row?.n;
}

describe('POST /api/comment', () => {
  it('comments on an issue: typeId comes from the issue, and its commentNumber goes up', async () => {
    const issueType = await fx.type();
    const issueId = await fx.issue(userId, issueType);
    const response = await post({
      userId,
      commentType: 1,
      issueId,
      commentContent: '<p>好问题</p>',
      typeId,
      bookId: '0123456789abcdef01234567',
    });
    expect(response.statusCode).toBe(201);
    const comment = response.json().data;
    expect(Object.keys(comment).sort()).toEqual(COMMENT_KEYS);
    expect(comment).toMatchObject({ userId, issueId, bookId: null, typeId: issueType, commentType: 1, commentContent: '<p>好问题</p>' });
    expect(await commentNumber('issue', issueId)).toBe(1);
    await post({ userId, commentType: 1, issueId, commentContent: 'again' });
    expect(await commentNumber('issue', issueId)).toBe(2);
  });

  it('comments on a book the same way', async () => {
    const bookId = await fx.book(typeId);
    const response = await post({ userId, commentType: 2, bookId, commentContent: '<p>好书</p>' });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ bookId, issueId: null, typeId, commentType: 2 });
    expect(await commentNumber('book', bookId)).toBe(1);
  });

  it('stores the content without scripts, event attributes or javascript: links', async () => {
    const issueId = await fx.issue(userId, typeId);
    const response = await post({
      userId,
      commentType: 1,
      issueId,
      commentContent:
        '<p onmouseover="x()">赞<script>alert(1)</script><a href="javascript:alert(1)">链接</a></p><iframe src="https://evil.example"></iframe>',
    });
    const [row] = await t.database.db.select().from(comments).where(eq(comments.id, response.json().data._id));
    expect(row.commentContent).toBe('<p>赞<a rel="noopener noreferrer nofollow">链接</a></p>');
  });

  it('refuses an unknown issue, book or user with 400, and counts nothing', async () => {
    const issueId = await fx.issue(userId, typeId);
    const cases: Array<[object, string]> = [
      [{ userId, commentType: 1, issueId: '0123456789abcdef01234567' }, '问答不存在'],
      [{ userId, commentType: 2, bookId: '0123456789abcdef01234567' }, '书籍不存在'],
      [{ userId: '0123456789abcdef01234567', commentType: 1, issueId }, '用户不存在'],
      [{ userId, commentType: 2, issueId }, '缺少必填字段：书籍（bookId）'],
      [{ userId, commentType: 1 }, '缺少必填字段：问答（issueId）'],
    ];
    for (const [payload, msg] of cases) {
      const response = await post({ commentContent: 'c', ...payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().msg).toBe(msg);
    }
    expect(await commentNumber('issue', issueId)).toBe(0);
  });

  it.each([
    [{ commentType: 3 }, 'commentType'],
    [{ commentContent: '' }, 'commentContent'],
    [{ commentContent: '<script>alert(1)</script>' }, 'commentContent'],
    [{ userId: 'nope' }, 'userId'],
  ])('refuses %j with a 400 naming %s', async (change, field) => {
    const issueId = await fx.issue(userId, typeId);
    const response = await post({ userId, commentType: 1, issueId, commentContent: 'c', ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });
});

describe('DELETE /api/comment/:id', () => {
  it('keeps the comment and the count when lowering the count fails', async () => {
    const issueId = await fx.issue(userId, typeId);
    const id = (await post({ userId, commentType: 1, issueId, commentContent: 'kept' })).json().data._id;
    await fx.failOn('issues', 'update');
    try {
      const response = await t.inject({ method: 'DELETE', url: `/api/comment/${id}`, ...as() });
      expect(response.statusCode).toBe(500);
    } finally {
      await fx.stopFailing('issues', 'update');
    }
    expect(await t.database.db.select().from(comments).where(eq(comments.id, id))).toHaveLength(1);
    expect(await commentNumber('issue', issueId)).toBe(1);
  });

  it('keeps the count when storing a new comment fails', async () => {
    const issueId = await fx.issue(userId, typeId);
    await fx.failOn('comments', 'insert');
    try {
      const response = await post({ userId, commentType: 1, issueId, commentContent: 'lost' });
      expect(response.statusCode).toBe(500);
    } finally {
      await fx.stopFailing('comments', 'insert');
    }
    expect(await commentNumber('issue', issueId)).toBe(0);
  });
});

describe('comment lists', () => {
  let ctx: TestContext;
  let admin: string;
  let issueA: string;
  let issueB: string;
  let book: string;
  let react: string;
  let node: string;
  const BASE = Date.UTC(2024, 2, 1);
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.rootToken();
    const f = contentFixtures(ctx.database.db);
    react = await f.type('React');
    node = await f.type('Node.js');
    const alice = await f.user({ nickname: 'Alice', avatar: '/static/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.png' });
    const bob = await f.user({ nickname: 'Bob' });
    issueA = await f.issue(alice, react, { issueTitle: 'Hooks 问题' });
    issueB = await f.issue(bob, node, { issueTitle: 'Stream 问题' });
    book = await f.book(node, { bookTitle: '深入浅出 Node.js' });
    // 40 comments on issue A, 20 on issue B, 15 on the book; one second apart, in that order.
    let at = BASE;
    const tick = () => {
      at += 1000;
      return at;
    };
    for (let i = 0; i < 40; i++)
      await f.comment({ userId: i % 2 ? bob : alice, issueId: issueA, typeId: react, commentDate: tick(), commentContent: `<p>A${i}</p>` });
    for (let i = 0; i < 20; i++)
      await f.comment({ userId: bob, issueId: issueB, typeId: node, commentDate: tick(), commentContent: `<p>B${i}</p>` });
    for (let i = 0; i < 15; i++)
      await f.comment({ userId: alice, bookId: book, typeId: node, commentDate: tick(), commentContent: `<p>K${i}</p>` });
    await f.comment({ userId: alice, issueId: issueB, typeId: node, commentDate: BASE - 1, commentContent: '<p>50%_off</p>' });
    await f.comment({ userId: alice, issueId: issueB, typeId: node, commentDate: BASE - 2, commentContent: '<p>50X-off</p>' });
  });
  afterAll(() => ctx.close());

  const get = (url: string) => ctx.inject({ method: 'GET', url, headers: bearer(admin) });

  it('lists issue comments newest first, each with its author and its issue', async () => {
    const response = await get('/api/comment/1?pageSize=3');
    expect(response.statusCode).toBe(200);
    const page = response.json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 3, count: 62, totalPage: 21 });
    expect(page.data.map((c: { commentContent: string }) => c.commentContent)).toEqual(['<p>B19</p>', '<p>B18</p>', '<p>B17</p>']);
    for (const row of page.data) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
    expect(page.data[0]).toMatchObject({
      commentType: 1,
      issueId: issueB,
      bookId: null,
      user: { nickname: 'Bob' },
      target: { _id: issueB, title: 'Stream 问题' },
    });
    const summary = (c: { target: { title: string }; user: { nickname: string; avatar: string }; commentContent: string }) => [
      c.commentContent,
      c.target.title,
      c.user.nickname,
      c.user.avatar,
    ];
    const avatar = '/static/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.png';
    expect((await get('/api/comment/1?current=20&pageSize=3')).json().data.data.map(summary)).toEqual([
      ['<p>A2</p>', 'Hooks 问题', 'Alice', avatar],
      ['<p>A1</p>', 'Hooks 问题', 'Bob', '/default-avatar.svg'],
      ['<p>A0</p>', 'Hooks 问题', 'Alice', avatar],
    ]);
    expect((await get('/api/comment/1?current=21&pageSize=3')).json().data.data.map(summary)).toEqual([
      ['<p>50%_off</p>', 'Stream 问题', 'Alice', avatar],
      ['<p>50X-off</p>', 'Stream 问题', 'Alice', avatar],
    ]);
  });

  it('lists book comments with the book as target', async () => {
    const page = (await get('/api/comment/2')).json().data;
    expect(page.count).toBe(15);
    expect(page.data[0]).toMatchObject({
      commentType: 2,
      bookId: book,
      issueId: null,
      target: { _id: book, title: '深入浅出 Node.js' },
      user: { nickname: 'Alice' },
    });
  });

  it('filters by type and by content (substring, % and _ literal), empty filters meaning none', async () => {
    expect((await get(`/api/comment/1?typeId=${react}`)).json().data.count).toBe(40);
    expect((await get(`/api/comment/1?typeId=${node}`)).json().data.count).toBe(22);
    expect((await get(`/api/comment/2?typeId=${react}`)).json().data.count).toBe(0);
    expect((await get('/api/comment/1?commentContent=a1')).json().data.count).toBe(11);
    const literal = (await get(`/api/comment/1?commentContent=${encodeURIComponent('50%_')}`)).json().data;
    expect(literal.data.map((c: { commentContent: string }) => c.commentContent)).toEqual(['<p>50%_off</p>']);
    expect((await get('/api/comment/1?commentContent=&typeId=')).json().data.count).toBe(62);
  });

  it('refuses a comment type other than 1 or 2, and pageSize 101', async () => {
    expect((await get('/api/comment/3')).statusCode).toBe(400);
    expect((await get('/api/comment/abc')).statusCode).toBe(400);
    expect((await get('/api/comment/1?pageSize=101')).statusCode).toBe(400);
    expect((await get('/api/comment/1?pageSize=100')).json().data.data).toHaveLength(62);
  });

  it("lists one issue's comments and one book's comments, paged, with their authors", async () => {
    const a = (await get(`/api/comment/issuecomment/${issueA}?current=2&pageSize=15`)).json().data;
    expect(a).toMatchObject({ currentPage: 2, eachPage: 15, count: 40, totalPage: 3 });
    expect(a.data).toHaveLength(15);
    expect(a.data[0].commentContent).toBe('<p>A24</p>');
    expect(a.data.every((c: { issueId: string; user: { nickname: string } }) => c.issueId === issueA && c.user.nickname)).toBe(true);
    const k = (await get(`/api/comment/bookcomment/${book}`)).json().data;
    expect(k).toMatchObject({ count: 15, totalPage: 2 });
    expect(k.data[0]).toMatchObject({ bookId: book, commentContent: '<p>K14</p>', user: { nickname: 'Alice' } });
    expect((await get(`/api/comment/issuecomment/${issueA}?current=9`)).json().data).toMatchObject({ count: 40, data: [] });
  });

  it('answers 404 for the comments of an unknown issue or book', async () => {
    const issue = await get('/api/comment/issuecomment/0123456789abcdef01234567');
    expect(issue.statusCode).toBe(404);
    expect(issue.json().msg).toBe('问答不存在');
    const bookResponse = await get(`/api/comment/bookcomment/${issueA}`);
    expect(bookResponse.statusCode).toBe(404);
    expect(bookResponse.json().msg).toBe('书籍不存在');
  });

  it('makes the same small number of queries whatever the page size', async () => {
    for (const url of ['/api/comment/1', `/api/comment/issuecomment/${issueA}`, '/api/comment/2']) {
      const one = await ctx.countQueries(() => get(`${url}?pageSize=1`));
      const many = await ctx.countQueries(() => get(`${url}?pageSize=100`));
      expect(one).toBeGreaterThan(0);
      expect(many).toBe(one);
      // The token check, (the parent's existence,) the count and the page.
      expect(many).toBeLessThanOrEqual(4);
    }
  });
});

describe('access', () => {
  it.each([
    ['GET', '/api/comment/1'],
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['POST', '/api/comment'],
    ['DELETE', '/api/comment/0123456789abcdef01234567'],
  ])('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({ method: method as 'GET', url, payload: method === 'POST' ? { commentType: 1 } : undefined });
    expect(response.statusCode).toBe(401);
  });
});
