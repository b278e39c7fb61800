import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { adminLogins, adminRecoveryCodes, admins, adminSessions, settings } from '../../db/schema';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, passwordOf, type TestContext } from '../../../test/harness';
import { expectRefusal } from '../../../test/attack/support';
import { totpCode } from '../auth/totp';
import { LAST_SEEN_EVERY_MS, LOGIN_HISTORY_MS } from '../auth/auth.service';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
let ipSerial = 0;
/** A fresh address per test: the throttle's address key never carries over between tests. */
const freshIp = () => `10.13.${Math.floor(++ipSerial / 250)}.${(ipSerial % 250) + 1}`;

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, ip?: string) =>
  t.inject({ method, url, headers: bearer(token), remoteAddress: ip, ...(payload && { payload }) });
const whoami = (token: string) => call(token, 'GET', '/api/admin/whoami');

/** The code of the next time step: the current one was just used. */
function nextCode(secret: string) {
  t.clock.advance(30_000);
  return totpCode(secret, t.clock.now());
}

describe('PATCH /api/admin/me', () => {
  it('changes the own nickname and avatar, nothing else', async () => {
    const { id, token } = await t.createAdmin('me-edit', 2);
    const response = await call(token, 'PATCH', '/api/admin/me', { nickname: '新名字', avatar: '/static/uploads/a.png' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ _id: id, nickname: '新名字', avatar: '/static/uploads/a.png', permission: 2 });
    // Other fields are dropped by the schema, as everywhere (attack/mass-assignment.test.ts).
    const sneaky = await call(token, 'PATCH', '/api/admin/me', {
      nickname: '再改',
      permission: 1,
      enabled: false,
      loginPwd: 'Orchard-Lantern-0',
    });
    expect(sneaky.json().data).toMatchObject({ nickname: '再改', permission: 2, enabled: true });
    expect((await t.login('me-edit', 'Orchard-Lantern-0')).statusCode).toBe(401);
  });
});

describe('POST /api/admin/me/password', () => {
  it('needs the current password: a wrong one is 400 当前密码不正确 and nothing changes', async () => {
    const { token } = await t.createAdmin('pw-wrong', 2);
    const response = await call(
      token,
      'POST',
      '/api/admin/me/password',
      { currentPassword: 'not-my-password', newPassword: 'Orchard-Lantern-1' },
      freshIp(),
    );
    expectRefusal(response, 400, '当前密码不正确');
    expect((await t.login('pw-wrong', passwordOf('pw-wrong'))).statusCode).toBe(200);
  });

  it('refuses the change without the current password (400 naming 当前密码)', async () => {
    const { token } = await t.createAdmin('pw-none', 2);
    const response = await call(token, 'POST', '/api/admin/me/password', { newPassword: 'Orchard-Lantern-1' });
    expectRefusal(response, 400);
    expect(response.json().msg).toContain('当前密码');
  });

  it('keeps the calling session and ends every other one', async () => {
    const { token } = await t.createAdmin('pw-ok', 2);
    const other = await t.tokenFor('pw-ok', passwordOf('pw-ok'));
    const response = await call(token, 'POST', '/api/admin/me/password', {
      currentPassword: passwordOf('pw-ok'),
      newPassword: 'Orchard-Lantern-2',
    });
    expect(response.statusCode).toBe(200);
    expect((await whoami(token)).statusCode).toBe(200);
    expect((await whoami(other)).statusCode).toBe(401);
    expect((await t.login('pw-ok', 'Orchard-Lantern-2')).statusCode).toBe(200);
    expect((await t.login('pw-ok', passwordOf('pw-ok'))).statusCode).toBe(401);
  });

  it('counts a wrong current password in the login throttle', async () => {
    const { token } = await t.createAdmin('pw-throttle', 2);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const wrong = await call(
        token,
        'POST',
        '/api/admin/me/password',
        { currentPassword: `wrong-${i}`, newPassword: 'Orchard-Lantern-3' },
        ip,
      );
      expectRefusal(wrong, 400, '当前密码不正确');
    }
    // Locked now: even the right current password is turned away, and so is a sign-in.
    const locked = await call(
      token,
      'POST',
      '/api/admin/me/password',
      { currentPassword: passwordOf('pw-throttle'), newPassword: 'Orchard-Lantern-3' },
      ip,
    );
    expectRefusal(locked, 429, '登录尝试过于频繁，请稍后再试');
    expect((await t.login('pw-throttle', passwordOf('pw-throttle'), { ip: freshIp() })).statusCode).toBe(429);
  });
});

describe('PATCH /api/admin/:id and passwords', () => {
  it('refuses loginPwd on one’s own record (400 pointing to 个人设置), for a super admin too', async () => {
    const { id, token } = await t.createAdmin('self-pwd', 2);
    const own = await call(token, 'PATCH', `/api/admin/${id}`, { loginPwd: 'Orchard-Lantern-4' });
    expectRefusal(own, 400);
    expect(own.json().msg).toContain('个人设置');
    const rootId = (await whoami(await t.rootToken())).json().data._id;
    const root = await call(await t.rootToken(), 'PATCH', `/api/admin/${rootId}`, { loginPwd: 'Orchard-Lantern-4' });
    expectRefusal(root, 400);
    expect(root.json().msg).toContain('个人设置');
    expect((await t.login(ROOT_LOGIN, ROOT_PASSWORD)).statusCode).toBe(200);
  });

  it('lets a super admin set another admin’s password without the current one, ending that admin’s sessions', async () => {
    const { id, token } = await t.createAdmin('reset-by-root', 2);
    const response = await call(await t.rootToken(), 'PATCH', `/api/admin/${id}`, { loginPwd: 'Orchard-Lantern-5' });
    expect(response.statusCode).toBe(200);
    expect((await whoami(token)).statusCode).toBe(401);
    expect((await t.login('reset-by-root', 'Orchard-Lantern-5')).statusCode).toBe(200);
  });
});

describe('two-step sign-in', () => {
  it('setup answers a secret and an otpauth address, and nothing changes until enable', async () => {
    const { token } = await t.createAdmin('tf-setup', 2);
    const setup = await call(token, 'POST', '/api/admin/me/2fa/setup');
    const { secret, otpauthUrl } = setup.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(otpauthUrl).toContain('tf-setup');
    expect((await whoami(token)).json().data.twoFactorEnabled).toBe(false);
    expect((await t.login('tf-setup', passwordOf('tf-setup'))).json().data.token).toEqual(expect.any(String));
  });

  it('enable refuses a wrong code (动态验证码不正确) and one before setup (请先获取两步验证密钥)', async () => {
    const { token } = await t.createAdmin('tf-enable', 2);
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/enable', { code: '123456' }), 400, '请先获取两步验证密钥');
    const { secret } = (await call(token, 'POST', '/api/admin/me/2fa/setup')).json().data;
    const wrong = String((Number(totpCode(secret, t.clock.now())) + 1) % 1_000_000).padStart(6, '0');
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/enable', { code: wrong }, freshIp()), 400, '动态验证码不正确');
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/enable', { code: 'abcdef' }), 400);
  });

  it('enable answers 10 recovery codes, kept only as hashes, and the secret is not stored in clear', async () => {
    const { id, token } = await t.createAdmin('tf-on', 2);
    const { secret, recoveryCodes } = await t.enableTwoFactor(token);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await t.database.db.select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id));
    expect(stored).toHaveLength(10);
    for (const row of stored) for (const code of recoveryCodes) expect(row.codeHash).not.toContain(code.replace('-', ''));
    const [row] = await t.database.db.select().from(admins).where(eq(admins.id, id));
    expect(row.totpSecret).not.toContain(secret);
    expect(row.totpPendingSecret).toBeNull();
    expect((await whoami(token)).json().data.twoFactorEnabled).toBe(true);
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/setup'), 400, '两步验证已经开启');
  });

  it('sign-in answers a challenge and no token, then the code signs in', async () => {
    const { token } = await t.createAdmin('tf-login', 2);
    const { secret } = await t.enableTwoFactor(token);
    const first = await t.login('tf-login', passwordOf('tf-login'), { remember: true });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(first.body).not.toContain('"token"');
    const second = await t.inject({
      method: 'POST',
      url: '/api/admin/login/2fa',
      payload: { challenge: first.json().data.challenge, code: nextCode(secret) },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ token: expect.any(String), data: { loginId: 'tf-login', twoFactorEnabled: true } });
    expect((await whoami(second.json().data.token)).statusCode).toBe(200);
  });

  it('a recovery code signs in, in any case and without its dash', async () => {
    const { token } = await t.createAdmin('tf-recovery', 2);
    const { recoveryCodes } = await t.enableTwoFactor(token);
    const first = await t.login('tf-recovery', passwordOf('tf-recovery'));
    const second = await t.inject({
      method: 'POST',
      url: '/api/admin/login/2fa',
      payload: { challenge: first.json().data.challenge, recoveryCode: recoveryCodes[3].replace('-', '').toLowerCase() },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.token).toEqual(expect.any(String));
  });

  it('the second step wants exactly one of code and recoveryCode', async () => {
    const { token } = await t.createAdmin('tf-either', 2);
    const { recoveryCodes } = await t.enableTwoFactor(token);
    const { challenge } = (await t.login('tf-either', passwordOf('tf-either'))).json().data;
    const both = await t.inject({
      method: 'POST',
      url: '/api/admin/login/2fa',
      payload: { challenge, code: '123456', recoveryCode: recoveryCodes[0] },
    });
    expectRefusal(both, 400, '请输入动态验证码或恢复码（二选一）');
    expectRefusal(
      await t.inject({ method: 'POST', url: '/api/admin/login/2fa', payload: { challenge } }),
      400,
      '请输入动态验证码或恢复码（二选一）',
    );
  });

  it('disable needs the current password and a code', async () => {
    const { token } = await t.createAdmin('tf-off', 2);
    const { secret } = await t.enableTwoFactor(token);
    const ip = freshIp();
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/disable', { currentPassword: 'wrong-one', code: nextCode(secret) }, ip),
      400,
      '当前密码不正确',
    );
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/disable', { currentPassword: passwordOf('tf-off'), code: '000000' }, ip),
      400,
      '动态验证码不正确',
    );
    const off = await call(
      token,
      'POST',
      '/api/admin/me/2fa/disable',
      { currentPassword: passwordOf('tf-off'), code: nextCode(secret) },
      ip,
    );
    expect(off.statusCode).toBe(200);
    expect((await whoami(token)).json().data.twoFactorEnabled).toBe(false);
    expect((await t.login('tf-off', passwordOf('tf-off'))).json().data.token).toEqual(expect.any(String));
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/disable', { currentPassword: passwordOf('tf-off'), code: nextCode(secret) }),
      400,
      '两步验证没有开启',
    );
  });

  it('counts the recovery codes left; regenerating (password or code) shows 10 new ones once and the old stop working', async () => {
    const { token } = await t.createAdmin('tf-regen', 2);
    const left = async () => (await call(token, 'GET', '/api/admin/me/2fa/recovery-codes')).json().data.remaining;
    expect(await left()).toBe(0);
    const { secret, recoveryCodes } = await t.enableTwoFactor(token);
    expect(await left()).toBe(10);
    const signInWith = async (recoveryCode: string) => {
      const { challenge } = (await t.login('tf-regen', passwordOf('tf-regen'))).json().data;
      return t.inject({ method: 'POST', url: '/api/admin/login/2fa', payload: { challenge, recoveryCode } });
    };
    expect((await signInWith(recoveryCodes[0])).statusCode).toBe(200);
    expect(await left()).toBe(9);

    const ip = freshIp();
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', {}, ip), 400, '请输入当前密码或动态验证码（二选一）');
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { currentPassword: passwordOf('tf-regen'), code: '123456' }, ip),
      400,
      '请输入当前密码或动态验证码（二选一）',
    );
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { currentPassword: 'wrong-one' }, ip),
      400,
      '当前密码不正确',
    );
    expectRefusal(await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { code: '000000' }, ip), 400, '动态验证码不正确');
    expect(await left()).toBe(9);

    const byPassword = await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { currentPassword: passwordOf('tf-regen') }, ip);
    expect(byPassword.statusCode).toBe(200);
    const fresh: string[] = byPassword.json().data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect(await left()).toBe(10);
    // The old codes stop working; the new ones work.
    expectRefusal(await signInWith(recoveryCodes[1]), 400, '恢复码不正确');
    expect((await signInWith(fresh[0])).statusCode).toBe(200);

    const byCode = await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { code: nextCode(secret) }, ip);
    expect(byCode.statusCode).toBe(200);
    expectRefusal(await signInWith(fresh[1]), 400, '恢复码不正确');
    expect(await left()).toBe(10);
  });

  it('regenerating recovery codes needs two-step sign-in to be on', async () => {
    const { token } = await t.createAdmin('tf-regen-off', 2);
    expectRefusal(
      await call(token, 'POST', '/api/admin/me/2fa/recovery-codes', { currentPassword: passwordOf('tf-regen-off') }),
      400,
      '两步验证没有开启',
    );
  });

  it('a super admin resets another admin’s two-step sign-in, which ends that admin’s sessions', async () => {
    const { id, token } = await t.createAdmin('tf-reset', 2);
    await t.enableTwoFactor(token);
    const response = await call(await t.rootToken(), 'DELETE', `/api/admin/${id}/2fa`);
    expect(response.statusCode).toBe(200);
    expect((await whoami(token)).statusCode).toBe(401);
    const again = await t.login('tf-reset', passwordOf('tf-reset'));
    expect(again.json().data.token).toEqual(expect.any(String));
    expect((await whoami(again.json().data.token)).json().data.twoFactorEnabled).toBe(false);
    expect(await t.database.db.select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id))).toEqual([]);
    expectRefusal(await call(await t.rootToken(), 'DELETE', '/api/admin/ffffffffffffffffffffffff/2fa'), 404, '管理员不存在');
  });
});

describe('require2fa', () => {
  it('a super admin without two-step sign-in cannot require it: the switch would hold them to the setup calls', async () => {
    const root = await t.rootToken();
    await t.prove(root, ROOT_PASSWORD);
    expectRefusal(
      await call(root, 'PATCH', '/api/settings/security', { require2fa: true }),
      400,
      '请先为自己开启两步验证（或用通行密钥登录），再要求所有管理员开启',
    );
    expect((await call(root, 'GET', '/api/settings/security')).json().data).toEqual({ require2fa: false });
    expect((await whoami(root)).json().data.mustSetUp2fa).toBe(false);
  });

  it('GET/PATCH /api/settings/security: off by default, on until turned off; whoami says mustSetUp2fa', async () => {
    const { id: superId, token: root } = await t.createAdmin('rq-super', 1);
    await t.enableTwoFactor(root);
    await t.prove(root, passwordOf('rq-super'));
    const { token } = await t.createAdmin('rq-plain', 2);
    expect((await call(root, 'GET', '/api/settings/security')).json().data).toEqual({ require2fa: false });
    try {
      expect((await call(root, 'PATCH', '/api/settings/security', { require2fa: true })).json().data).toEqual({ require2fa: true });
      // The super admin who turned it on keeps the switch.
      expect((await call(root, 'GET', '/api/settings/security')).json().data).toEqual({ require2fa: true });
      expect((await whoami(root)).json().data).toMatchObject({ _id: superId, mustSetUp2fa: false });
      expect((await whoami(token)).json().data).toMatchObject({ mustSetUp2fa: true, twoFactorEnabled: false });
      expectRefusal(
        await call(token, 'GET', '/api/book'),
        403,
        '管理员要求开启两步验证，请先在个人设置中开启',
        ERROR_CODES.twoFactorSetupRequired,
      );
      // Setting up is allowed, and once on the admin works again.
      const { secret } = (await call(token, 'POST', '/api/admin/me/2fa/setup')).json().data;
      expect((await call(token, 'POST', '/api/admin/me/2fa/enable', { code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
      expect((await whoami(token)).json().data).toMatchObject({ mustSetUp2fa: false, twoFactorEnabled: true });
      expect((await call(token, 'GET', '/api/book')).statusCode).toBe(200);
      // And off again, by the one who turned it on.
      expect((await call(root, 'PATCH', '/api/settings/security', { require2fa: false })).json().data).toEqual({ require2fa: false });
    } finally {
      // The other tests' admins have no two-step sign-in: never left on, whatever failed above.
      await t.database.db.delete(settings).where(eq(settings.key, 'require_2fa'));
    }
    expect((await whoami(await t.rootToken())).json().data.mustSetUp2fa).toBe(false);
  });
});

describe('sessions', () => {
  it('lists the live sessions with address, browser and which one is this one', async () => {
    const { token } = await t.createAdmin('sess-list', 2);
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      remoteAddress: '203.0.113.9',
      headers: { cookie: await t.captchaCookie(), 'user-agent': CHROME },
      payload: { loginId: 'sess-list', loginPwd: passwordOf('sess-list'), captcha: CAPTCHA },
    });
    const chrome = response.json().data.token;
    const list = (await call(token, 'GET', '/api/admin/me/sessions')).json().data;
    expect(list).toHaveLength(2);
    const mine = list.find((s: { current: boolean }) => s.current);
    const other = list.find((s: { current: boolean }) => !s.current);
    expect(mine).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      createdAt: expect.any(Number),
      lastSeenAt: expect.any(Number),
    });
    expect(other).toMatchObject({ ip: '203.0.113.9', browser: 'Chrome 120 · Windows 10' });
    expect((await call(chrome, 'GET', '/api/admin/me/sessions')).json().data.find((s: { current: boolean }) => s.current).id).toBe(
      other.id,
    );
  });

  it('ends one session, or all but this one; an unknown or another admin’s session is 404', async () => {
    const { token } = await t.createAdmin('sess-end', 2);
    const second = await t.tokenFor('sess-end', passwordOf('sess-end'));
    const third = await t.tokenFor('sess-end', passwordOf('sess-end'));
    const list = (await call(token, 'GET', '/api/admin/me/sessions')).json().data as Array<{ id: string; current: boolean }>;
    const secondId = (await call(second, 'GET', '/api/admin/me/sessions')).json().data.find((s: { current: boolean }) => s.current).id;
    expect(list.map((s) => s.id)).toContain(secondId);
    expect((await call(token, 'DELETE', `/api/admin/me/sessions/${secondId}`)).statusCode).toBe(200);
    expect((await whoami(second)).statusCode).toBe(401);
    expectRefusal(await call(token, 'DELETE', `/api/admin/me/sessions/${secondId}`), 404, '该登录设备不存在或已退出');
    // Another admin's session cannot be named.
    const rootSession = (await call(await t.rootToken(), 'GET', '/api/admin/me/sessions')).json().data[0].id;
    expectRefusal(await call(token, 'DELETE', `/api/admin/me/sessions/${rootSession}`), 404, '该登录设备不存在或已退出');
    expect((await call(token, 'DELETE', '/api/admin/me/sessions')).statusCode).toBe(200);
    expect((await whoami(third)).statusCode).toBe(401);
    expect((await whoami(token)).statusCode).toBe(200);
  });

  it('a super admin lists and ends another admin’s sessions', async () => {
    const { id, token } = await t.createAdmin('sess-super', 2);
    const root = await t.rootToken();
    const list = (await call(root, 'GET', `/api/admin/${id}/sessions`)).json().data;
    expect(list).toHaveLength(1);
    expect(list[0].current).toBe(false);
    expect((await call(root, 'DELETE', `/api/admin/${id}/sessions`)).statusCode).toBe(200);
    expect((await whoami(token)).statusCode).toBe(401);
    expect((await call(root, 'GET', `/api/admin/${id}/sessions`)).json().data).toEqual([]);
  });

  it('writes "last seen" at most once a minute, without a statement on the other requests', async () => {
    const { token } = await t.createAdmin('sess-seen', 2);
    const sessionId = (await call(token, 'GET', '/api/admin/me/sessions')).json().data[0].id;
    const seen = async () => (await t.database.db.select().from(adminSessions).where(eq(adminSessions.id, sessionId)))[0].lastSeenAt;
    const before = await seen();
    const plain = await t.countQueries(() => whoami(token));
    t.clock.advance(LAST_SEEN_EVERY_MS + 1);
    const touching = await t.countQueries(() => whoami(token));
    const after = await seen();
    expect(after).toBeGreaterThan(before!);
    expect(touching).toBe(plain + 1);
    // Within the minute that follows: no write again. (On PGlite the write made the memoised
    // session lookup read once more; from then on requests cost what they did before.)
    t.clock.advance(LAST_SEEN_EVERY_MS / 2);
    await whoami(token);
    expect(await t.countQueries(() => whoami(token))).toBe(plain);
    expect(await seen()).toBe(after);
  });
});

describe('GET /api/admin/me/logins', () => {
  it('lists successful and failed sign-ins, newest first, paged, for 90 days', async () => {
    const { id, token } = await t.createAdmin('hist', 2);
    await t.login('hist', 'wrong-password-1', { ip: '198.18.0.1' });
    await t.login('hist', passwordOf('hist'), { ip: '198.18.0.2' });
    const page = (await call(token, 'GET', '/api/admin/me/logins?current=1&pageSize=2')).json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 2, count: 3, totalPage: 2 });
    expect(page.data[0]).toMatchObject({
      ip: '198.18.0.2',
      succeeded: true,
      result: '登录成功',
      browser: expect.any(String),
      at: expect.any(Number),
    });
    expect(page.data[1]).toMatchObject({ ip: '198.18.0.1', succeeded: false, result: '账号或密码不正确' });
    // Another admin's history is not shown.
    expect(
      (await call(await t.rootToken(), 'GET', '/api/admin/me/logins'))
        .json()
        .data.data.every((r: { ip: string }) => !r.ip.startsWith('198.18.')),
    ).toBe(true);
    // Older than 90 days: purged at the next sign-in, and not listed meanwhile.
    await t.database.db
      .update(adminLogins)
      .set({ at: t.clock.now() - LOGIN_HISTORY_MS - 1000 })
      .where(eq(adminLogins.ip, '198.18.0.1'));
    expect((await call(token, 'GET', '/api/admin/me/logins')).json().data.count).toBe(2);
    await t.login('hist', passwordOf('hist'), { ip: '198.18.0.3' });
    expect(await t.database.db.select().from(adminLogins).where(eq(adminLogins.adminId, id))).toHaveLength(3);
    expect(await t.database.db.select().from(adminLogins).where(eq(adminLogins.ip, '198.18.0.1'))).toEqual([]);
  });
});
