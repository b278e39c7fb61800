import { eq } from 'drizzle-orm';
import { interviews } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
let typeId: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('interview-editor', 2)).token;
  typeId = await contentFixtures(t.database.db).type('CSS');
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });
const valid = () => ({ interviewTitle: 'BFC 是什么', interviewContent: '<p>块级格式化上下文</p>', typeId });

async function createInterview(payload: object) {
  return t.inject({ method: 'POST', url: '/api/interview', ...as(), payload });
}

describe('interview API', () => {
  it('creates a question and answers it back', async () => {
    const response = await createInterview(valid());
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(Object.keys(created).sort()).toEqual(['_id', 'interviewContent', 'interviewTitle', 'onShelfDate', 'typeId', 'version']);
    expect(created).toMatchObject(valid());
    const again = await t.inject({ method: 'GET', url: `/api/interview/${created._id}`, ...as() });
    expect(again.json().data).toEqual(created);
  });

  it('stores the answer without scripts, event attributes or javascript: links, keeping code blocks', async () => {
    const response = await createInterview({
      ...valid(),
      interviewContent:
        '<pre class="language-css"><code class="language-css">.a { display: flow-root; }</code></pre><p onclick="x()"><a href="javascript:alert(1)">x</a></p><svg><script>alert(1)</script></svg>',
    });
    const [row] = await t.database.db.select().from(interviews).where(eq(interviews.id, response.json().data._id));
    expect(row.interviewContent).toBe(
      '<pre class="language-css"><code class="language-css">.a { display: flow-root; }</code></pre><p><a rel="noopener noreferrer nofollow">x</a></p>',
    );
  });

  it.each([
    [{ interviewTitle: ' ' }, 'interviewTitle'],
    [{ interviewContent: '' }, 'interviewContent'],
    [{ typeId: 'x' }, 'typeId'],
  ])('refuses %j with a 400 naming %s', async (change, field) => {
    const response = await createInterview({ ...valid(), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it('refuses an unknown type with 400 分类不存在, on create and on change', async () => {
    const created = await createInterview({ ...valid(), typeId: '0123456789abcdef01234567' });
    expect(created.statusCode).toBe(400);
    expect(created.json().msg).toBe('分类不存在');
    const id = (await createInterview(valid())).json().data._id;
    const changed = await t.inject({
      method: 'PATCH',
      url: `/api/interview/${id}`,
      ...as(),
      payload: { typeId: '0123456789abcdef01234567' },
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().msg).toBe('分类不存在');
  });

  it('changes the given fields, ignoring the date and _id', async () => {
    const created = (await createInterview(valid())).json().data;
    const newType = await contentFixtures(t.database.db).type();
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/interview/${created._id}`,
      ...as(),
      payload: {
        interviewTitle: '新题目',
        interviewContent: '<p>新答案<script>x</script></p>',
        typeId: newType,
        onShelfDate: 1,
        _id: 'ffffffffffffffffffffffff',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      ...created,
      interviewTitle: '新题目',
      interviewContent: '<p>新答案</p>',
      typeId: newType,
      version: created.version + 1,
    });
  });

  it('answers 404 面试题不存在 for an unknown question on read, change and delete', async () => {
    const url = '/api/interview/0123456789abcdef01234567';
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await t.inject({ method, url, ...as(), payload: method === 'PATCH' ? { interviewTitle: 'x' } : undefined });
      expect(response.statusCode).toBe(404);
      expect(response.json().msg).toBe('面试题不存在');
    }
  });
});

describe('GET /api/interview (paged)', () => {
  let ctx: TestContext;
  let admin: string;
  let html: string;
  const BASE = Date.UTC(2024, 3, 1);
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.rootToken();
    const f = contentFixtures(ctx.database.db);
    html = await f.type('HTML');
    const js = await f.type('JS');
    for (let i = 0; i < 12; i++) {
      await f.interview(i < 4 ? html : js, {
        interviewTitle: `第 ${i} 题 ${i < 4 ? 'Semantic' : 'Closure'}`,
        onShelfDate: BASE + i * 1000,
      });
    }
    await f.interview(js, { interviewTitle: 'a_b 与 100%', onShelfDate: BASE - 1 });
    await f.interview(js, { interviewTitle: 'aXb 与 100X', onShelfDate: BASE - 2 });
  });
  afterAll(() => ctx.close());

  const list = (query: string) => ctx.inject({ method: 'GET', url: `/api/interview?${query}`, headers: bearer(admin) });
  const titles = (response: { json(): { data: { data: Array<{ interviewTitle: string }> } } }) =>
    response.json().data.data.map((q) => q.interviewTitle);

  it('answers newest first, with paging edges', async () => {
    const response = await list('pageSize=3');
    expect(response.json().data).toMatchObject({ currentPage: 1, eachPage: 3, count: 14, totalPage: 5 });
    expect(titles(response)).toEqual(['第 11 题 Closure', '第 10 题 Closure', '第 9 题 Closure']);
    expect((await list('current=6&pageSize=3')).json().data).toMatchObject({ count: 14, data: [] });
    expect((await list('pageSize=100')).json().data.data).toHaveLength(14);
    expect((await list('pageSize=101')).statusCode).toBe(400);
  });

  it('filters by title and type, % and _ literally, empty filters meaning none', async () => {
    expect((await list(`typeId=${html}`)).json().data.count).toBe(4);
    expect((await list('interviewTitle=semantic')).json().data.count).toBe(4);
    expect(titles(await list(`interviewTitle=${encodeURIComponent('a_b')}`))).toEqual(['a_b 与 100%']);
    expect(titles(await list(`interviewTitle=${encodeURIComponent('0%')}`))).toEqual(['a_b 与 100%']);
    expect((await list('interviewTitle=&typeId=')).json().data.count).toBe(14);
  });
});

describe('access', () => {
  it.each([
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['POST', '/api/interview'],
    ['PATCH', '/api/interview/0123456789abcdef01234567'],
    ['DELETE', '/api/interview/0123456789abcdef01234567'],
  ])('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({
      method: method as 'GET',
      url,
      payload: method === 'POST' || method === 'PATCH' ? valid() : undefined,
    });
    expect(response.statusCode).toBe(401);
  });
});
