import { eq } from 'drizzle-orm';
import { admins } from '../../db/schema';
import { ROOT_LOGIN, bearer, createTestContext, type TestContext, passwordOf } from '../../../test/harness';

let t: TestContext;
let root: string;
let rootId: string;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  rootId = (await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(root) })).json().data._id;
});
afterAll(() => t.close());

const as = (token: string) => ({ headers: bearer(token) });

async function storedAdmin(id: string) {
  const [row] = await t.database.db.select().from(admins).where(eq(admins.id, id));
  return row;
}

describe('GET /api/admin', () => {
  it('lists every admin, oldest first, without passwords', async () => {
    await t.createAdmin('list-a', 2);
    const response = await t.inject({ method: 'GET', url: '/api/admin', ...as(root) });
    expect(response.statusCode).toBe(200);
    const list = response.json().data;
    expect(list[0].loginId).toBe(ROOT_LOGIN);
    expect(list.map((a: { loginId: string }) => a.loginId)).toContain('list-a');
    for (const admin of list)
      expect(Object.keys(admin).sort()).toEqual([
        '_id',
        'avatar',
        'createdAt',
        'enabled',
        'loginId',
        'nickname',
        'permission',
        'twoFactorEnabled',
        'version',
      ]);
  });
});

describe('POST /api/admin', () => {
  it('creates an admin with defaults and a generated password returned once', async () => {
    const response = await t.inject({ method: 'POST', url: '/api/admin', ...as(root), payload: { loginId: 'fresh', permission: 2 } });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created).toMatchObject({ loginId: 'fresh', nickname: '新增管理员', permission: 2, enabled: true });
    expect(created.avatar).toMatch(/^\//);
    expect(created.initialPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    // The generated password works, and is not shown again.
    expect((await t.login('fresh', created.initialPassword)).statusCode).toBe(200);
    const again = await t.inject({ method: 'GET', url: `/api/admin/${created._id}`, ...as(root) });
    expect(again.json().data.initialPassword).toBeUndefined();
  });

  it('keeps the given password and nickname, trimmed', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin',
      ...as(root),
      payload: { loginId: '  given  ', loginPwd: 'Orchard-Lantern-5', nickname: ' 小王 ', permission: 1 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ loginId: 'given', nickname: '小王', permission: 1 });
    expect(response.json().data.initialPassword).toBeUndefined();
    expect((await t.login('given', 'Orchard-Lantern-5')).statusCode).toBe(200);
  });

  it('refuses a taken loginId with 409 该管理员已经注册过了', async () => {
    const response = await t.inject({ method: 'POST', url: '/api/admin', ...as(root), payload: { loginId: ROOT_LOGIN, permission: 2 } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, code: 409, msg: '该管理员已经注册过了', errorCode: 'CONFLICT', data: null });
  });

  it.each([
    [{ permission: 2 }, 'loginId'],
    [{ loginId: '   ', permission: 2 }, 'loginId'],
    [{ loginId: 'p3', permission: 3 }, 'permission'],
    [{ loginId: 'p4' }, 'permission'],
    [{ loginId: 'p5', permission: 2, loginPwd: '123' }, '密码'],
    [{ loginId: 'p6', permission: 2, avatar: 'javascript:alert(1)' }, 'avatar'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const response = await t.inject({ method: 'POST', url: '/api/admin', ...as(root), payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it('ignores _id, dates, hashes and unknown fields', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin',
      ...as(root),
      payload: {
        loginId: 'sneaky',
        permission: 2,
        _id: 'ffffffffffffffffffffffff',
        createdAt: 1,
        enabled: false,
        passwordHash: '$argon2id$fake',
        isRoot: true,
      },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created._id).not.toBe('ffffffffffffffffffffffff');
    expect(created.createdAt).toBeGreaterThan(1);
    expect(created.enabled).toBe(true);
    expect((await storedAdmin(created._id)).passwordHash).not.toBe('$argon2id$fake');
  });
});

describe('GET /api/admin/:id', () => {
  it('answers an admin to a super admin, and 404 管理员不存在 for an unknown id', async () => {
    const { id } = await t.createAdmin('get-me', 2);
    const response = await t.inject({ method: 'GET', url: `/api/admin/${id}`, ...as(root) });
    expect(response.json().data).toMatchObject({ _id: id, loginId: 'get-me' });
    const missing = await t.inject({ method: 'GET', url: '/api/admin/0123456789abcdef01234567', ...as(root) });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe('管理员不存在');
  });

  it('answers a normal admin about itself but not about others', async () => {
    const me = await t.createAdmin('self-reader', 2);
    expect((await t.inject({ method: 'GET', url: `/api/admin/${me.id}`, ...as(me.token) })).statusCode).toBe(200);
    const other = await t.inject({ method: 'GET', url: `/api/admin/${rootId}`, ...as(me.token) });
    expect(other.statusCode).toBe(403);
    expect(other.json().msg).toBe('没有权限进行此操作');
  });

  it('answers 404 记录不存在 for an id that is not 24 hex characters: the address names no record (api.md)', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/admin/not-an-id', ...as(root) });
    expect({ status: response.statusCode, msg: response.json().msg }).toEqual({ status: 404, msg: '记录不存在' });
  });
});

describe('PATCH /api/admin/:id', () => {
  it('changes nickname, avatar, permission and status', async () => {
    const { id } = await t.createAdmin('patch-me', 2);
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/admin/${id}`,
      ...as(root),
      payload: { nickname: '改名', avatar: '/static/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.png', permission: 1, enabled: false },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      nickname: '改名',
      avatar: '/static/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.png',
      permission: 1,
      enabled: false,
    });
  });

  it('sets a new password', async () => {
    const { id } = await t.createAdmin('new-pass', 2);
    await t.inject({ method: 'PATCH', url: `/api/admin/${id}`, ...as(root), payload: { loginPwd: 'Orchard-Lantern-6' } });
    expect((await t.login('new-pass', passwordOf('new-pass'))).statusCode).toBe(401);
    expect((await t.login('new-pass', 'Orchard-Lantern-6')).statusCode).toBe(200);
  });

  it('leaves the password alone when it is sent empty', async () => {
    const { id } = await t.createAdmin('keep-pass', 2);
    const response = await t.inject({ method: 'PATCH', url: `/api/admin/${id}`, ...as(root), payload: { nickname: 'x', loginPwd: '' } });
    expect(response.statusCode).toBe(200);
    expect((await t.login('keep-pass', passwordOf('keep-pass'))).statusCode).toBe(200);
  });

  it('changes nothing stored for _id, loginId, dates, hashes or unknown fields', async () => {
    const { id } = await t.createAdmin('mass', 2);
    const before = await storedAdmin(id);
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/admin/${id}`,
      ...as(root),
      payload: {
        _id: 'ffffffffffffffffffffffff',
        loginId: 'renamed',
        createdAt: 5,
        passwordHash: '$argon2id$v=19$fake',
        password_hash: 'x',
        role: 'owner',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(await storedAdmin(id)).toEqual(before);
  });

  it('lets a normal admin change its own nickname, avatar and password only', async () => {
    const me = await t.createAdmin('self-editor', 2);
    const ok = await t.inject({ method: 'PATCH', url: `/api/admin/${me.id}`, ...as(me.token), payload: { nickname: '我自己' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.nickname).toBe('我自己');
    for (const payload of [{ permission: 1 }, { enabled: false }]) {
      const refused = await t.inject({ method: 'PATCH', url: `/api/admin/${me.id}`, ...as(me.token), payload });
      expect(refused.statusCode).toBe(403);
    }
    const other = await t.inject({ method: 'PATCH', url: `/api/admin/${rootId}`, ...as(me.token), payload: { nickname: 'hacked' } });
    expect(other.statusCode).toBe(403);
    expect((await storedAdmin(me.id)).permission).toBe(2);
  });

  it('refuses to let anyone disable or demote themselves: 400 无法进行此操作', async () => {
    for (const payload of [{ enabled: false }, { permission: 2 }]) {
      const response = await t.inject({ method: 'PATCH', url: `/api/admin/${rootId}`, ...as(root), payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().msg).toBe('无法进行此操作');
    }
    expect(await storedAdmin(rootId)).toMatchObject({ enabled: true, permission: 1 });
  });

  it('never removes the last enabled super admin, even when two super admins demote each other at once', async () => {
    const ctx = await createTestContext();
    try {
      const rootToken = await ctx.rootToken();
      const rootSelf = (await ctx.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(rootToken) })).json().data._id;
      const other = await ctx.createAdmin('other-super', 1);
      const [a, b] = await Promise.all([
        ctx.inject({ method: 'PATCH', url: `/api/admin/${other.id}`, headers: bearer(rootToken), payload: { permission: 2 } }),
        ctx.inject({ method: 'PATCH', url: `/api/admin/${rootSelf}`, headers: bearer(other.token), payload: { permission: 2 } }),
      ]);
      expect([a.statusCode, b.statusCode].filter((s) => s === 200)).toHaveLength(1);
      const list = await ctx.database.db.select().from(admins).where(eq(admins.permission, 1));
      expect(list.filter((row) => row.enabled)).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  it('answers 404 for an unknown admin', async () => {
    const response = await t.inject({
      method: 'PATCH',
      url: '/api/admin/0123456789abcdef01234567',
      ...as(root),
      payload: { nickname: 'x' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('DELETE /api/admin/:id', () => {
  it('deletes an admin', async () => {
    const { id } = await t.createAdmin('delete-me', 2);
    const response = await t.inject({ method: 'DELETE', url: `/api/admin/${id}`, ...as(root) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, code: 0, msg: '', data: null });
    expect(await storedAdmin(id)).toBeUndefined();
    expect((await t.inject({ method: 'DELETE', url: `/api/admin/${id}`, ...as(root) })).statusCode).toBe(404);
  });

  it('refuses to delete yourself', async () => {
    const response = await t.inject({ method: 'DELETE', url: `/api/admin/${rootId}`, ...as(root) });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toBe('无法进行此操作');
  });
});

describe('GET /api/admin/adminIsExist/:loginId', () => {
  it('answers whether the loginId is taken', async () => {
    const taken = await t.inject({ method: 'GET', url: `/api/admin/adminIsExist/${ROOT_LOGIN}`, ...as(root) });
    const free = await t.inject({ method: 'GET', url: '/api/admin/adminIsExist/nobody-uses-this', ...as(root) });
    expect(taken.json().data).toBe(true);
    expect(free.json().data).toBe(false);
  });
});

describe('permissions', () => {
  const superOnly: Array<[string, string, (ids: { other: string }) => object | undefined]> = [
    ['GET', '/api/admin', () => undefined],
    ['POST', '/api/admin', () => ({ loginId: 'by-normal', permission: 1 })],
    ['DELETE', '/api/admin/:other', () => undefined],
    ['GET', '/api/admin/adminIsExist/root', () => undefined],
    ['PATCH', '/api/admin/:other', () => ({ nickname: 'x' })],
    ['GET', '/api/admin/:other', () => undefined],
  ];

  it.each(superOnly)('a normal admin gets 403 没有权限进行此操作 on %s %s, and nothing changes', async (method, path, payload) => {
    const normal = await t.createAdmin(`normal-${method}-${path.length}`.toLowerCase(), 2);
    const other = await t.createAdmin(`victim-${method}-${path.length}`.toLowerCase(), 2);
    const before = await t.inject({ method: 'GET', url: '/api/admin', ...as(root) });
    const response = await t.inject({
      method: method as 'GET',
      url: path.replace(':other', other.id),
      ...as(normal.token),
      payload: payload({ other: other.id }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, code: 403, msg: '没有权限进行此操作', errorCode: 'FORBIDDEN', data: null });
    const after = await t.inject({ method: 'GET', url: '/api/admin', ...as(root) });
    expect(after.json()).toEqual(before.json());
  });

  it.each(superOnly)('without a token %s %s answers 401', async (method, path, payload) => {
    const response = await t.inject({ method: method as 'GET', url: path.replace(':other', rootId), payload: payload({ other: rootId }) });
    expect(response.statusCode).toBe(401);
  });
});
