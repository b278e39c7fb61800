import type { FastifyInstance } from 'fastify';
import { call, captchaCookie } from '../live/client';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, createTestContext, type TestContext } from '../harness';
import { THROTTLE_MAX_FAILURES } from '../../src/modules/auth/auth.service';

/**
 * The login throttle under concurrent requests, over a real listening socket (the HTTP parser,
 * keep-alive and many connections at once, as an attacker would send them): only attempts that
 * passed the captcha count, attempts in flight are not failures before they failed, and
 * concurrent guesses learn no more than sequential ones.
 */

let t: TestContext;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  t = await createTestContext();
  app = t.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
}, 120_000);
afterAll(() => t.close());

async function login(loginId: string, loginPwd: string, cookie: string | null, captcha = CAPTCHA) {
  return call(base, 'POST', '/api/admin/login', {
    headers: cookie ? { cookie } : {},
    body: { loginId, loginPwd, captcha, remember: false },
  });
}

describe('login throttle under concurrency', () => {
  it('requests without a solved captcha, sent beside a real login, never lock the account (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const real = await captchaCookie(base);
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, () => login(ROOT_LOGIN, 'guess-without-captcha', null)),
        login(ROOT_LOGIN, ROOT_PASSWORD, real),
        ...Array.from({ length: 12 }, () => login(ROOT_LOGIN, ROOT_PASSWORD, null)),
      ]);
      const [realAnswer] = answers.splice(12, 1);
      expect(realAnswer.status).toBe(200);
      expect(realAnswer.body.data.token).toEqual(expect.any(String));
      expect(answers.map((a) => `${a.status} ${a.body.msg}`)).toEqual(answers.map(() => '400 验证码错误'));
    }
  }, 60_000);

  it('wrong captchas do not count against the account either', async () => {
    const { password } = await t.createAdmin('captcha_miss', 2);
    const cookies = await Promise.all(Array.from({ length: 3 * THROTTLE_MAX_FAILURES }, () => captchaCookie(base)));
    const wrong = await Promise.all(cookies.map((cookie) => login('captcha_miss', 'wrong-guess', cookie, 'zzzz')));
    expect(new Set(wrong.map((a) => a.status))).toEqual(new Set([400]));
    expect((await login('captcha_miss', password, await captchaCookie(base))).status).toBe(200);
  }, 60_000);

  it('100 concurrent right logins with valid captchas all succeed', async () => {
    const { password } = await t.createAdmin('crowd', 2);
    const cookies = await Promise.all(Array.from({ length: 100 }, () => captchaCookie(base)));
    const answers = await Promise.all(cookies.map((cookie) => login('crowd', password, cookie)));
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
  }, 120_000);

  it(`30 concurrent wrong guesses with valid captchas: at most ${THROTTLE_MAX_FAILURES} learn their outcome, then the account is locked`, async () => {
    const { password } = await t.createAdmin('besieged', 2);
    const cookies = await Promise.all(Array.from({ length: 30 }, () => captchaCookie(base)));
    const answers = await Promise.all(cookies.map((cookie, i) => login('besieged', `guess-${i}`, cookie)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBe(THROTTLE_MAX_FAILURES);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // Five wrong passwords lock the account, also for the right one.
    expect((await login('besieged', password, await captchaCookie(base))).status).toBe(429);
  }, 60_000);
});
