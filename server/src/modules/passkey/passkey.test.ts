import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { TRUST_MESSAGES } from '#contract/version';
import { adminLogins, adminPasskeys, auditLog, passkeyChallenges, settings } from '../../db/schema';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { createAdminRepository } from '../admin/admin.repository';
import { createAudit } from '../audit/audit';
import { createAuthRepository } from '../auth/auth.repository';
import { createAuthService, THROTTLE_MAX_FAILURES } from '../auth/auth.service';
import { createPasskeyRepository } from './passkey.repository';
import { createPasskeyService, PASSKEY_CHALLENGE_LIFETIME_MS, type PasskeyService } from './passkey.service';

const RP_ID = 'admin.example.test';
const ORIGIN = 'https://admin.example.test';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
});
afterAll(() => t.close());

let ipSerial = 0;
/** A fresh address per test: the throttle's address key never carries over between tests. */
const freshIp = () => `10.26.${Math.floor(++ipSerial / 250)}.${(ipSerial % 250) + 1}`;

const call = (token: string | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, ip?: string) =>
  t.inject({ method, url, headers: token ? bearer(token) : {}, remoteAddress: ip, ...(payload && { payload }) });

/** Adds a passkey of a new software authenticator to the token's admin; answers both. */
async function addPasskey(token: string, name = '我的电脑', authenticator = new SoftAuthenticator(RP_ID, ORIGIN)) {
  const options = (await call(token, 'POST', '/api/admin/me/passkeys/options')).json().data;
  const added = await call(token, 'POST', '/api/admin/me/passkeys', { name, response: authenticator.register(options) });
  expect(added.statusCode).toBe(201);
  return { authenticator, passkey: added.json().data as { _id: string; name: string } };
}

async function signInOptions(ip?: string) {
  const response = await call(null, 'POST', '/api/admin/login/passkey/options', undefined, ip);
  expect(response.statusCode).toBe(200);
  return response.json().data as { challenge: string; rpId: string; allowCredentials?: unknown[]; userVerification: string };
}

const signIn = (response: object, ip: string, remember = false) =>
  call(null, 'POST', '/api/admin/login/passkey', { response, remember }, ip);

describe('adding a passkey (POST /api/admin/me/passkeys/options, POST /api/admin/me/passkeys)', () => {
  it('offers a discoverable, user-verifying credential for the configured relying party, and stores it', async () => {
    const { id, token } = await t.createAdmin('pk-add', 2);
    const options = (await call(token, 'POST', '/api/admin/me/passkeys/options')).json().data;
    expect(options).toMatchObject({
      rp: { id: RP_ID, name: 'coder station 后台管理系统' },
      user: { name: 'pk-add', id: Buffer.from(id, 'hex').toString('base64url') },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    const authenticator = new SoftAuthenticator(RP_ID, ORIGIN);
    const added = await call(token, 'POST', '/api/admin/me/passkeys', { name: ' 办公室电脑 ', response: authenticator.register(options) });
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: '办公室电脑',
      createdAt: expect.any(Number),
      lastUsedAt: null,
      transports: ['internal'],
    });
    const list = (await call(token, 'GET', '/api/admin/me/passkeys')).json().data;
    expect(list).toEqual([added.json().data]);
    const [stored] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id));
    expect(stored.credentialId).toBe(authenticator.id);
    // The next options tell the browser not to make a second passkey on the same authenticator.
    const again = (await call(token, 'POST', '/api/admin/me/passkeys/options')).json().data;
    expect(again.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }]);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.adminId, id));
    expect(entries.map((e) => [e.action, e.entity, e.entityId, e.title])).toContainEqual([
      '添加通行密钥',
      'admin',
      id,
      'pk-add：办公室电脑',
    ]);
  });

  it('uses a challenge once: the same answer again is 400 CHALLENGE_EXPIRED, and adds nothing', async () => {
    const { id, token } = await t.createAdmin('pk-replay-add', 2);
    const options = (await call(token, 'POST', '/api/admin/me/passkeys/options')).json().data;
    const response = new SoftAuthenticator(RP_ID, ORIGIN).register(options);
    expect((await call(token, 'POST', '/api/admin/me/passkeys', { name: 'a', response })).statusCode).toBe(201);
    const replay = await call(token, 'POST', '/api/admin/me/passkeys', { name: 'b', response });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ msg: '通行密钥验证已过期，请重试', errorCode: ERROR_CODES.challengeExpired });
    expect(await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id))).toHaveLength(1);
  });

  it("refuses another admin's challenge, an expired one, a wrong origin or relying party, and no user verification", async () => {
    const a = await t.createAdmin('pk-a-chal', 2);
    const b = await t.createAdmin('pk-b-chal', 2);
    const add = async (token: string, response: object) => call(token, 'POST', '/api/admin/me/passkeys', { name: 'x', response });
    const optionsOf = async (token: string) => (await call(token, 'POST', '/api/admin/me/passkeys/options')).json().data;

    const stolen = await add(b.token, new SoftAuthenticator(RP_ID, ORIGIN).register(await optionsOf(a.token)));
    expect(stolen.json().errorCode).toBe(ERROR_CODES.challengeExpired);

    const late = await optionsOf(a.token);
    t.clock.advance(PASSKEY_CHALLENGE_LIFETIME_MS + 1000);
    expect((await add(a.token, new SoftAuthenticator(RP_ID, ORIGIN).register(late))).json().errorCode).toBe(ERROR_CODES.challengeExpired);

    const phished = await add(
      a.token,
      new SoftAuthenticator(RP_ID, ORIGIN).register(await optionsOf(a.token), { origin: 'https://admin.example.evil' }),
    );
    expect(phished.statusCode).toBe(400);
    expect(phished.json().msg).toBe('通行密钥验证失败');
    const otherRp = await add(a.token, new SoftAuthenticator(RP_ID, ORIGIN).register(await optionsOf(a.token), { rpId: 'example.evil' }));
    expect(otherRp.json().msg).toBe('通行密钥验证失败');
    const presenceOnly = await add(a.token, new SoftAuthenticator(RP_ID, ORIGIN, false).register(await optionsOf(a.token)));
    expect(presenceOnly.json().msg).toBe('通行密钥验证失败');
    expect(await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, a.id))).toEqual([]);
  });

  it('refuses a credential that is already registered (409), to this admin or another', async () => {
    const a = await t.createAdmin('pk-dup-a', 2);
    const b = await t.createAdmin('pk-dup-b', 2);
    const { authenticator } = await addPasskey(a.token);
    const options = (await call(b.token, 'POST', '/api/admin/me/passkeys/options')).json().data;
    const again = await call(b.token, 'POST', '/api/admin/me/passkeys', { name: 'dup', response: authenticator.register(options) });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('该通行密钥已经添加过');
  });
});

describe('renaming and removing (PATCH, DELETE /api/admin/me/passkeys/:id)', () => {
  it('renames and removes own passkeys, with audit entries; another admin finds none of them (404)', async () => {
    const a = await t.createAdmin('pk-own-a', 2);
    const b = await t.createAdmin('pk-own-b', 2);
    const { passkey } = await addPasskey(a.token, '钥匙');
    expect((await call(b.token, 'GET', '/api/admin/me/passkeys')).json().data).toEqual([]);
    expect((await call(b.token, 'PATCH', `/api/admin/me/passkeys/${passkey._id}`, { name: '偷' })).statusCode).toBe(404);
    expect((await call(b.token, 'DELETE', `/api/admin/me/passkeys/${passkey._id}`)).statusCode).toBe(404);

    const renamed = await call(a.token, 'PATCH', `/api/admin/me/passkeys/${passkey._id}`, { name: '黄色钥匙' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ _id: passkey._id, name: '黄色钥匙' });
    expect((await call(a.token, 'PATCH', `/api/admin/me/passkeys/${passkey._id}`, { name: '' })).statusCode).toBe(400);
    expect((await call(a.token, 'PATCH', `/api/admin/me/passkeys/${passkey._id}`, { name: '   ' })).statusCode).toBe(400);
    expect((await call(a.token, 'PATCH', `/api/admin/me/passkeys/${passkey._id}`, { name: 'x'.repeat(33) })).statusCode).toBe(400);

    const removed = await call(a.token, 'DELETE', `/api/admin/me/passkeys/${passkey._id}`);
    expect(removed.statusCode).toBe(200);
    expect((await call(a.token, 'GET', '/api/admin/me/passkeys')).json().data).toEqual([]);
    expect((await call(a.token, 'DELETE', `/api/admin/me/passkeys/${passkey._id}`)).json().msg).toBe('该通行密钥不存在');
    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.adminId, a.id))).map((e) => `${e.action} ${e.title}`);
    expect(actions).toEqual(expect.arrayContaining(['重命名通行密钥 pk-own-a：黄色钥匙', '删除通行密钥 pk-own-a：黄色钥匙']));
  });

  it('needs a token for every call (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/me/passkeys'],
      ['POST', '/api/admin/me/passkeys/options'],
      ['POST', '/api/admin/me/passkeys/proof-options'],
    ] as const) {
      expect((await call(null, method, url)).statusCode).toBe(401);
    }
  });
});

describe('signing in with a passkey (POST /api/admin/login/passkey/options, POST /api/admin/login/passkey)', () => {
  it('needs no account name, captcha or code, and makes a normal session with its history and audit entry', async () => {
    const { id, token } = await t.createAdmin('pk-login', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    const options = await signInOptions(ip);
    expect(options).toMatchObject({ rpId: RP_ID, userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await signIn(authenticator.assert(options, { userHandle: Buffer.from(id, 'hex').toString('base64url') }), ip, true);
    expect(response.statusCode).toBe(200);
    const { token: session, data } = response.json().data;
    expect(data).toMatchObject({ _id: id, loginId: 'pk-login', permission: 2 });
    const payload = JSON.parse(Buffer.from(session.split('.')[1], 'base64url').toString());
    expect((payload.exp - payload.iat) * 1000).toBe(7 * 24 * 60 * 60 * 1000);
    const whoami = await call(session, 'GET', '/api/admin/whoami');
    expect(whoami.json().data).toMatchObject({ _id: id, loginId: 'pk-login' });
    const [used] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id));
    expect(used).toMatchObject({ counter: 1, lastUsedAt: expect.any(Number) });
    const history = await t.database.db.select().from(adminLogins).where(eq(adminLogins.adminId, id));
    expect(history.map((h) => [h.succeeded, h.result])).toContainEqual([true, '使用通行密钥登录']);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.adminId, id));
    expect(entries.map((e) => `${e.action} ${e.title}`)).toContain('登录 pk-login（通行密钥）');
  });

  it('uses a challenge once: the same assertion again is 400 CHALLENGE_EXPIRED', async () => {
    const { token } = await t.createAdmin('pk-replay', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    const assertion = authenticator.assert(await signInOptions(ip));
    expect((await signIn(assertion, ip)).statusCode).toBe(200);
    const replay = await signIn(assertion, ip);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().errorCode).toBe(ERROR_CODES.challengeExpired);
    // A challenge the server never made, and one run out, alike.
    expect((await signIn(authenticator.assert({ challenge: 'bm90LWEtY2hhbGxlbmdl' }), ip)).json().errorCode).toBe(
      ERROR_CODES.challengeExpired,
    );
    const late = await signInOptions(ip);
    t.clock.advance(PASSKEY_CHALLENGE_LIFETIME_MS + 1000);
    expect((await signIn(authenticator.assert(late), ip)).json().errorCode).toBe(ERROR_CODES.challengeExpired);
  });

  it('refuses a counter that did not go up (a cloned authenticator), and keeps the stored one', async () => {
    const { id, token } = await t.createAdmin('pk-counter', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    expect((await signIn(authenticator.assert(await signInOptions(ip), { counter: 5 }), ip)).statusCode).toBe(200);
    const cloned = await signIn(authenticator.assert(await signInOptions(ip), { counter: 5 }), ip);
    expect(cloned.statusCode).toBe(401);
    expect(cloned.json()).toMatchObject({ msg: '通行密钥验证失败', errorCode: ERROR_CODES.unauthorized });
    expect((await signIn(authenticator.assert(await signInOptions(ip), { counter: 3 }), ip)).statusCode).toBe(401);
    expect((await signIn(authenticator.assert(await signInOptions(ip), { counter: 6 }), ip)).statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id));
    expect(stored.counter).toBe(6);
  });

  it('accepts an authenticator that keeps no counter (always 0)', async () => {
    const { token } = await t.createAdmin('pk-zero', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    expect((await signIn(authenticator.assert(await signInOptions(ip), { counter: 0 }), ip)).statusCode).toBe(200);
    expect((await signIn(authenticator.assert(await signInOptions(ip), { counter: 0 }), ip)).statusCode).toBe(200);
  });

  it('refuses a wrong origin, a wrong relying party, an unknown credential and a missing user verification (401)', async () => {
    const { id, token } = await t.createAdmin('pk-wrong', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    const refused = async (assertion: object) => {
      const response = await signIn(assertion, ip);
      expect(response.json()).toMatchObject({ code: 401, msg: '通行密钥验证失败' });
    };
    await refused(authenticator.assert(await signInOptions(ip), { origin: 'https://admin.example.evil' }));
    await refused(authenticator.assert(await signInOptions(ip), { rpId: 'example.evil' }));
    await refused(new SoftAuthenticator(RP_ID, ORIGIN).assert(await signInOptions(ip)));
    const presenceOnly = new SoftAuthenticator(RP_ID, ORIGIN, false);
    Object.assign(presenceOnly, { credentialId: authenticator.credentialId });
    await refused(presenceOnly.assert(await signInOptions(ip)));
    const history = await t.database.db.select().from(adminLogins).where(eq(adminLogins.adminId, id));
    expect(history.filter((h) => h.result === '通行密钥验证失败').length).toBe(3);
  });

  it('counts failures in the sign-in throttle: after 5 the address is refused (429) even with a good passkey', async () => {
    const { token } = await t.createAdmin('pk-throttle', 2);
    const { authenticator } = await addPasskey(token);
    const ip = freshIp();
    const stranger = new SoftAuthenticator(RP_ID, ORIGIN);
    for (let i = 0; i < THROTTLE_MAX_FAILURES; i++)
      expect((await signIn(stranger.assert(await signInOptions(ip)), ip)).statusCode).toBe(401);
    const locked = await signIn(authenticator.assert(await signInOptions(ip)), ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().msg).toBe('登录尝试过于频繁，请稍后再试');
  });

  it('refuses a disabled admin (403 frozen); deleting an admin deletes its passkeys', async () => {
    const { id, token } = await t.createAdmin('pk-frozen', 2);
    const { authenticator } = await addPasskey(token);
    const root = await t.rootToken();
    expect((await call(root, 'PATCH', `/api/admin/${id}`, { enabled: false })).statusCode).toBe(200);
    const ip = freshIp();
    const frozen = await signIn(authenticator.assert(await signInOptions(ip)), ip);
    expect(frozen.statusCode).toBe(403);
    expect(frozen.json().msg).toBe('该账号已经被冻结，请联系管理员');
    expect((await call(root, 'DELETE', `/api/admin/${id}`)).statusCode).toBe(200);
    expect(await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id))).toEqual([]);
    expect((await signIn(authenticator.assert(await signInOptions(ip)), ip)).statusCode).toBe(401);
  });
});

describe('verifyProof (re-authentication with a passkey)', () => {
  let service: PasskeyService;
  beforeAll(() => {
    const { db } = t.database;
    const audit = createAudit({ now: t.clock.now });
    const authRepo = createAuthRepository(db);
    const admins = createAdminRepository(db);
    const auth = createAuthService({
      db,
      audit,
      repo: authRepo,
      admins,
      jwtSecret: null,
      captchaTestAnswer: null,
      reauthWindowMs: 900_000,
      now: t.clock.now,
    });
    service = createPasskeyService({
      db,
      repo: createPasskeyRepository(db),
      authRepo,
      admins,
      auth,
      audit,
      now: t.clock.now,
    });
  });
  const rp = { rpId: RP_ID, rpName: 'x', origins: [ORIGIN] };

  it("proves the admin with its own passkey once per challenge; another admin's passkey or challenge proves nothing", async () => {
    const a = await t.createAdmin('pk-proof-a', 2);
    const b = await t.createAdmin('pk-proof-b', 2);
    const { authenticator: keyA } = await addPasskey(a.token);
    const { authenticator: keyB } = await addPasskey(b.token);
    const client = { ip: freshIp(), userAgent: 'test' };
    const adminA = { id: a.id, loginId: 'pk-proof-a' };
    const optionsOf = async (token: string) => {
      const response = await call(token, 'POST', '/api/admin/me/passkeys/proof-options');
      expect(response.statusCode).toBe(200);
      return response.json().data;
    };

    const options = await optionsOf(a.token);
    expect(options.allowCredentials).toEqual([{ id: keyA.id, type: 'public-key', transports: ['internal'] }]);
    const assertion = keyA.assert(options);
    expect(await service.verifyProof(adminA, assertion, client, rp)).toBe(true);
    await expect(service.verifyProof(adminA, assertion, client, rp)).rejects.toMatchObject({ errorCode: ERROR_CODES.challengeExpired });

    expect(await service.verifyProof(adminA, keyB.assert(await optionsOf(a.token)), client, rp)).toBe(false);
    await expect(service.verifyProof(adminA, keyA.assert(await optionsOf(b.token)), client, rp)).rejects.toMatchObject({
      errorCode: ERROR_CODES.challengeExpired,
    });
    // A sign-in challenge is no proof challenge.
    await expect(service.verifyProof(adminA, keyA.assert(await signInOptions()), client, rp)).rejects.toMatchObject({
      errorCode: ERROR_CODES.challengeExpired,
    });
  });
});

describe('POST /api/admin/me/reauth with a passkey', () => {
  it("the admin's own passkey is a fresh proof; another's, or two proofs at once, are refused", async () => {
    const a = await t.createAdmin('pk-reauth-a', 2);
    const b = await t.createAdmin('pk-reauth-b', 2);
    const { authenticator: keyA } = await addPasskey(a.token);
    const { authenticator: keyB } = await addPasskey(b.token);
    const proofOptions = async () => (await call(a.token, 'POST', '/api/admin/me/passkeys/proof-options')).json().data;

    const proved = await call(a.token, 'POST', '/api/admin/me/reauth', { passkey: keyA.assert(await proofOptions()) });
    expect(proved.statusCode).toBe(200);
    expect(proved.json().data.validUntil).toBeGreaterThan(t.clock.now());

    const wrongKey = await call(a.token, 'POST', '/api/admin/me/reauth', { passkey: keyB.assert(await proofOptions()) });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().msg).toBe(TRUST_MESSAGES.passkeyNotAccepted);

    const both = await call(a.token, 'POST', '/api/admin/me/reauth', { password: 'x', passkey: keyA.assert(await proofOptions()) });
    expect(both.statusCode).toBe(400);
    expect(both.json().msg).toBe(TRUST_MESSAGES.passwordOrCode);
  });
});

describe('the relying party without configuration', () => {
  let local: TestContext;
  beforeAll(async () => {
    local = await createTestContext();
  });
  afterAll(() => local.close());

  it('is the page on localhost (its Origin), and refused for any other host', async () => {
    const options = await local.inject({
      method: 'POST',
      url: '/api/admin/login/passkey/options',
      headers: { origin: 'http://localhost:8000' },
    });
    expect(options.json().data.rpId).toBe('localhost');
    const byHost = await local.inject({ method: 'POST', url: '/api/admin/login/passkey/options', headers: { host: 'localhost:7001' } });
    expect(byHost.json().data.rpId).toBe('localhost');
    const elsewhere = await local.inject({
      method: 'POST',
      url: '/api/admin/login/passkey/options',
      headers: { host: 'admin.example.com' },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().msg).toBe('服务器没有配置通行密钥（WEBAUTHN_RP_ID、WEBAUTHN_ORIGIN）');
    expect(await local.database.db.select().from(passkeyChallenges)).toHaveLength(2);
  });

  it('signs in end to end with a passkey made on http://localhost:8000', async () => {
    const token = await local.rootToken();
    const authenticator = new SoftAuthenticator('localhost', 'http://localhost:8000');
    const headers = { ...bearer(token), origin: 'http://localhost:8000' };
    const options = (await local.inject({ method: 'POST', url: '/api/admin/me/passkeys/options', headers })).json().data;
    const added = await local.inject({
      method: 'POST',
      url: '/api/admin/me/passkeys',
      headers,
      payload: { name: 'dev', response: authenticator.register(options) },
    });
    expect(added.statusCode).toBe(201);
    const origin = { origin: 'http://localhost:8000' };
    const login = (await local.inject({ method: 'POST', url: '/api/admin/login/passkey/options', headers: origin })).json().data;
    const signedIn = await local.inject({
      method: 'POST',
      url: '/api/admin/login/passkey',
      headers: origin,
      payload: { response: authenticator.assert(login) },
    });
    expect(signedIn.statusCode).toBe(200);
  });
});

describe('require_2fa and passkeys (decision 0015)', () => {
  it('a passkey sign-in is both factors: its session is not held to set up TOTP; a password session of the same admin is', async () => {
    const { id, token: passwordSession } = await t.createAdmin('pk-require', 2);
    const { authenticator } = await addPasskey(passwordSession);
    await t.database.db.insert(settings).values({ key: 'require_2fa', value: 'true' });
    try {
      const ip = freshIp();
      const options = await signInOptions(ip);
      const signedIn = await signIn(authenticator.assert(options, { userHandle: Buffer.from(id, 'hex').toString('base64url') }), ip);
      expect(signedIn.statusCode).toBe(200);
      const passkeySession = signedIn.json().data.token as string;
      expect((await call(passkeySession, 'GET', '/api/admin/whoami')).json().data).toMatchObject({
        mustSetUp2fa: false,
        twoFactorEnabled: false,
      });
      expect((await call(passkeySession, 'GET', '/api/book')).statusCode).toBe(200);

      // The password alone is one factor: that session may only set up TOTP (or the admin signs in
      // with the passkey instead).
      expect((await call(passwordSession, 'GET', '/api/admin/whoami')).json().data).toMatchObject({ mustSetUp2fa: true });
      const refused = await call(passwordSession, 'GET', '/api/book');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe(ERROR_CODES.twoFactorSetupRequired);
    } finally {
      await t.database.db.delete(settings).where(eq(settings.key, 'require_2fa'));
    }
  });
});
