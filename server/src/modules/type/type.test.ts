import { books, comments, interviews, issues, users } from '../../db/schema';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('type-editor', 2)).token;
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });

async function createType(typeName: string) {
  return t.inject({ method: 'POST', url: '/api/type', ...as(), payload: { typeName } });
}

describe('type API (normal admins may read and write)', () => {
  it('creates types and lists them oldest first', async () => {
    const first = await createType('HTML');
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      typeName: 'HTML',
      createdAt: expect.any(Number),
      version: 1,
    });
    await createType('CSS');
    const list = await t.inject({ method: 'GET', url: '/api/type', ...as() });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .data.map((x: { typeName: string }) => x.typeName)
        .slice(0, 2),
    ).toEqual(['HTML', 'CSS']);
  });

  it('refuses a duplicate name with 409 该类型已存在', async () => {
    await createType('Vue');
    const again = await createType(' Vue ');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, code: 409, msg: '该类型已存在', errorCode: 'CONFLICT', data: null });
  });

  it('refuses an empty name with a 400 naming the field', async () => {
    const response = await createType('   ');
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain('typeName');
  });

  it('renames a type, refusing a name another type has', async () => {
    const id = (await createType('Reakt')).json().data._id;
    const renamed = await t.inject({ method: 'PATCH', url: `/api/type/${id}`, ...as(), payload: { typeName: 'React' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.typeName).toBe('React');
    const clash = await t.inject({ method: 'PATCH', url: `/api/type/${id}`, ...as(), payload: { typeName: 'HTML' } });
    expect(clash.statusCode).toBe(409);
    const same = await t.inject({ method: 'PATCH', url: `/api/type/${id}`, ...as(), payload: { typeName: 'React' } });
    expect(same.statusCode).toBe(200);
    const missing = await t.inject({ method: 'PATCH', url: '/api/type/0123456789abcdef01234567', ...as(), payload: { typeName: 'Nope' } });
    expect(missing.statusCode).toBe(404);
  });

  it('deletes an unused type', async () => {
    const id = (await createType('Temp')).json().data._id;
    const response = await t.inject({ method: 'DELETE', url: `/api/type/${id}`, ...as() });
    expect(response.statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api/type/${id}`, ...as() })).statusCode).toBe(404);
  });

  it('refuses to delete a type still in use, with 409 and the counts', async () => {
    const typeId = (await createType('Node.js')).json().data._id;
    const now = Date.now();
    const db = t.database.db;
    await db.insert(users).values({
      id: 'a00000000000000000000001',
      loginId: 'u1',
      passwordHash: 'x',
      nickname: 'u',
      avatar: '/a.png',
      registerDate: now,
      lastLoginDate: now,
    });
    await db.insert(books).values({
      id: 'b00000000000000000000001',
      bookTitle: 'b',
      bookPic: '/c.png',
      downloadLink: 'https://x',
      bookIntro: 'i',
      onShelfDate: now,
      requirePoints: 10,
      typeId,
    });
    await db
      .insert(interviews)
      .values(
        [1, 2].map((n) => ({ id: `c0000000000000000000000${n}`, interviewTitle: 'q', interviewContent: 'a', onShelfDate: now, typeId })),
      );
    await db.insert(issues).values({
      id: 'd00000000000000000000001',
      issueTitle: 't',
      issueContent: 'c',
      issueDate: now,
      userId: 'a00000000000000000000001',
      typeId,
    });
    await db.insert(comments).values({
      id: 'e00000000000000000000001',
      userId: 'a00000000000000000000001',
      issueId: 'd00000000000000000000001',
      typeId,
      commentContent: 'c',
      commentDate: now,
      commentType: 1,
    });
    const response = await t.inject({ method: 'DELETE', url: `/api/type/${typeId}`, ...as() });
    expect(response.statusCode).toBe(409);
    expect(response.json().msg).toBe('该分类下还有内容，无法删除（书籍 1 本，面试题 2 道，问答 1 个，评论 1 条）');
    const list = await t.inject({ method: 'GET', url: '/api/type', ...as() });
    expect(list.json().data.some((x: { _id: string }) => x._id === typeId)).toBe(true);
  });

  it.each([
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['POST', '/api/type'],
    ['PATCH', '/api/type/0123456789abcdef01234567'],
    ['DELETE', '/api/type/0123456789abcdef01234567'],
  ])('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({
      method: method as 'GET',
      url,
      payload: method === 'GET' || method === 'DELETE' ? undefined : { typeName: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });
});
