import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { captchas } from '../../src/db/schema';
import { CAPTCHA_LIFETIME_MS } from '../../src/modules/auth/auth.service';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, createTestContext, type TestContext } from '../harness';
import { expectRefusal } from './support';

const BAD_CAPTCHA = '验证码错误';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
}, 120_000);
afterAll(() => t.close());

function cookieId(cookie: string) {
  return cookie.replace(/^captcha_id=/, '');
}

async function login(cookie: string | undefined, captcha = CAPTCHA, ip = '192.0.2.10') {
  return t.inject({
    method: 'POST',
    url: '/api/admin/login',
    remoteAddress: ip,
    headers: cookie === undefined ? {} : { cookie },
    payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha },
  });
}

describe('captcha: single use', () => {
  it('a solved captcha cannot sign in twice', async () => {
    const cookie = await t.captchaCookie();
    expect((await login(cookie)).statusCode).toBe(200);
    expectRefusal(await login(cookie), 400, BAD_CAPTCHA);
  });

  it('a wrong answer uses the captcha up: the right answer after it is refused', async () => {
    const cookie = await t.captchaCookie();
    expectRefusal(await login(cookie, 'zzzz'), 400, BAD_CAPTCHA);
    expectRefusal(await login(cookie), 400, BAD_CAPTCHA);
  });

  it('of simultaneous sign-ins with one captcha, exactly one gets past it', async () => {
    const cookie = await t.captchaCookie();
    // Fewer than the throttle's limit: attempts in flight count towards it (see brute force).
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => login(cookie, CAPTCHA, `192.0.2.${20 + i}`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
  });

  it('asking for a new image kills the previous one', async () => {
    const first = await t.captchaCookie();
    await t.captchaCookie({ cookie: first });
    expectRefusal(await login(first), 400, BAD_CAPTCHA);
  });
});

describe('captcha: expiry', () => {
  it('works just before 5 minutes and is refused just after', async () => {
    const early = await t.captchaCookie();
    const late = await t.captchaCookie();
    t.clock.advance(CAPTCHA_LIFETIME_MS - 1000);
    try {
      expect((await login(early)).statusCode).toBe(200);
      t.clock.advance(2000);
      expectRefusal(await login(late), 400, BAD_CAPTCHA);
    } finally {
      t.clock.advance(-(CAPTCHA_LIFETIME_MS + 1000));
    }
  });

  it('a captcha whose stored expiry has passed is refused, whatever the cookie says', async () => {
    const cookie = await t.captchaCookie();
    await t.database.db
      .update(captchas)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(captchas.id, cookieId(cookie)));
    expectRefusal(await login(cookie), 400, BAD_CAPTCHA);
  });

  it('the cookie itself lives no longer than the captcha', async () => {
    const response = await t.inject({ method: 'GET', url: '/res/captcha' });
    const cookie = response.cookies.find((c) => c.name === 'captcha_id')!;
    expect(cookie.maxAge).toBeLessThanOrEqual(CAPTCHA_LIFETIME_MS / 1000);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('captcha: it belongs to the browser that was shown it', () => {
  // A second server process on the same database whose captchas all read "wxyz": two browsers,
  // two images with different answers, as in real life.
  let other: FastifyInstance;
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', CAPTCHA_TEST_ANSWER: 'wxyz', LOG_LEVEL: 'silent' });
    other = await buildApp({ config, database: t.database, now: t.clock.now });
  });
  afterAll(() => other.close());

  async function otherBrowserCookie() {
    const response = await other.inject({ method: 'GET', url: '/res/captcha' });
    return `captcha_id=${response.cookies.find((c) => c.name === 'captcha_id')!.value}`;
  }

  it("the answer to another browser's image does not pass this browser's captcha", async () => {
    const mine = await otherBrowserCookie();
    // Another browser was shown "abcd"; this browser's image says "wxyz".
    expectRefusal(await login(mine, CAPTCHA), 400, BAD_CAPTCHA);
  });

  it('a captcha solved in one browser is gone once that browser has used it', async () => {
    const theirs = await t.captchaCookie();
    expect((await login(theirs)).statusCode).toBe(200);
    const mine = await otherBrowserCookie();
    expectRefusal(await login(`${mine}; ${theirs}`, CAPTCHA), 400, BAD_CAPTCHA);
    expectRefusal(await login(theirs, CAPTCHA), 400, BAD_CAPTCHA);
  });

  it('the same browser on another server process is still the same captcha', async () => {
    const cookie = await otherBrowserCookie();
    expect((await login(cookie, 'WXYZ')).statusCode).toBe(200);
  });
});

describe('captcha: no cookie, no sign-in', () => {
  it.each([
    ['no cookie header', undefined],
    ['an empty cookie', 'captcha_id='],
    ['a cookie under another name', 'captcha=0123456789abcdef0123456789abcdef'],
    ['an id that was never issued', 'captcha_id=0123456789abcdef0123456789abcdef'],
    ['a malformed id', 'captcha_id=../../etc'],
    ['a NUL byte', 'captcha_id=%00'],
    ['SQL', "captcha_id=' or '1'='1"],
    ['a huge id', `captcha_id=${'a'.repeat(4000)}`],
  ])('%s: 400 验证码错误 even with the right password and answer', async (_label, cookie) => {
    expectRefusal(await login(cookie), 400, BAD_CAPTCHA);
  });

  it('a garbage cookie on the captcha image itself still gets a fresh captcha', async () => {
    for (const cookie of ['captcha_id=%00', "captcha_id=' or 1=1 --", `captcha_id=${'f'.repeat(500)}`]) {
      const response = await t.inject({ method: 'GET', url: '/res/captcha', headers: { cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    }
  });

  it('an empty or missing answer is refused', async () => {
    expectRefusal(await login(await t.captchaCookie(), ''), 400, BAD_CAPTCHA);
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: await t.captchaCookie() },
      payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD },
    });
    expectRefusal(response, 400);
  });
});
