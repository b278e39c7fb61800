import { eq } from 'drizzle-orm';
import { comments, issues } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let userId: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('issue-editor', 2)).token;
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('JavaScript');
  userId = await fx.user({ nickname: '提问者', avatar: '/static/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.png' });
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });
const ISSUE_KEYS = [
  '_id',
  'commentNumber',
  'issueContent',
  'issueDate',
  'issueStatus',
  'issueTitle',
  'scanNumber',
  'typeId',
  'user',
  'userId',
  'version',
];

async function createIssue(payload: object) {
  return t.inject({ method: 'POST', url: '/api/issue', ...as(), payload });
}

async function commentOn(issueId: string) {
  const response = await t.inject({
    method: 'POST',
    url: '/api/comment',
    ...as(),
    payload: { userId, commentType: 1, issueId, commentContent: '<p>回答</p>' },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().data._id as string;
}

describe('POST /api/issue', () => {
  it('creates an issue waiting for review, with its author', async () => {
    const response = await createIssue({ issueTitle: ' 闭包是什么 ', issueContent: '<p>请教</p>', userId, typeId });
    expect(response.statusCode).toBe(201);
    const issue = response.json().data;
    expect(Object.keys(issue).sort()).toEqual(ISSUE_KEYS);
    expect(issue).toMatchObject({
      issueTitle: '闭包是什么',
      issueContent: '<p>请教</p>',
      scanNumber: 0,
      commentNumber: 0,
      issueStatus: false,
      userId,
      typeId,
      user: { _id: userId, nickname: '提问者', avatar: '/static/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.png' },
    });
    expect(issue.issueDate).toBeGreaterThan(0);
  });

  it('stores the content without scripts, event attributes or javascript: links', async () => {
    const response = await createIssue({
      issueTitle: 'xss',
      issueContent:
        '<p onclick="steal()">看<script>alert(1)</script><a href="javascript:alert(1)">这里</a><img src=x onerror=alert(1)></p>',
      userId,
      typeId,
    });
    expect(response.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(issues).where(eq(issues.id, response.json().data._id));
    expect(row.issueContent).toBe('<p>看<a rel="noopener noreferrer nofollow">这里</a></p>');
  });

  it('refuses content that is nothing but unsafe markup', async () => {
    const response = await createIssue({ issueTitle: 'empty', issueContent: '<script>alert(1)</script>', userId, typeId });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain('issueContent');
  });

  it('refuses an unknown type with 400 分类不存在 and an unknown user with 400 用户不存在', async () => {
    const noType = await createIssue({ issueTitle: 't', issueContent: 'c', userId, typeId: '0123456789abcdef01234567' });
    expect(noType.statusCode).toBe(400);
    expect(noType.json().msg).toBe('分类不存在');
    const noUser = await createIssue({ issueTitle: 't', issueContent: 'c', userId: '0123456789abcdef01234567', typeId });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().msg).toBe('用户不存在');
  });

  it.each([
    [{ issueContent: 'c', userId: 'u', typeId: 't' }, 'issueTitle'],
    [{ issueTitle: '  ', issueContent: 'c' }, 'issueTitle'],
    [{ issueTitle: 't', issueContent: 'c', userId: 'x' }, 'userId'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const response = await createIssue({ userId, typeId, ...payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it('ignores counters, status, dates and _id in the body', async () => {
    const response = await createIssue({
      issueTitle: 'sneaky',
      issueContent: 'c',
      userId,
      typeId,
      _id: 'ffffffffffffffffffffffff',
      commentNumber: 99,
      scanNumber: 99,
      issueStatus: true,
      issueDate: 1,
    });
    expect(response.json().data).toMatchObject({ commentNumber: 0, scanNumber: 0, issueStatus: false });
    expect(response.json().data._id).not.toBe('ffffffffffffffffffffffff');
    expect(response.json().data.issueDate).toBeGreaterThan(1);
  });
});

describe('GET /api/issue/:id, PATCH, DELETE', () => {
  it('answers one issue with its author, and 404 问答不存在 for an unknown one', async () => {
    const id = await fx.issue(userId, typeId);
    const response = await t.inject({ method: 'GET', url: `/api/issue/${id}`, ...as() });
    expect(response.json().data).toMatchObject({ _id: id, user: { _id: userId, nickname: '提问者' } });
    const missing = await t.inject({ method: 'GET', url: '/api/issue/0123456789abcdef01234567', ...as() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe('问答不存在');
  });

  it('approves an issue with { issueStatus: true } and can put it back to waiting', async () => {
    const id = await fx.issue(userId, typeId);
    const approved = await t.inject({ method: 'PATCH', url: `/api/issue/${id}`, ...as(), payload: { issueStatus: true } });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ _id: id, issueStatus: true, user: { _id: userId } });
    const back = await t.inject({ method: 'PATCH', url: `/api/issue/${id}`, ...as(), payload: { issueStatus: false } });
    expect(back.json().data.issueStatus).toBe(false);
  });

  it('edits title and content (sanitised), and ignores counters and the author', async () => {
    const id = await fx.issue(userId, typeId);
    const other = await fx.user();
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/issue/${id}`,
      ...as(),
      payload: { issueTitle: '新标题', issueContent: '<p>新<script>x</script></p>', commentNumber: 50, userId: other },
    });
    expect(response.json().data).toMatchObject({ issueTitle: '新标题', issueContent: '<p>新</p>', commentNumber: 0, userId });
  });

  it('changes the type and moves its comments to the new type with it', async () => {
    const id = await fx.issue(userId, typeId);
    const commentId = await commentOn(id);
    const newType = await fx.type();
    const response = await t.inject({ method: 'PATCH', url: `/api/issue/${id}`, ...as(), payload: { typeId: newType } });
    expect(response.json().data.typeId).toBe(newType);
    const [comment] = await t.database.db.select().from(comments).where(eq(comments.id, commentId));
    expect(comment.typeId).toBe(newType);
    const unknown = await t.inject({ method: 'PATCH', url: `/api/issue/${id}`, ...as(), payload: { typeId: '0123456789abcdef01234567' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('分类不存在');
  });

  it('answers 404 when patching an unknown issue, and answers the issue unchanged for an empty patch', async () => {
    const missing = await t.inject({
      method: 'PATCH',
      url: '/api/issue/0123456789abcdef01234567',
      ...as(),
      payload: { issueStatus: true },
    });
    expect(missing.statusCode).toBe(404);
    const id = await fx.issue(userId, typeId);
    const empty = await t.inject({ method: 'PATCH', url: `/api/issue/${id}`, ...as(), payload: {} });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data._id).toBe(id);
  });
});

describe('GET /api/issue (paged)', () => {
  let ctx: TestContext;
  let admin: string;
  let html: string;
  let css: string;
  const BASE = Date.UTC(2024, 5, 1);
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.rootToken();
    const f = contentFixtures(ctx.database.db);
    html = await f.type('HTML');
    css = await f.type('CSS');
    const authors = [await f.user({ nickname: '甲' }), await f.user({ nickname: '乙' }), await f.user({ nickname: '丙' })];
    // 60 issues, one second apart; every third is approved, the even ones are about HTML.
    for (let i = 0; i < 60; i++) {
      await f.issue(authors[i % 3], i % 2 ? css : html, {
        issueTitle: `问题 ${String(i).padStart(2, '0')}`,
        issueStatus: i % 3 === 0,
        issueDate: BASE + i * 1000,
      });
    }
    await f.issue(authors[0], html, { issueTitle: '100% 的_覆盖率', issueDate: BASE - 1 });
    await f.issue(authors[0], html, { issueTitle: '100X 的X覆盖率', issueDate: BASE - 2 });
  });
  afterAll(() => ctx.close());

  const list = (query: string) => ctx.inject({ method: 'GET', url: `/api/issue?${query}`, headers: bearer(admin) });

  it('answers newest first, each row with its author', async () => {
    const page = (await list('pageSize=5')).json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 5, count: 62, totalPage: 13 });
    expect(page.data.map((i: { issueTitle: string }) => i.issueTitle)).toEqual(['问题 59', '问题 58', '问题 57', '问题 56', '问题 55']);
    for (const issue of page.data) {
      expect(Object.keys(issue).sort()).toEqual(ISSUE_KEYS);
      expect(issue.user._id).toBe(issue.userId);
      expect(Object.keys(issue.user).sort()).toEqual(['_id', 'avatar', 'nickname']);
    }
    expect(page.data.map((i: { user: { nickname: string } }) => i.user.nickname)).toEqual(['丙', '乙', '甲', '丙', '乙']);
  });

  it('filters by status ("true"/"false"), type and title, and treats empty filters as none', async () => {
    const approved = (await list('issueStatus=true&pageSize=100')).json().data;
    expect(approved.count).toBe(20);
    expect(approved.data.every((i: { issueStatus: boolean }) => i.issueStatus)).toBe(true);
    expect((await list('issueStatus=false')).json().data.count).toBe(42);
    const cssApproved = (await list(`issueStatus=true&typeId=${css}&pageSize=100`)).json().data;
    expect(cssApproved.count).toBe(10);
    expect(cssApproved.data.every((i: { typeId: string; issueStatus: boolean }) => i.typeId === css && i.issueStatus)).toBe(true);
    expect((await list(`issueTitle=${encodeURIComponent('问题 1')}`)).json().data.count).toBe(10);
    expect((await list('issueTitle=&typeId=&issueStatus=')).json().data.count).toBe(62);
    expect((await list('typeId=not-an-id')).statusCode).toBe(400);
    expect((await list('typeId=0123456789abcdef01234567')).json().data.count).toBe(0);
  });

  it('matches % and _ in the title literally', async () => {
    const percent = (await list(`issueTitle=${encodeURIComponent('100%')}`)).json().data;
    expect(percent.data.map((i: { issueTitle: string }) => i.issueTitle)).toEqual(['100% 的_覆盖率']);
    const underscore = (await list(`issueTitle=${encodeURIComponent('的_覆')}`)).json().data;
    expect(underscore.data.map((i: { issueTitle: string }) => i.issueTitle)).toEqual(['100% 的_覆盖率']);
  });

  it('answers a page past the end with no rows and the right count, and refuses pageSize 101', async () => {
    expect((await list('current=100&pageSize=10')).json().data).toEqual({
      currentPage: 100,
      eachPage: 10,
      count: 62,
      totalPage: 7,
      data: [],
    });
    expect((await list('pageSize=100')).json().data.data).toHaveLength(62);
    expect((await list('pageSize=101')).statusCode).toBe(400);
  });

  it('makes the same small number of queries whatever the page size', async () => {
    const one = await ctx.countQueries(() => list('pageSize=1'));
    const hundred = await ctx.countQueries(() => list('pageSize=100'));
    expect(one).toBeGreaterThan(0);
    expect(hundred).toBe(one);
    // The token check, the count and the page.
    expect(hundred).toBeLessThanOrEqual(3);
  });
});

describe('access', () => {
  it.each([
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['POST', '/api/issue'],
    ['DELETE', '/api/issue/0123456789abcdef01234567'],
  ])('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({
      method: method as 'GET',
      url,
      payload: method === 'POST' || method === 'PATCH' ? { issueStatus: true } : undefined,
    });
    expect(response.statusCode).toBe(401);
  });
});
