import { createHmac } from 'node:crypto';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, type TestContext, passwordOf } from '../../../test/harness';
import type { AuthRepository } from './auth.repository';
import { CAPTCHA_LIFETIME_MS, createAuthService, THROTTLE_MAX_FAILURES, THROTTLE_WINDOW_MS } from './auth.service';
import { createTokens } from './tokens';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

function decodePayload(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

function b64(value: object) {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function whoami(token: string) {
  return t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) });
}

describe('GET /res/captcha', () => {
  it('answers an SVG that is never cached, tied to the browser by an httpOnly SameSite=Strict cookie', async () => {
    const response = await t.inject({ method: 'GET', url: '/res/captcha' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const cookie = response.cookies.find((c) => c.name === 'captcha_id')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(cookie.value).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('POST /api/admin/login', () => {
  it('answers the token beside the admin, without any password or hash', async () => {
    const response = await t.login(ROOT_LOGIN, ROOT_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, code: 0, msg: '' });
    expect(body.data.token.split('.')).toHaveLength(3);
    expect(body.data.data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      loginId: ROOT_LOGIN,
      nickname: '超级管理员',
      avatar: expect.any(String),
      permission: 1,
      enabled: true,
      createdAt: expect.any(Number),
      twoFactorEnabled: false,
      version: 1,
    });
  });

  it('accepts the captcha in any case', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: await t.captchaCookie() },
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA.toUpperCase() },
    });
    expect(response.statusCode).toBe(200);
  });

  it('gives a token for 1 day, or 7 days with remember', async () => {
    const short = decodePayload((await t.login(ROOT_LOGIN, ROOT_PASSWORD)).json().data.token);
    const long = decodePayload((await t.login(ROOT_LOGIN, ROOT_PASSWORD, { remember: true })).json().data.token);
    expect((short.exp - short.iat) * 1000).toBe(DAY);
    expect((long.exp - long.iat) * 1000).toBe(7 * DAY);
  });

  it('refuses a wrong captcha with 400 验证码错误', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: await t.captchaCookie() },
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: 'zzzz' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, code: 400, msg: '验证码错误', errorCode: 'BAD_REQUEST', data: null });
  });

  it('refuses a login without a captcha cookie', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toBe('验证码错误');
  });

  it('uses a captcha up on the first attempt, right or wrong', async () => {
    const cookie = await t.captchaCookie();
    const first = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie },
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA },
    });
    expect(first.statusCode).toBe(200);
    const again = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie },
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('验证码错误');
  });

  it('refuses a captcha older than 5 minutes', async () => {
    const cookie = await t.captchaCookie();
    t.clock.advance(CAPTCHA_LIFETIME_MS + 1000);
    try {
      const response = await t.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: { cookie },
        payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA },
      });
      expect(response.statusCode).toBe(400);
    } finally {
      t.clock.advance(-(CAPTCHA_LIFETIME_MS + 1000));
    }
  });

  it('answers an unknown account and a wrong password alike: 401 账号或密码不正确', async () => {
    const unknown = await t.login('nobody-here', 'whatever-1', { ip: '10.0.0.11' });
    const wrong = await t.login(ROOT_LOGIN, 'not-the-password', { ip: '10.0.0.12' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ success: false, code: 401, msg: '账号或密码不正确', errorCode: 'UNAUTHORIZED', data: null });
  });

  it('refuses a disabled admin with 403 after the right password', async () => {
    const { id } = await t.createAdmin('frozen', 2);
    await t.inject({ method: 'PATCH', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload: { enabled: false } });
    const response = await t.login('frozen', passwordOf('frozen'));
    expect(response.statusCode).toBe(403);
    expect(response.json().msg).toBe('该账号已经被冻结，请联系管理员');
  });

  it('names the missing field in a 400', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: await t.captchaCookie() },
      payload: { loginPwd: 'x', captcha: CAPTCHA },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain('loginId');
  });
});

describe('login throttle', () => {
  it(`locks one loginId after ${THROTTLE_MAX_FAILURES} failures, from any address, even with the right password`, async () => {
    await t.createAdmin('target', 2);
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) {
      expect((await t.login('target', 'wrong-guess', { ip: `10.1.0.${i + 1}` })).statusCode).toBe(401);
    }
    const locked = await t.login('target', passwordOf('target'), { ip: '10.1.1.1' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      success: false,
      code: 429,
      msg: '登录尝试过于频繁，请稍后再试',
      errorCode: 'RATE_LIMITED',
      data: null,
    });
  });

  it('locks one client address that tries many accounts', async () => {
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) {
      expect((await t.login(`guess-${i}`, 'wrong-guess', { ip: '10.2.0.1' })).statusCode).toBe(401);
    }
    expect((await t.login(ROOT_LOGIN, ROOT_PASSWORD, { ip: '10.2.0.1' })).statusCode).toBe(429);
    // Another address is not affected.
    expect((await t.login(ROOT_LOGIN, ROOT_PASSWORD, { ip: '10.2.0.2' })).statusCode).toBe(200);
  });

  it('holds under concurrent guesses: no more than the limit learn the outcome of their password check', async () => {
    await t.createAdmin('burst', 2);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => t.login('burst', 'wrong-guess', { ip: `10.3.0.${i + 1}` })));
    const checked = answers.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(THROTTLE_MAX_FAILURES);
    expect(answers.filter((r) => r.statusCode === 429).length).toBe(12 - checked);
  });

  it('opens again once the window has passed', async () => {
    await t.createAdmin('patient', 2);
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++) await t.login('patient', 'wrong-guess', { ip: '10.4.0.1' });
    expect((await t.login('patient', passwordOf('patient'), { ip: '10.4.0.2' })).statusCode).toBe(429);
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
    try {
      expect((await t.login('patient', passwordOf('patient'), { ip: '10.4.0.2' })).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(THROTTLE_WINDOW_MS + 1000));
    }
  });
});

describe('GET /api/admin/whoami', () => {
  it('answers the signed-in admin', async () => {
    const response = await whoami(await t.rootToken());
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      loginId: ROOT_LOGIN,
      nickname: '超级管理员',
      avatar: expect.any(String),
      permission: 1,
      twoFactorEnabled: false,
      mustSetUp2fa: false,
      mustChangePassword: false,
      timeZone: 'Asia/Shanghai',
    });
  });

  it.each([
    ['no header', undefined],
    ['a malformed header', 'Token abc'],
    ['garbage', 'Bearer not-a-jwt'],
  ])('answers 401 登录过期，请重新登录 with %s', async (_label, authorization) => {
    const response = await t.inject({
      method: 'GET',
      url: '/api/admin/whoami',
      headers: authorization ? { authorization } : {},
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', errorCode: 'SESSION_EXPIRED', data: null });
  });
});

describe('token revocation', () => {
  it('logout kills the token at once', async () => {
    const token = await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD);
    expect((await whoami(token)).statusCode).toBe(200);
    const out = await t.inject({ method: 'POST', url: '/api/admin/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expect((await whoami(token)).statusCode).toBe(401);
    // Other sessions of the same admin live on.
    expect((await whoami(await t.rootToken())).statusCode).toBe(200);
  });

  it.each([
    ['deleted', async (id: string) => t.inject({ method: 'DELETE', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()) })],
    [
      'disabled',
      async (id: string) =>
        t.inject({ method: 'PATCH', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload: { enabled: false } }),
    ],
    [
      'demoted',
      async (id: string) =>
        t.inject({ method: 'PATCH', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload: { permission: 2 } }),
    ],
    [
      'promoted',
      async (id: string) =>
        t.inject({ method: 'PATCH', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload: { permission: 1 } }),
    ],
    [
      'given a new password',
      async (id: string) =>
        t.inject({
          method: 'PATCH',
          url: `/api/admin/${id}`,
          headers: bearer(await t.rootToken()),
          payload: { loginPwd: 'Orchard-Lantern-7' },
        }),
    ],
  ])('a token dies when its admin is %s', async (label, change) => {
    const loginId = `rev-${label.replace(/\W/g, '')}`;
    const permission = label === 'promoted' ? 2 : label === 'demoted' ? 1 : 2;
    const { id, token } = await t.createAdmin(loginId, permission);
    expect((await whoami(token)).statusCode).toBe(200);
    expect((await change(id)).statusCode).toBe(200);
    const refused = await whoami(token);
    expect(refused.statusCode).toBe(401);
    // Ended on the server while the token was good: said in errorCode, the msg as old clients know it.
    expect(refused.json()).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', errorCode: 'SESSION_ENDED', data: null });
  });

  it('a session another admin ended says SESSION_ENDED', async () => {
    const { id, token } = await t.createAdmin('rev-ended', 2);
    expect((await whoami(token)).statusCode).toBe(200);
    const ended = await t.inject({ method: 'DELETE', url: `/api/admin/${id}/sessions`, headers: bearer(await t.rootToken()) });
    expect(ended.statusCode).toBe(200);
    expect((await whoami(token)).json().errorCode).toBe('SESSION_ENDED');
  });

  it('a nickname change leaves the token alive', async () => {
    const { id, token } = await t.createAdmin('rev-nick', 2);
    await t.inject({ method: 'PATCH', url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload: { nickname: '新名字' } });
    expect((await whoami(token)).statusCode).toBe(200);
  });

  it('an expired token is refused', async () => {
    const token = await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD);
    t.clock.advance(DAY + 1000);
    try {
      // The session row has expired even though the JWT library checks the real clock.
      const refused = await whoami(token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errorCode).toBe('SESSION_EXPIRED');
    } finally {
      t.clock.advance(-(DAY + 1000));
    }
  });

  it('refuses tokens with alg none, another algorithm, a wrong secret or a changed payload', async () => {
    const token = await t.rootToken();
    const [header, payload, signature] = token.split('.');
    const claims = decodePayload(token);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const otherAlg = `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`;
    const body = `${header}.${payload}`;
    const wrongSecret = `${body}.${createHmac('sha256', 'not-the-secret').update(body).digest('base64url')}`;
    const changed = `${header}.${b64({ ...claims, sub: '000000000000000000000000' })}.${signature}`;
    for (const forged of [unsigned, otherAlg, wrongSecret, changed]) {
      expect((await whoami(forged)).statusCode).toBe(401);
    }
    expect((await whoami(token)).statusCode).toBe(200);
  });
});

describe('the signing keys', () => {
  it('are asked for again after the database failed to answer them, instead of refusing every call until a restart', async () => {
    const tokens = createTokens('kept-secret');
    const session = { id: 'admin-1', loginId: 'admin', nickname: '管理员', avatar: '', permission: 1, enabled: true };
    const row = {
      ...session,
      expiresAt: Date.now() + DAY,
      lastSeenAt: Date.now(),
      twoFactorOn: false,
      require2fa: null,
      reauthAt: null,
      signedInWithPasskey: false,
      mustChangePassword: false,
    };
    const sharedSetting = jest.fn().mockRejectedValueOnce(new Error('the database is restarting')).mockResolvedValue('kept-secret');
    // The session as memoUntilWrite answers one it remembers: at once, not as a promise.
    const repo = { sharedSetting, findSessionAdmin: () => row } as unknown as AuthRepository;
    const auth = createAuthService({
      db: null as never,
      audit: null as never,
      repo,
      admins: null as never,
      jwtSecret: null,
      captchaTestAnswer: null,
      reauthWindowMs: 900_000,
    });
    const header = `Bearer ${tokens.sign({ sub: 'admin-1', sid: 'session-1' }, DAY)}`;

    await expect(Promise.resolve().then(() => auth.authenticate(header))).rejects.toThrow('the database is restarting');
    await expect(Promise.resolve().then(() => auth.authenticate(header))).resolves.toMatchObject({ id: 'admin-1', sessionId: 'session-1' });
    // Loaded once, then read without asking again: with the session remembered, the check answers at once.
    expect(auth.authenticate(header)).toMatchObject({ id: 'admin-1', permission: 1 });
    expect(sharedSetting).toHaveBeenCalledTimes(2);
  });
});
