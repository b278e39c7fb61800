import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { settings } from '../../src/db/schema';
import { THROTTLE_WINDOW_MS } from '../../src/modules/auth/auth.service';
import { totpCode } from '../../src/modules/auth/totp';
import { bearer, createTestContext, passwordOf, type TestContext } from '../harness';
import { expectRefusal, fillPath } from './support';
import { buildWorld, routeKey, validBody, worldParams, type World } from './world';

/**
 * Attacks on two-step sign-in: replaying a code, reusing a recovery code, using the challenge as a
 * token, guessing codes, and going around require2fa.
 */

let t: TestContext;
let world: World;
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t, 'tf');
}, 120_000);
afterAll(() => t.close());

const WRONG_CODE = '动态验证码不正确';
const EXPIRED_CHALLENGE = '验证已过期，请重新登录';
const LOCKED = '登录尝试过于频繁，请稍后再试';
const MUST_SET_UP = '管理员要求开启两步验证，请先在个人设置中开启';

let ipSerial = 0;
const freshIp = () => `192.0.2.${++ipSerial}`;

async function twoFactorAdmin(loginId: string) {
  const { id, token } = await t.createAdmin(loginId, 2);
  const { secret, recoveryCodes } = await t.enableTwoFactor(token);
  // The step of the enabling code is used up: the next sign-in needs the next one.
  t.clock.advance(30_000);
  return { id, token, secret, recoveryCodes };
}

async function challengeFor(loginId: string, ip?: string): Promise<string> {
  const response = await t.login(loginId, passwordOf(loginId), { ip });
  expect(response.json().data).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  return response.json().data.challenge;
}

// Each from its own address unless told: the wrong codes of one test never lock the next one out.
const secondStep = (payload: object, ip: string = freshIp()) =>
  t.inject({ method: 'POST', url: '/api/admin/login/2fa', remoteAddress: ip, payload });

function wrongCode(secret: string): string {
  // Not the code of this step nor of the steps either side (the accepted window).
  const near = [-30_000, 0, 30_000].map((d) => totpCode(secret, t.clock.now() + d));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.includes(code)) return code;
  }
}

describe('TOTP replay', () => {
  it('a code that signed in once is refused the second time, within its window', async () => {
    const { secret } = await twoFactorAdmin('replay');
    const code = totpCode(secret, t.clock.now());
    expect((await secondStep({ challenge: await challengeFor('replay'), code })).statusCode).toBe(200);
    expectRefusal(await secondStep({ challenge: await challengeFor('replay'), code }), 400, WRONG_CODE);
    // The code of the step before is in the window too, but older than the one used: refused.
    expectRefusal(
      await secondStep({ challenge: await challengeFor('replay'), code: totpCode(secret, t.clock.now() - 30_000) }),
      400,
      WRONG_CODE,
    );
    // The next step's code works.
    t.clock.advance(30_000);
    expect((await secondStep({ challenge: await challengeFor('replay'), code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
  });

  it('two requests racing with one code: one signs in', async () => {
    const { secret } = await twoFactorAdmin('replay-race');
    const code = totpCode(secret, t.clock.now());
    const [a, b] = await Promise.all([challengeFor('replay-race'), challengeFor('replay-race')]);
    const answers = await Promise.all([secondStep({ challenge: a, code }), secondStep({ challenge: b, code })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });
});

describe('recovery codes', () => {
  it('each works once: a second use fails', async () => {
    const { recoveryCodes } = await twoFactorAdmin('reuse');
    expect((await secondStep({ challenge: await challengeFor('reuse'), recoveryCode: recoveryCodes[0] })).statusCode).toBe(200);
    expectRefusal(await secondStep({ challenge: await challengeFor('reuse'), recoveryCode: recoveryCodes[0] }), 400, '恢复码不正确');
    expect((await secondStep({ challenge: await challengeFor('reuse'), recoveryCode: recoveryCodes[1] })).statusCode).toBe(200);
  });

  it('one admin’s recovery code does not work for another', async () => {
    const { recoveryCodes } = await twoFactorAdmin('codes-a');
    await twoFactorAdmin('codes-b');
    expectRefusal(await secondStep({ challenge: await challengeFor('codes-b'), recoveryCode: recoveryCodes[0] }), 400, '恢复码不正确');
  });
});

describe('the challenge', () => {
  it('is useless as a bearer token', async () => {
    await twoFactorAdmin('bearer');
    const challenge = await challengeFor('bearer');
    for (const url of ['/api/admin/whoami', '/api/book', '/api/admin/me/sessions']) {
      expectRefusal(await t.inject({ method: 'GET', url, headers: bearer(challenge) }), 401, '登录过期，请重新登录');
    }
  });

  it('is single use', async () => {
    const { secret } = await twoFactorAdmin('single');
    const challenge = await challengeFor('single');
    expect((await secondStep({ challenge, code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
    t.clock.advance(30_000);
    expectRefusal(
      await secondStep({ challenge, code: totpCode(secret, t.clock.now()) }),
      400,
      EXPIRED_CHALLENGE,
      ERROR_CODES.challengeExpired,
    );
  });

  it('lives 5 minutes', async () => {
    const { secret } = await twoFactorAdmin('expiring');
    const challenge = await challengeFor('expiring');
    t.clock.advance(5 * 60_000 + 1);
    expectRefusal(
      await secondStep({ challenge, code: totpCode(secret, t.clock.now()) }),
      400,
      EXPIRED_CHALLENGE,
      ERROR_CODES.challengeExpired,
    );
  });

  it('dies after 5 wrong codes, even before the right one', async () => {
    const { secret } = await twoFactorAdmin('dying');
    const challenge = await challengeFor('dying', freshIp());
    for (let i = 0; i < 5; i++) expectRefusal(await secondStep({ challenge, code: wrongCode(secret) }, freshIp()), 400, WRONG_CODE);
    expectRefusal(
      await secondStep({ challenge, code: totpCode(secret, t.clock.now()) }, freshIp()),
      400,
      EXPIRED_CHALLENGE,
      ERROR_CODES.challengeExpired,
    );
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
  });

  it('an unknown challenge is refused', async () => {
    expectRefusal(await secondStep({ challenge: 'not-a-challenge', code: '123456' }), 400, EXPIRED_CHALLENGE, ERROR_CODES.challengeExpired);
  });
});

describe('code brute force against the throttle', () => {
  it('wrong codes lock the account, and giving the password again does not reset the count', async () => {
    const { secret } = await twoFactorAdmin('guessed');
    const ip = freshIp();
    let challenge = await challengeFor('guessed', ip);
    for (let i = 0; i < 4; i++) expectRefusal(await secondStep({ challenge, code: wrongCode(secret) }, freshIp()), 400, WRONG_CODE);
    // The right password again, for a new challenge: the account's failures still stand.
    challenge = await challengeFor('guessed', ip);
    expectRefusal(await secondStep({ challenge, code: wrongCode(secret) }, freshIp()), 400, WRONG_CODE);
    // Five wrong codes: now even the right code is turned away, from any address.
    expectRefusal(await secondStep({ challenge, code: totpCode(secret, t.clock.now()) }, freshIp()), 429, LOCKED);
    expectRefusal(await t.login('guessed', passwordOf('guessed'), { ip: freshIp() }), 429, LOCKED);
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
    const later = await challengeFor('guessed', freshIp());
    expect((await secondStep({ challenge: later, code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
  });

  it('wrong codes from one address lock that address for other accounts too', async () => {
    const { secret } = await twoFactorAdmin('spray-a');
    await twoFactorAdmin('spray-b');
    const ip = freshIp();
    const challenge = await challengeFor('spray-a', freshIp());
    for (let i = 0; i < 5; i++)
      await secondStep({ challenge: i < 4 ? challenge : await challengeFor('spray-a', freshIp()), code: wrongCode(secret) }, ip);
    expectRefusal(await t.login('spray-b', passwordOf('spray-b'), { ip }), 429, LOCKED);
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
  });

  it('wrong codes are in the account’s sign-in history', async () => {
    const { token, secret } = await twoFactorAdmin('history-2fa');
    const challenge = await challengeFor('history-2fa', freshIp());
    await secondStep({ challenge, code: wrongCode(secret) }, '192.0.2.250');
    const records = (await t.inject({ method: 'GET', url: '/api/admin/me/logins', headers: bearer(token) })).json().data.data;
    expect(records[0]).toMatchObject({ ip: '192.0.2.250', succeeded: false, result: '动态验证码错误' });
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
  });
});

describe('require2fa is enforced on every route, by the server', () => {
  // What an admin without two-step sign-in may still call while it is required.
  const ALLOWED = new Set([
    'GET /api/admin/whoami',
    'POST /api/admin/logout',
    'POST /api/admin/me/2fa/setup',
    'POST /api/admin/me/2fa/enable',
  ]);

  it('an admin without two-step sign-in gets 403 on every other guarded route', async () => {
    const { token } = await t.createAdmin('without-2fa', 2);
    const root = world.rootToken;
    // On behind the API's back: root has no two-step sign-in, so the switch itself refuses it.
    await t.database.db.insert(settings).values({ key: 'require_2fa', value: 'true' });
    try {
      const guarded = t.app.routeCatalog.filter((route) => route.access !== 'public');
      expect(guarded.length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const route of guarded) {
        const key = routeKey(route);
        // Signing out ends the token: that call gets one of its own.
        const bearerToken = key === 'POST /api/admin/logout' ? await t.tokenFor('without-2fa', passwordOf('without-2fa')) : token;
        const body = validBody(key, world, `rq${wrong.length}`, 'normal');
        const response = await t.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, { ...worldParams(route.url, world), id: world.normal.id }),
          headers: bearer(bearerToken),
          ...(body && { payload: body }),
        });
        const refused = response.statusCode === 403 && response.json().errorCode === ERROR_CODES.twoFactorSetupRequired;
        if (refused === ALLOWED.has(key)) wrong.push(`${key} → ${response.statusCode} ${response.json().msg}`);
      }
      expect(wrong).toEqual([]);
      // The super admin without it is held the same way.
      expectRefusal(
        await t.inject({ method: 'GET', url: '/api/admin', headers: bearer(root) }),
        403,
        MUST_SET_UP,
        ERROR_CODES.twoFactorSetupRequired,
      );
      const me = await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) });
      expect(me.json().data.mustSetUp2fa).toBe(true);
    } finally {
      await t.database.db.delete(settings).where(eq(settings.key, 'require_2fa'));
    }
  });
});
