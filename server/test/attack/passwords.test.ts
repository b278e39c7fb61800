import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config';
import { adminPasswordProblem, commonPasswordCount, userPasswordProblem } from '../../src/lib/password-rules';
import { randomAdminPassword } from '../../src/lib/passwords';
import { bearer, createTestContext, passwordOf, type TestContext } from '../harness';
import { expectRefusal } from './support';

/** The password rules on every way a password is set, each refusal a 400 with its reason. */

let t: TestContext;
let root: string;
let target: { id: string; token: string };
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  target = await t.createAdmin('pw-target', 2);
});
afterAll(() => t.close());

const COMMON = '过于常见';
// Common passwords of 8 characters or more (so that the list, not the length, refuses them).
const COMMON_PASSWORDS = ['password', 'iloveyou', '12345678', 'qwertyuiop', 'password1', 'Password123'];

type Path = (password: string) => Promise<LightMyRequestResponse>;
let serial = 0;
const ADMIN_PATHS: Record<string, Path> = {
  'POST /api/admin': (loginPwd) =>
    t.inject({
      method: 'POST',
      url: '/api/admin',
      headers: bearer(root),
      payload: { loginId: `new-${++serial}`, loginPwd, permission: 2 },
    }),
  'PATCH /api/admin/:id by a super admin': (loginPwd) =>
    t.inject({ method: 'PATCH', url: `/api/admin/${target.id}`, headers: bearer(root), payload: { loginPwd } }),
  'POST /api/admin/me/password': (newPassword) =>
    t.inject({
      method: 'POST',
      url: '/api/admin/me/password',
      headers: bearer(target.token),
      payload: { currentPassword: passwordOf('pw-target'), newPassword },
    }),
};

describe('the common-password list', () => {
  it('is a real list of at least 10,000 passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
  });

  describe.each(Object.keys(ADMIN_PATHS))('%s', (path) => {
    it.each(COMMON_PASSWORDS)('refuses %s with 400 密码过于常见', async (password) => {
      const response = await ADMIN_PATHS[path](password);
      expectRefusal(response, 400);
      expect(response.json().msg).toContain(COMMON);
    });
  });

  it.each([
    [
      'POST /api/user',
      (loginPwd: string) =>
        t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId: `u-${++serial}`, loginPwd } }),
    ],
    [
      'PATCH /api/user/:id',
      async (loginPwd: string) => {
        const id = (
          await t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId: `u-${++serial}` } })
        ).json().data._id;
        return t.inject({ method: 'PATCH', url: `/api/user/${id}`, headers: bearer(root), payload: { loginPwd } });
      },
    ],
  ])("a user's password on %s: refuses 123456 and iloveyou", async (_path, send) => {
    for (const password of ['123456', 'iloveyou']) {
      const response = await send(password);
      expectRefusal(response, 400);
      expect(response.json().msg).toContain(COMMON);
    }
    // Users keep their own length rule (6): a 6-character uncommon password is fine.
    expect((await send('kq7-zv')).statusCode).toBeLessThan(300);
  });

  it('ADMIN_PASSWORD at first start: refused by the configuration with its reason', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password1' })).toThrow(COMMON);
    expect(() => loadConfig({ ADMIN_PASSWORD: '123456' })).toThrow('密码长度至少 8 位');
    expect(() => loadConfig({ ADMIN_LOGIN_ID: 'chief', ADMIN_PASSWORD: 'my-chief-pass-1' })).toThrow('密码不能包含账号');
    expect(loadConfig({ ADMIN_LOGIN_ID: 'chief', ADMIN_PASSWORD: 'Orchard-Lantern-1' }).adminPassword).toBe('Orchard-Lantern-1');
  });
});

describe('the other administrators’ rules', () => {
  describe.each(Object.keys(ADMIN_PATHS))('%s', (path) => {
    it('refuses fewer than 8 characters: 密码长度至少 8 位', async () => {
      expectRefusal(await ADMIN_PATHS[path]('Kq7-zv!'), 400, '密码长度至少 8 位');
    });
  });

  it('refuses a password containing the account name, in any case', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/api/admin',
      headers: bearer(root),
      payload: { loginId: 'marguerite', loginPwd: 'xx-MARGUERITE-7', permission: 2 },
    });
    expectRefusal(created, 400, '密码不能包含账号');
    expectRefusal(await ADMIN_PATHS['PATCH /api/admin/:id by a super admin']('zz-Pw-Target-9'), 400, '密码不能包含账号');
    expectRefusal(await ADMIN_PATHS['POST /api/admin/me/password']('zz-pw-target-9'), 400, '密码不能包含账号');
  });

  it('refuses a password containing the nickname', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/api/admin',
      headers: bearer(root),
      payload: { loginId: 'nick-owner', nickname: 'Lighthouse', loginPwd: 'my-lighthouse-9', permission: 2 },
    });
    expectRefusal(created, 400, '密码不能包含昵称');
    await t.inject({ method: 'PATCH', url: '/api/admin/me', headers: bearer(target.token), payload: { nickname: 'Seahorse' } });
    expectRefusal(await ADMIN_PATHS['POST /api/admin/me/password']('big-SEAHORSE-4'), 400, '密码不能包含昵称');
  });

  it('generated passwords keep passing', async () => {
    for (let i = 0; i < 200; i++)
      expect(
        adminPasswordProblem(randomAdminPassword({ loginId: 'abc', nickname: 'xyz' }), { loginId: 'abc', nickname: 'xyz' }),
      ).toBeNull();
    const created = await t.inject({
      method: 'POST',
      url: '/api/admin',
      headers: bearer(root),
      payload: { loginId: 'generated', permission: 2 },
    });
    expect(created.statusCode).toBe(201);
    const { initialPassword } = created.json().data;
    expect(adminPasswordProblem(initialPassword, { loginId: 'generated', nickname: '新增管理员' })).toBeNull();
    expect((await t.login('generated', initialPassword)).statusCode).toBe(200);
  });

  it('the rules as functions: users are not held to the administrators’ rules', () => {
    expect(userPasswordProblem('kq7-zv')).toBeNull();
    expect(adminPasswordProblem('kq7-zv', { loginId: 'x' })).toBe('密码长度至少 8 位');
  });
});

describe('changing one’s own password needs the current one', () => {
  it('PATCH /api/admin/{own id} with loginPwd is refused, pointing to 个人设置', async () => {
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/admin/${target.id}`,
      headers: bearer(target.token),
      payload: { loginPwd: 'Orchard-Lantern-2' },
    });
    expectRefusal(response, 400);
    expect(response.json().msg).toContain('个人设置');
    expect((await t.login('pw-target', 'Orchard-Lantern-2')).statusCode).toBe(401);
  });

  it('POST /api/admin/me/password without currentPassword, or with a wrong one, is refused', async () => {
    const missing = await t.inject({
      method: 'POST',
      url: '/api/admin/me/password',
      headers: bearer(target.token),
      payload: { newPassword: 'Orchard-Lantern-3' },
    });
    expectRefusal(missing, 400);
    const empty = await t.inject({
      method: 'POST',
      url: '/api/admin/me/password',
      headers: bearer(target.token),
      payload: { currentPassword: '', newPassword: 'Orchard-Lantern-3' },
    });
    expectRefusal(empty, 400);
    const wrong = await t.inject({
      method: 'POST',
      url: '/api/admin/me/password',
      remoteAddress: '198.51.120.1',
      headers: bearer(target.token),
      payload: { currentPassword: 'Orchard-Lantern-0', newPassword: 'Orchard-Lantern-3' },
    });
    expectRefusal(wrong, 400, '当前密码不正确');
    expect((await t.login('pw-target', 'Orchard-Lantern-3')).statusCode).toBe(401);
  });
});
