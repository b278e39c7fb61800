import { createHmac, generateKeyPairSync } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, type TestContext, passwordOf } from '../harness';
import { UNKNOWN_ID, expectRefusal } from './support';

// A known secret, so that tests can forge tokens as someone who had stolen it would.
const SECRET = 'attack-suite-secret-attack-suite-secret-0123';
const EXPIRED = '登录过期，请重新登录';
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ JWT_SECRET: SECRET });
}, 120_000);
afterAll(() => t.close());

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const hmac = (algorithm: string, secret: string, data: string) => createHmac(algorithm, secret).update(data).digest('base64url');

/** What a token may do: read as any admin, and act as a super admin. */
async function reach(token: string) {
  const [whoami, types, admins] = await Promise.all([
    t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) }),
    t.inject({ method: 'GET', url: '/api/type', headers: bearer(token) }),
    t.inject({ method: 'GET', url: '/api/admin', headers: bearer(token) }),
  ]);
  return { whoami: whoami.statusCode, normal: types.statusCode, super: admins.statusCode, answers: [whoami, types, admins] };
}

async function expectDead(token: string) {
  const result = await reach(token);
  for (const answer of result.answers) expectRefusal(answer, 401, EXPIRED);
}

describe('tokens: forged or tampered', () => {
  let token: string;
  let header: string;
  let payload: string;
  let signature: string;
  beforeAll(async () => {
    token = await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD);
    [header, payload, signature] = token.split('.');
  });

  it('the genuine token works (the forgeries below are refused for what they change)', async () => {
    expect(await reach(token)).toMatchObject({ whoami: 200, normal: 200, super: 200 });
  });

  it.each([
    ['alg "none" with no signature', () => `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`],
    ['alg "none" keeping the signature', () => `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`],
    ['alg "None"', () => `${b64({ alg: 'None', typ: 'JWT' })}.${payload}.`],
    ['no alg at all', () => `${b64({ typ: 'JWT' })}.${payload}.${signature}`],
    [
      'HS384 signed with the real secret',
      () => {
        const head = b64({ alg: 'HS384', typ: 'JWT' });
        return `${head}.${payload}.${hmac('sha384', SECRET, `${head}.${payload}`)}`;
      },
    ],
    [
      'HS512 signed with the real secret',
      () => {
        const head = b64({ alg: 'HS512', typ: 'JWT' });
        return `${head}.${payload}.${hmac('sha512', SECRET, `${head}.${payload}`)}`;
      },
    ],
    [
      'RS256 signed with an attacker key',
      () => {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return createSigner({ key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm: 'RS256' })(claimsOf(token));
      },
    ],
    [
      'RS256 in the header over an HMAC signature',
      () => {
        const head = b64({ alg: 'RS256', typ: 'JWT' });
        return `${head}.${payload}.${hmac('sha256', SECRET, `${head}.${payload}`)}`;
      },
    ],
    [
      'HS256 with the wrong secret',
      () => `${header}.${payload}.${hmac('sha256', 'not-the-secret-at-all-not-the-secret', `${header}.${payload}`)}`,
    ],
    ['HS256 with an empty secret', () => `${header}.${payload}.${hmac('sha256', '', `${header}.${payload}`)}`],
    ['another admin id in the payload', () => `${header}.${b64({ ...claimsOf(token), sub: UNKNOWN_ID })}.${signature}`],
    [
      'a later expiry in the payload',
      () => `${header}.${b64({ ...claimsOf(token), exp: claimsOf(token).exp + 365 * 86400 })}.${signature}`,
    ],
    ['a stripped signature', () => `${header}.${payload}.`],
    ['another session id in the payload', () => `${header}.${b64({ ...claimsOf(token), sid: 'x' })}.${signature}`],
    [
      'a key id pointing elsewhere',
      () => {
        const head = b64({ alg: 'HS256', typ: 'JWT', kid: '../../../../dev/null' });
        return `${head}.${payload}.${hmac('sha256', '', `${head}.${payload}`)}`;
      },
    ],
  ])('%s: 401 everywhere', async (_label, forge) => {
    await expectDead(forge());
  });

  it('an expired JWT is refused even while its session row is alive', async () => {
    const { sub, sid } = claimsOf(token);
    const now = Math.floor(Date.now() / 1000);
    const expired = createSigner({ key: SECRET, algorithm: 'HS256' })({ sub, sid, iat: now - 2 * 86400, exp: now - 60 });
    await expectDead(expired);
    expect((await reach(token)).whoami).toBe(200);
  });

  it('a well-signed token whose session was never issued is refused', async () => {
    const { sub } = claimsOf(token);
    await expectDead(createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: DAY_MS })({ sub, sid: '0'.repeat(32) }));
  });

  it("a well-signed token pairing one admin's session with another admin's id is refused", async () => {
    const { id: normalId } = await t.createAdmin('pairing', 2);
    const { sid } = claimsOf(token);
    await expectDead(createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: DAY_MS })({ sub: normalId, sid }));
    const normal = await t.tokenFor('pairing', passwordOf('pairing'));
    // A normal admin's session with the root's id: no super rights smuggled in.
    await expectDead(
      createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: DAY_MS })({ sub: claimsOf(token).sub, sid: claimsOf(normal).sid }),
    );
  });

  it('a session that has run out (by the server clock) is refused', async () => {
    const fresh = await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD);
    t.clock.advance(DAY_MS + 1000);
    try {
      await expectDead(fresh);
    } finally {
      t.clock.advance(-(DAY_MS + 1000));
    }
  });

  // An admin-only call: /api/type and the other public reads answer a visitor (the public site).
  it.each([
    ['in the query string', (tok: string) => ({ url: `/api/stats?token=${tok}`, headers: {} })],
    ['in a cookie', (tok: string) => ({ url: '/api/stats', headers: { cookie: `adminToken=${tok}; token=${tok}` } })],
    ['as Basic credentials', (tok: string) => ({ url: '/api/stats', headers: { authorization: `Basic ${tok}` } })],
    ['as a bare token', (tok: string) => ({ url: '/api/stats', headers: { authorization: tok } })],
    ['twice in one header', (tok: string) => ({ url: '/api/stats', headers: { authorization: `Bearer ${tok} ${tok}` } })],
    ['in X-Access-Token', (tok: string) => ({ url: '/api/stats', headers: { 'x-access-token': tok } })],
  ])('the token %s is not a credential', async (_label, place) => {
    expectRefusal(await t.inject({ method: 'GET', ...place(token) }), 401, EXPIRED);
  });
});

describe('tokens: dead as soon as the admin behind them changes', () => {
  async function asRoot(method: 'PATCH' | 'DELETE', id: string, payload?: object) {
    const response = await t.inject({ method, url: `/api/admin/${id}`, headers: bearer(await t.rootToken()), payload });
    expect(response.statusCode).toBe(200);
  }

  it('after logout, on every route; other sessions live on', async () => {
    const { token } = await t.createAdmin('leaver', 2);
    const second = await t.tokenFor('leaver', passwordOf('leaver'));
    expect((await t.inject({ method: 'POST', url: '/api/admin/logout', headers: bearer(token) })).statusCode).toBe(200);
    await expectDead(token);
    expectRefusal(await t.inject({ method: 'POST', url: '/api/admin/logout', headers: bearer(token) }), 401, EXPIRED);
    expect((await reach(second)).whoami).toBe(200);
  });

  it('after delete, even once the loginId is taken again', async () => {
    const { id, token } = await t.createAdmin('deleted', 1);
    await asRoot('DELETE', id);
    await expectDead(token);
    await t.createAdmin('deleted', 1);
    await expectDead(token);
  });

  it('after disable, and still after it is enabled again', async () => {
    const { id, token } = await t.createAdmin('frozen', 2);
    await asRoot('PATCH', id, { enabled: false });
    await expectDead(token);
    await asRoot('PATCH', id, { enabled: true });
    await expectDead(token);
  });

  it('after demotion: the old token is dead and a new one has normal rights only', async () => {
    const { id, token } = await t.createAdmin('demoted', 1);
    expect((await reach(token)).super).toBe(200);
    await asRoot('PATCH', id, { permission: 2 });
    await expectDead(token);
    const again = await t.tokenFor('demoted', passwordOf('demoted'));
    expect(await reach(again)).toMatchObject({ whoami: 200, normal: 200, super: 403 });
  });

  it('after a password change by a super admin: every session of that admin', async () => {
    const { id, token } = await t.createAdmin('rekeyed', 2);
    const second = await t.tokenFor('rekeyed', passwordOf('rekeyed'));
    await asRoot('PATCH', id, { loginPwd: 'Orchard-Lantern-8' });
    await expectDead(token);
    await expectDead(second);
  });

  it('after a password change by the admin themself: the other sessions, not the one that changed it', async () => {
    const { token } = await t.createAdmin('selfkey', 2);
    const stolen = await t.tokenFor('selfkey', passwordOf('selfkey'));
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/me/password',
      headers: bearer(token),
      payload: { currentPassword: passwordOf('selfkey'), newPassword: 'Orchard-Lantern-9' },
    });
    expect(response.statusCode).toBe(200);
    await expectDead(stolen);
    expect((await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) })).statusCode).toBe(200);
  });
});
