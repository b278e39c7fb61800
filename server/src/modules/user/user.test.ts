import { eq } from 'drizzle-orm';
import { books, comments, issues, trash, users } from '../../db/schema';
import { DEFAULT_AVATAR } from '../../lib/defaults';
import { verifyPassword } from '../../lib/passwords';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { createAudit } from '../audit/audit';
import { createCommentRepository } from '../comment/comment.repository';
import { createIssueRepository } from '../issue/issue.repository';
import { createTrashRepository } from '../trash/trash.repository';
import { createTrashService } from '../trash/trash.service';
import { createUserRepository } from './user.repository';
import { createUserService } from './user.service';

// Service calls made directly by these tests, on behalf of a super admin.
const ROOT_ACTOR = { id: '000000000000000000000001', loginId: 'root', permission: 1 };

let t: TestContext;
let root: string;
let normal: string;
let fx: ReturnType<typeof contentFixtures>;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  normal = (await t.createAdmin('user-editor', 2)).token;
  fx = contentFixtures(t.database.db);
});
afterAll(() => t.close());

const as = (token: string) => ({ headers: bearer(token) });
const USER_KEYS = [
  '_id',
  'avatar',
  'enabled',
  'intro',
  'lastLoginDate',
  'loginId',
  'mail',
  'nickname',
  'points',
  'qq',
  'registerDate',
  'reviewFirst',
  'version',
  'wechat',
];

async function stored(id: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function createUser(payload: object, token = normal) {
  return t.inject({ method: 'POST', url: '/api/user', ...as(token), payload });
}

describe('POST /api/user', () => {
  it('creates a user with the defaults and a generated password returned once', async () => {
    const response = await createUser({ loginId: 'fresh-user' });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created).toMatchObject({
      loginId: 'fresh-user',
      avatar: DEFAULT_AVATAR,
      points: 100,
      enabled: true,
      mail: '',
      qq: '',
      wechat: '',
      intro: '',
    });
    expect(created.nickname).toMatch(/^新用户\d{6}$/);
    expect(created.registerDate).toBe(created.lastLoginDate);
    expect(created.initialPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    const row = await stored(created._id);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, created.initialPassword)).toBe(true);
    const again = await t.inject({ method: 'GET', url: `/api/user/${created._id}`, ...as(normal) });
    expect(Object.keys(again.json().data).sort()).toEqual(USER_KEYS);
  });

  it('keeps every given field, hashing the given password and returning no initialPassword', async () => {
    const payload = {
      loginId: 'full-user',
      loginPwd: 'secret-pass',
      nickname: ' 小明 ',
      avatar: '/static/uploads/0123456789abcdef01234567.png',
      mail: 'ming@example.com',
      qq: '123456',
      wechat: 'ming_wx',
      intro: '喜欢 TypeScript',
      points: 42,
      enabled: false,
    };
    const response = await createUser(payload);
    expect(response.statusCode).toBe(201);
    const { loginPwd: _password, ...visible } = payload;
    expect(response.json().data).toMatchObject({ ...visible, nickname: '小明' });
    expect(response.json().data.initialPassword).toBeUndefined();
    expect(await verifyPassword((await stored(response.json().data._id)).passwordHash, 'secret-pass')).toBe(true);
  });

  it('refuses a taken loginId with 409 该用户已存在', async () => {
    await createUser({ loginId: 'twice' });
    const again = await createUser({ loginId: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, code: 409, msg: '该用户已存在', errorCode: 'CONFLICT', data: null });
  });

  it.each([
    [{}, 'loginId'],
    [{ loginId: '   ' }, 'loginId'],
    [{ loginId: 'has space' }, 'loginId'],
    [{ loginId: 'bad-mail', mail: 'not-an-address' }, 'mail'],
    [{ loginId: 'bad-qq', qq: 'abc' }, 'qq'],
    [{ loginId: 'bad-points', points: -1 }, 'points'],
    [{ loginId: 'half-points', points: 1.5 }, 'points'],
    [{ loginId: 'short-pass', loginPwd: '123' }, '密码'],
    [{ loginId: 'bad-avatar', avatar: 'javascript:alert(1)' }, 'avatar'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const response = await createUser(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it('accepts an empty mail and QQ as "not given"', async () => {
    const response = await createUser({ loginId: 'no-contact', mail: '', qq: '' });
    expect(response.statusCode).toBe(201);
  });

  it('ignores _id, dates, hashes and unknown fields', async () => {
    const response = await createUser({
      loginId: 'sneaky-user',
      _id: 'ffffffffffffffffffffffff',
      registerDate: 1,
      lastLoginDate: 2,
      passwordHash: '$argon2id$fake',
      isVip: true,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created._id).not.toBe('ffffffffffffffffffffffff');
    expect(created.registerDate).toBeGreaterThan(2);
    expect((await stored(created._id)).passwordHash).not.toBe('$argon2id$fake');
  });
});

describe('GET /api/user/:id and /userIsExist/:loginId', () => {
  it('answers a user without any password field, 404 用户不存在 for an unknown id, 404 记录不存在 for a bad id', async () => {
    const id = (await createUser({ loginId: 'reader' })).json().data._id;
    const response = await t.inject({ method: 'GET', url: `/api/user/${id}`, ...as(normal) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ _id: id, loginId: 'reader' });
    const missing = await t.inject({ method: 'GET', url: '/api/user/0123456789abcdef01234567', ...as(normal) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe('用户不存在');
    // An id that cannot be one names no record (api.md, conventions).
    const bad = await t.inject({ method: 'GET', url: '/api/user/nope', ...as(normal) });
    expect({ status: bad.statusCode, msg: bad.json().msg }).toEqual({ status: 404, msg: '记录不存在' });
  });

  it('answers whether a loginId is taken', async () => {
    await createUser({ loginId: 'taken-id' });
    const taken = await t.inject({ method: 'GET', url: '/api/user/userIsExist/taken-id', ...as(normal) });
    const free = await t.inject({ method: 'GET', url: '/api/user/userIsExist/free-id', ...as(normal) });
    expect(taken.json()).toEqual({ success: true, code: 0, msg: '', data: true });
    expect(free.json().data).toBe(false);
  });
});

describe('PATCH /api/user/:id', () => {
  it('changes the profile fields, the status and the points', async () => {
    const id = (await createUser({ loginId: 'patchee' })).json().data._id;
    const changes = {
      loginId: 'patchee-2',
      nickname: '新名字',
      mail: 'a@b.example',
      qq: '10001',
      wechat: 'wx',
      intro: '你好',
      points: 7,
      enabled: false,
      reviewFirst: true,
    };
    const response = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: changes });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject(changes);
  });

  it('sets a new password from loginPwd and leaves it alone when loginPwd is empty', async () => {
    const id = (await createUser({ loginId: 'pw-user', loginPwd: 'first-pass' })).json().data._id;
    await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { loginPwd: 'second-pass' } });
    expect(await verifyPassword((await stored(id)).passwordHash, 'second-pass')).toBe(true);
    await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { loginPwd: '', nickname: 'x' } });
    expect(await verifyPassword((await stored(id)).passwordHash, 'second-pass')).toBe(true);
    const short = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { loginPwd: '12' } });
    expect(short.statusCode).toBe(400);
  });

  it('puts the default avatar back when the avatar is emptied', async () => {
    const id = (await createUser({ loginId: 'avatar-user', avatar: 'https://img.example/a.png' })).json().data._id;
    const response = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { avatar: '' } });
    expect(response.json().data.avatar).toBe(DEFAULT_AVATAR);
  });

  it('refuses a loginId another user has with 409, and allows keeping its own', async () => {
    await createUser({ loginId: 'owner-a' });
    const id = (await createUser({ loginId: 'owner-b' })).json().data._id;
    const clash = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { loginId: 'owner-a' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().msg).toBe('该用户已存在');
    const same = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { loginId: 'owner-b' } });
    expect(same.statusCode).toBe(200);
  });

  it('answers 409, not 500, when another writer takes the loginId between the check and the write', async () => {
    await createUser({ loginId: 'race-a' });
    const id = (await createUser({ loginId: 'race-b' })).json().data._id;
    const repo = createUserRepository(t.database.db);
    const service = createUserService({
      db: t.database.db,
      users: { ...repo, loginIdOwner: async () => null },
      issues: createIssueRepository(t.database.db),
      comments: createCommentRepository(t.database.db),
      bin: createTrashService({ db: t.database.db, trash: createTrashRepository(t.database.db), audit: createAudit(), retentionDays: 30 }),
      audit: createAudit(),
    });
    await expect(service.update(ROOT_ACTOR, id, { loginId: 'race-a' })).rejects.toMatchObject({ statusCode: 409, msg: '该用户已存在' });
  });

  it('changes nothing stored for _id, dates, hashes or unknown fields', async () => {
    const id = (await createUser({ loginId: 'mass-user' })).json().data._id;
    const before = await stored(id);
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/user/${id}`,
      ...as(normal),
      payload: { _id: 'ffffffffffffffffffffffff', registerDate: 1, lastLoginDate: 1, passwordHash: 'x', password_hash: 'y', role: 'vip' },
    });
    expect(response.statusCode).toBe(200);
    expect(await stored(id)).toEqual(before);
  });

  it('answers 404 for an unknown user and 400 for an empty nickname', async () => {
    const missing = await t.inject({
      method: 'PATCH',
      url: '/api/user/0123456789abcdef01234567',
      ...as(normal),
      payload: { nickname: 'x' },
    });
    expect(missing.statusCode).toBe(404);
    const id = (await createUser({ loginId: 'nick-user' })).json().data._id;
    const empty = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, ...as(normal), payload: { nickname: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain('nickname');
  });
});

describe('GET /api/user (paged)', () => {
  let ctx: TestContext;
  let token: string;
  const BASE = Date.UTC(2024, 0, 1);
  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.rootToken();
    const f = contentFixtures(ctx.database.db);
    // 25 users, one minute apart: user-00 is the oldest.
    for (let i = 0; i < 25; i++) {
      await f.user({
        loginId: `user-${String(i).padStart(2, '0')}`,
        nickname: i % 2 ? '张三' : '李四',
        enabled: i % 5 !== 0,
        registerDate: BASE + i * 60_000,
      });
    }
    await f.user({ loginId: 'percent%user', nickname: 'under_score', registerDate: BASE - 1 });
    await f.user({ loginId: 'plaintXuser', nickname: 'underXscore', registerDate: BASE - 2 });
  });
  afterAll(() => ctx.close());

  const list = (query: string) => ctx.inject({ method: 'GET', url: `/api/user?${query}`, headers: bearer(token) });
  const loginIds = (response: { json(): { data: { data: Array<{ loginId: string }> } } }) =>
    response.json().data.data.map((u) => u.loginId);

  it('answers the first page of 10, newest first, with the paging numbers', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const page = response.json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 10, count: 27, totalPage: 3 });
    expect(loginIds(response)).toEqual(Array.from({ length: 10 }, (_, i) => `user-${String(24 - i).padStart(2, '0')}`));
    for (const user of page.data) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
  });

  it('answers later pages and an empty page past the end with the right count', async () => {
    const third = (await list('current=3&pageSize=10')).json().data;
    expect(third.data.map((u: { loginId: string }) => u.loginId)).toEqual([
      'user-04',
      'user-03',
      'user-02',
      'user-01',
      'user-00',
      'percent%user',
      'plaintXuser',
    ]);
    const past = (await list('current=9&pageSize=10')).json().data;
    expect(past).toEqual({ currentPage: 9, eachPage: 10, count: 27, totalPage: 3, data: [] });
  });

  it('takes pageSize up to 100 and refuses 101, 0 and current 0 with 400', async () => {
    const hundred = await list('pageSize=100');
    expect(hundred.statusCode).toBe(200);
    expect(hundred.json().data).toMatchObject({ eachPage: 100, totalPage: 1 });
    expect(hundred.json().data.data).toHaveLength(27);
    for (const query of ['pageSize=101', 'pageSize=0', 'current=0', 'current=abc']) {
      const refused = await list(query);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().success).toBe(false);
    }
    expect((await list('pageSize=101')).json().msg).toContain('pageSize');
  });

  it('filters by loginId and nickname as case-insensitive substrings', async () => {
    expect(loginIds(await list('loginId=USER-2&pageSize=100'))).toEqual(['user-24', 'user-23', 'user-22', 'user-21', 'user-20']);
    const zhang = (await list('nickname=张&pageSize=100')).json().data;
    expect(zhang.count).toBe(12);
    expect(zhang.data.every((u: { nickname: string }) => u.nickname === '张三')).toBe(true);
  });

  it('matches % and _ literally', async () => {
    expect(loginIds(await list(`loginId=${encodeURIComponent('t%u')}`))).toEqual(['percent%user']);
    expect(loginIds(await list(`nickname=${encodeURIComponent('r_s')}`))).toEqual(['percent%user']);
    expect(loginIds(await list(`loginId=${encodeURIComponent('%')}`))).toEqual(['percent%user']);
  });

  it('filters by status, and treats empty filters as none', async () => {
    const disabled = (await list('enabled=false&pageSize=100')).json().data;
    expect(disabled.count).toBe(5);
    expect(disabled.data.every((u: { enabled: boolean }) => !u.enabled)).toBe(true);
    expect((await list('enabled=true')).json().data.count).toBe(22);
    expect((await list('loginId=&nickname=&enabled=')).json().data.count).toBe(27);
    expect((await list('enabled=maybe')).statusCode).toBe(400);
  });

  it('ignores unknown query parameters', async () => {
    const response = await list('sort=password_hash&_t=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.count).toBe(27);
  });
});

/** Two users, a type, and comments written through the API so that the counters are real. */
async function commentedWorld(ctx: TestContext, token: string) {
  const f = contentFixtures(ctx.database.db);
  const typeId = await f.type();
  const victim = await f.user();
  const other = await f.user();
  const othersIssue = await f.issue(other, typeId);
  const victimsIssue = await f.issue(victim, typeId);
  const book = await f.book(typeId);
  const comment = async (userId: string, target: { issueId: string } | { bookId: string }) => {
    const commentType = 'issueId' in target ? 1 : 2;
    const response = await ctx.inject({
      method: 'POST',
      url: '/api/comment',
      headers: bearer(token),
      payload: { userId, commentType, ...target, commentContent: '<p>hi</p>' },
    });
    if (response.statusCode !== 201) throw new Error(response.body);
    return response.json().data._id as string;
  };
  await comment(victim, { issueId: othersIssue });
  await comment(victim, { issueId: othersIssue });
  await comment(victim, { bookId: book });
  await comment(victim, { issueId: victimsIssue });
  const othersComment = await comment(other, { issueId: othersIssue });
  await comment(other, { issueId: victimsIssue });
  return { victim, other, othersIssue, victimsIssue, book, othersComment };
}

async function counters(ctx: TestContext, issueId: string, bookId: string) {
  const [issue] = await ctx.database.db.select({ n: issues.commentNumber }).from(issues).where(eq(issues.id, issueId));
  const [book] = await ctx.database.db.select({ n: books.commentNumber }).from(books).where(eq(books.id, bookId));
  return { issue: issue?.n, book: book?.n };
}

describe('GET /api/user/:id/impact', () => {
  it('counts the issues and comments that would go with the user', async () => {
    const world = await commentedWorld(t, root);
    const response = await t.inject({ method: 'GET', url: `/api/user/${world.victim}/impact`, ...as(normal) });
    expect(response.statusCode).toBe(200);
    // 4 comments written by the user, and 1 written by someone else under the user's issue.
    expect(response.json().data).toEqual({ issues: 1, comments: 5 });
    const missing = await t.inject({ method: 'GET', url: '/api/user/0123456789abcdef01234567/impact', ...as(normal) });
    expect(missing.statusCode).toBe(404);
  });
});

describe('DELETE /api/user/:id', () => {
  it('is refused to a normal admin with 403, and nothing is deleted', async () => {
    const id = (await createUser({ loginId: 'protected' })).json().data._id;
    const response = await t.inject({ method: 'DELETE', url: `/api/user/${id}`, ...as(normal) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, code: 403, msg: '没有权限进行此操作', errorCode: 'FORBIDDEN', data: null });
    expect(await stored(id)).toBeDefined();
  });

  it('removes the user, their issues and every comment that goes with them, and fixes the counters of what survives', async () => {
    const world = await commentedWorld(t, root);
    expect(await counters(t, world.othersIssue, world.book)).toEqual({ issue: 3, book: 1 });

    const response = await t.inject({ method: 'DELETE', url: `/api/user/${world.victim}`, ...as(root) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, code: 0, msg: '', data: null });

    const db = t.database.db;
    expect(await stored(world.victim)).toBeUndefined();
    expect(await db.select().from(issues).where(eq(issues.userId, world.victim))).toEqual([]);
    expect(await db.select().from(comments).where(eq(comments.userId, world.victim))).toEqual([]);
    expect(await db.select().from(comments).where(eq(comments.issueId, world.victimsIssue))).toEqual([]);
    const left = await db.select({ id: comments.id }).from(comments).where(eq(comments.issueId, world.othersIssue));
    expect(left).toEqual([{ id: world.othersComment }]);
    expect(await counters(t, world.othersIssue, world.book)).toEqual({ issue: 1, book: 0 });
    expect(await stored(world.other)).toBeDefined();

    expect((await t.inject({ method: 'DELETE', url: `/api/user/${world.victim}`, ...as(root) })).statusCode).toBe(404);
  });

  it('leaves everything as it was when the last step of the deletion fails', async () => {
    const world = await commentedWorld(t, root);
    const db = t.database.db;
    const snapshot = async () => ({
      users: await db.select().from(users).orderBy(users.id),
      issues: await db.select().from(issues).orderBy(issues.id),
      books: await db.select().from(books).orderBy(books.id),
      comments: await db.select().from(comments).orderBy(comments.id),
      trash: await db.select({ id: trash.id }).from(trash).orderBy(trash.id),
    });
    const before = await snapshot();
    const repo = createUserRepository(db);
    const service = createUserService({
      db,
      users: {
        ...repo,
        delete: async () => {
          throw new Error('disk full');
        },
      },
      issues: createIssueRepository(db),
      comments: createCommentRepository(db),
      bin: createTrashService({ db, trash: createTrashRepository(db), audit: createAudit(), retentionDays: 30 }),
      audit: createAudit(),
    });
    await expect(service.remove(ROOT_ACTOR, world.victim)).rejects.toThrow('disk full');
    expect(await snapshot()).toEqual(before);
    expect(await counters(t, world.othersIssue, world.book)).toEqual({ issue: 3, book: 1 });
  });

  it('answers 500 without internals when the database refuses midway, and keeps every row', async () => {
    const world = await commentedWorld(t, root);
    const db = t.database.db;
    const commentsBefore = await db.select().from(comments).orderBy(comments.id);
    await fx.failOn('users', 'delete');
    try {
      const response = await t.inject({ method: 'DELETE', url: `/api/user/${world.victim}`, ...as(root) });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ success: false, code: 500, msg: '服务器内部错误，请稍后重试', errorCode: 'INTERNAL', data: null });
    } finally {
      await fx.stopFailing('users', 'delete');
    }
    expect(await stored(world.victim)).toBeDefined();
    expect(await db.select().from(comments).orderBy(comments.id)).toEqual(commentsBefore);
    expect(await counters(t, world.othersIssue, world.book)).toEqual({ issue: 3, book: 1 });
  });
});

describe('access', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/user'],
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['GET', '/api/user/0123456789abcdef01234567/impact'],
    ['PATCH', '/api/user/0123456789abcdef01234567'],
    ['DELETE', '/api/user/0123456789abcdef01234567'],
  ];

  it.each(routes)('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({
      method: method as 'GET',
      url,
      payload: method === 'POST' || method === 'PATCH' ? { loginId: 'x' } : undefined,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', errorCode: 'SESSION_EXPIRED', data: null });
  });
});
