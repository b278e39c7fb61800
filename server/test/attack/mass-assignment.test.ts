import { foldWord } from '../../src/modules/moderation/fold';
import { eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  adminPasskeys,
  adminRecoveryCodes,
  adminSessions,
  admins,
  books,
  comments,
  interviews,
  issues,
  moderationSettings,
  moderationWords,
  reviewDecisions,
  reviewReasons,
  settings,
  types,
  userNotes,
  userSanctions,
  users,
  webhooks,
} from '../../src/db/schema';
import { totpCode } from '../../src/modules/auth/totp';
import { CAPTCHA, bearer, createTestContext, type TestContext, passwordOf } from '../harness';
import { SoftAuthenticator } from '../soft-authenticator';
import { contentFixtures } from '../content';
import { UNKNOWN_ID, fillPath, multipart, png } from './support';
import { buildWorld, routeKey, validBody, type World } from './world';

let t: TestContext;
let world: World;
let started: number;
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t);
  started = Date.now();
}, 120_000);
afterAll(() => t.close());

const FORGED_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const LONG_AGO = 86_400_000;
// Everything a client might try to set that only the server may: ids, dates, counters, hashes, rights.
const READ_ONLY = {
  _id: FORGED_ID,
  id: FORGED_ID,
  createdAt: LONG_AGO,
  registerDate: LONG_AGO,
  lastLoginDate: LONG_AGO,
  onShelfDate: LONG_AGO,
  issueDate: LONG_AGO,
  commentDate: LONG_AGO,
  scanNumber: 9999,
  commentNumber: 9999,
  passwordHash: 'plain-text',
  password_hash: 'plain-text',
  // An md5 hash marked legacy would let anyone who knows an md5 sign in: never settable from outside.
  passwordLegacy: true,
  password_legacy: true,
  loginPwdHash: 'plain-text',
  isAdmin: true,
  role: 'super',
};

type Row = Record<string, unknown>;
type Table = PgTable & { id: AnyPgColumn };
async function row(table: Table, id: string): Promise<Row> {
  const [found] = await t.database.db.select().from(table).where(eq(table.id, id));
  if (!found) return found as Row;
  // A record's version is the server's own (the bump_version trigger moves it on every change): no body sets it.
  const { version: _version, ...stored } = found as Row;
  return stored;
}

const fixtures = () => contentFixtures(t.database.db);
let serial = 0;
const unique = () => `ma${++serial}`;

async function call(method: 'POST' | 'PATCH', url: string, payload: object, token = world.rootToken) {
  return t.inject({ method, url, headers: bearer(token), payload });
}

function isNow(value: unknown) {
  expect(value).toBeGreaterThanOrEqual(started);
  expect(value).toBeLessThanOrEqual(Date.now());
}

/** Sends a PATCH with read-only fields beside `change`; the stored row differs by `change` alone. */
async function patchOnly(table: Table, url: string, id: string, change: Row, extra: Row = {}) {
  const before = await row(table, id);
  const response = await call('PATCH', url, { ...READ_ONLY, ...extra, ...change });
  expect(response.statusCode).toBe(200);
  const after = await row(table, id);
  const { passwordHash: _h, ...shown } = after;
  expect(after).toEqual({ ...before, ...change });
  expect(JSON.stringify(shown)).not.toContain(FORGED_ID);
  expect(await row(table, FORGED_ID)).toBeUndefined();
}

// No relying party configured: an injected request's Host (localhost:80) is the page's origin.
const softKey = () => new SoftAuthenticator('localhost', 'http://localhost');
// What a client might name besides a passkey's own fields: another admin, a counter, a key.
const PASSKEY_FORGED = { adminId: FORGED_ID, counter: 99, credentialId: 'forged', publicKey: 'forged', lastUsedAt: LONG_AGO };

/** A passkey added by `token`'s admin through the API; answers its id and the authenticator. */
async function passkeyOf(token: string) {
  const authenticator = softKey();
  const options = (await call('POST', '/api/admin/me/passkeys/options', {}, token)).json().data;
  const added = await call('POST', '/api/admin/me/passkeys', { name: 'k', response: authenticator.register(options) }, token);
  expect(added.statusCode).toBe(201);
  return { id: added.json().data._id as string, authenticator };
}

/** What each POST and PATCH is sent, and what must be true of what it stored. */
const CASES: Record<string, () => Promise<void>> = {
  'POST /api/admin/login': async () => {
    const before = await row(admins, world.normal.id);
    const cookie = await t.captchaCookie();
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie },
      payload: {
        ...READ_ONLY,
        loginId: world.normal.loginId,
        loginPwd: passwordOf(world.normal.loginId),
        captcha: CAPTCHA,
        permission: 1,
        enabled: false,
        nickname: 'hacked',
      },
    });
    expect(response.statusCode).toBe(200);
    const token = response.json().data.token as string;
    expect(response.json().data.data).toMatchObject({ _id: world.normal.id, permission: 2, enabled: true });
    expect((await t.inject({ method: 'GET', url: '/api/admin', headers: bearer(token) })).statusCode).toBe(403);
    expect(await row(admins, world.normal.id)).toEqual(before);
  },

  'POST /api/admin/logout': async () => {
    const victim = await t.tokenFor(world.normal.loginId, passwordOf(world.normal.loginId));
    const victimSession = JSON.parse(Buffer.from(victim.split('.')[1], 'base64url').toString()).sid;
    const mine = await t.tokenFor(world.normal.loginId, passwordOf(world.normal.loginId));
    const response = await call('POST', '/api/admin/logout', { sid: victimSession, sessionId: victimSession, adminId: world.rootId }, mine);
    expect(response.statusCode).toBe(200);
    expect(await row(adminSessions, victimSession)).toBeDefined();
    expect((await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(world.rootToken) })).statusCode).toBe(200);
  },

  'POST /api/admin': async () => {
    const response = await call('POST', '/api/admin', { ...READ_ONLY, ...validBody('POST /api/admin', world, unique()), enabled: false });
    expect(response.statusCode).toBe(201);
    const stored = await row(admins, response.json().data._id);
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.createdAt);
    expect(stored.enabled).toBe(true);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  },

  'PATCH /api/admin/:id': async () => {
    const target = await t.createAdmin(unique(), 2);
    await patchOnly(admins, `/api/admin/${target.id}`, target.id, { nickname: 'renamed' }, { loginId: 'renamed-login' });
    // The admin themself may not raise their own rights through the fields they may change.
    const before = await row(admins, target.id);
    const self = await call('PATCH', `/api/admin/${target.id}`, { nickname: 'self', permission: 1 }, target.token);
    expect(self.statusCode).toBe(403);
    expect(await row(admins, target.id)).toEqual(before);
  },

  'PATCH /api/admin/me': async () => {
    // Only the nickname: rights, state, the name, the password and the two-step columns stay.
    await patchOnly(
      admins,
      '/api/admin/me',
      world.rootId,
      { nickname: unique() },
      {
        permission: 2,
        enabled: false,
        loginId: 'renamed-root',
        loginKey: 'x',
        loginPwd: 'Orchard-Lantern-1',
        totpSecret: 'forged',
        totpLastStep: 1,
      },
    );
  },

  'POST /api/admin/me/password': async () => {
    const target = await t.createAdmin(unique(), 2);
    const rootBefore = await row(admins, world.rootId);
    const response = await call(
      'POST',
      '/api/admin/me/password',
      {
        ...READ_ONLY,
        id: world.rootId,
        adminId: world.rootId,
        loginId: 'root',
        currentPassword: target.password,
        newPassword: 'Orchard-Lantern-2',
      },
      target.token,
    );
    expect(response.statusCode).toBe(200);
    expect(await row(admins, world.rootId)).toEqual(rootBefore);
    expect((await t.login((await row(admins, target.id)).loginId as string, 'Orchard-Lantern-2')).statusCode).toBe(200);
  },

  'POST /api/admin/me/reauth': async () => {
    const target = await t.createAdmin(unique(), 2);
    const rootSessions = await t.database.db.select().from(adminSessions).where(eq(adminSessions.adminId, world.rootId));
    const response = await call(
      'POST',
      '/api/admin/me/reauth',
      { ...READ_ONLY, password: target.password, adminId: world.rootId, sessionId: rootSessions[0]?.id, reauthAt: 0 },
      target.token,
    );
    // Refused for its unknown fields, or proven for the caller's own session only.
    expect([200, 400]).toContain(response.statusCode);
    expect(await t.database.db.select().from(adminSessions).where(eq(adminSessions.adminId, world.rootId))).toEqual(rootSessions);
  },
  'POST /api/admin/me/2fa/setup': async () => {
    const target = await t.createAdmin(unique(), 2);
    const rootBefore = await row(admins, world.rootId);
    const response = await call(
      'POST',
      '/api/admin/me/2fa/setup',
      { ...READ_ONLY, id: world.rootId, secret: 'AAAAAAAAAAAAAAAA' },
      target.token,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data.secret).not.toBe('AAAAAAAAAAAAAAAA');
    expect(await row(admins, world.rootId)).toEqual(rootBefore);
    expect((await row(admins, target.id)).totpPendingSecret).toEqual(expect.any(String));
  },

  'POST /api/admin/me/2fa/enable': async () => {
    const target = await t.createAdmin(unique(), 2);
    const { secret } = (await call('POST', '/api/admin/me/2fa/setup', {}, target.token)).json().data;
    const response = await call(
      'POST',
      '/api/admin/me/2fa/enable',
      { ...READ_ONLY, code: totpCode(secret, t.clock.now()), recoveryCodes: ['AAAAA-AAAAA'], adminId: world.rootId, totpSecret: 'forged' },
      target.token,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data.recoveryCodes).not.toContain('AAAAA-AAAAA');
    expect((await row(admins, world.rootId)).totpSecret).toBeNull();
    expect((await row(admins, target.id)).totpSecret).not.toBe('forged');
    expect(await t.database.db.select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, world.rootId))).toEqual([]);
  },

  'POST /api/admin/me/2fa/disable': async () => {
    // Without two-step sign-in on, nothing is changed whatever else is sent.
    const target = await t.createAdmin(unique(), 2);
    const before = await row(admins, target.id);
    const response = await call(
      'POST',
      '/api/admin/me/2fa/disable',
      { ...READ_ONLY, currentPassword: target.password, code: '123456', adminId: world.rootId },
      target.token,
    );
    expect(response.statusCode).toBe(400);
    expect(await row(admins, target.id)).toEqual(before);
  },

  'POST /api/admin/me/2fa/recovery-codes': async () => {
    // Another admin's id sent along changes nobody's codes: the route acts on its caller only.
    const target = await t.createAdmin(unique(), 2);
    const codes = async () => (await t.database.db.select().from(adminRecoveryCodes)).map((r) => r.codeHash).sort();
    const before = { admin: await row(admins, target.id), codes: await codes() };
    const response = await call(
      'POST',
      '/api/admin/me/2fa/recovery-codes',
      { ...READ_ONLY, currentPassword: target.password, adminId: world.rootId, id: world.rootId },
      target.token,
    );
    expect(response.statusCode).toBe(400);
    expect({ admin: await row(admins, target.id), codes: await codes() }).toEqual(before);
  },

  'POST /api/admin/me/passkeys/options': async () => {
    // The user, relying party and exclusions are the server's: the caller's own account.
    const target = await t.createAdmin(unique(), 2);
    const response = await call(
      'POST',
      '/api/admin/me/passkeys/options',
      { ...READ_ONLY, user: { id: world.rootId, name: 'root' }, rp: { id: 'example.evil' }, challenge: 'chosen' },
      target.token,
    );
    const options = response.json().data;
    expect(options.user.id).toBe(Buffer.from(target.id, 'hex').toString('base64url'));
    expect(options.rp.id).toBe('localhost');
    expect(options.challenge).not.toBe('chosen');
  },

  'POST /api/admin/me/passkeys': async () => {
    // Stored for the caller with the authenticator's own key and counter, whatever else is sent.
    const target = await t.createAdmin(unique(), 2);
    const authenticator = softKey();
    const options = (await call('POST', '/api/admin/me/passkeys/options', {}, target.token)).json().data;
    const body = { ...READ_ONLY, ...PASSKEY_FORGED, name: unique(), response: authenticator.register(options) };
    expect((await call('POST', '/api/admin/me/passkeys', body, target.token)).statusCode).toBe(201);
    const [stored] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, authenticator.id));
    expect(stored).toMatchObject({ adminId: target.id, counter: 0, lastUsedAt: null });
    expect(stored.id).not.toBe(FORGED_ID);
    expect(stored.createdAt).toBeGreaterThan(LONG_AGO);
  },

  'PATCH /api/admin/me/passkeys/:id': async () => {
    const target = await t.createAdmin(unique(), 2);
    const { id } = await passkeyOf(target.token);
    const [before] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.id, id));
    const response = await call('PATCH', `/api/admin/me/passkeys/${id}`, { ...READ_ONLY, ...PASSKEY_FORGED, name: '改名' }, target.token);
    expect(response.statusCode).toBe(200);
    const [after] = await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.id, id));
    expect(after).toEqual({ ...before, name: '改名' });
  },

  'POST /api/admin/me/passkeys/proof-options': async () => {
    // Only the caller's own passkeys are offered, whatever list is sent.
    const target = await t.createAdmin(unique(), 2);
    const response = await call(
      'POST',
      '/api/admin/me/passkeys/proof-options',
      { ...READ_ONLY, allowCredentials: [{ id: 'AAAA' }] },
      target.token,
    );
    expect(response.json().data.allowCredentials).toEqual([]);
  },

  'POST /api/admin/login/passkey/options': async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login/passkey/options',
      payload: { ...READ_ONLY, rpId: 'example.evil', allowCredentials: [{ id: 'AAAA' }], userVerification: 'discouraged' },
    });
    expect(response.json().data).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(response.json().data.allowCredentials ?? []).toEqual([]);
  },

  'POST /api/admin/login/passkey': async () => {
    // The session is the passkey's admin's, not one the body names.
    const target = await t.createAdmin(unique(), 2);
    const { authenticator } = await passkeyOf(target.token);
    const options = (await t.inject({ method: 'POST', url: '/api/admin/login/passkey/options' })).json().data;
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login/passkey',
      payload: { ...READ_ONLY, adminId: world.rootId, sub: world.rootId, loginId: 'root', response: authenticator.assert(options) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.data._id).toBe(target.id);
  },

  'POST /api/admin/login/2fa': async () => {
    // A challenge nobody was given, with an admin and a session named: no session is made.
    const sessions = (await t.database.db.select().from(adminSessions)).length;
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login/2fa',
      payload: { ...READ_ONLY, challenge: 'forged', code: '123456', adminId: world.rootId, sub: world.rootId, remember: true },
    });
    expect(response.statusCode).toBe(400);
    expect((await t.database.db.select().from(adminSessions)).length).toBe(sessions);
  },

  'PATCH /api/settings/security': async () => {
    const [secretBefore] = await t.database.db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
    const response = await call('PATCH', '/api/settings/security', {
      ...READ_ONLY,
      require2fa: false,
      key: 'jwt_secret',
      value: 'forged',
      jwt_secret: 'forged',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ require2fa: false });
    const [secretAfter] = await t.database.db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
    expect(secretAfter).toEqual(secretBefore);
  },

  'POST /api/settings/webhooks': async () => {
    const response = await call('POST', '/api/settings/webhooks', {
      ...READ_ONLY,
      ...validBody('POST /api/settings/webhooks', world, unique()),
      secret: 'chosen-by-client',
      hasSecret: false,
      lastDelivery: { state: 'delivered', at: LONG_AGO, status: 200 },
    });
    expect(response.statusCode).toBe(201);
    const { webhook, secret } = response.json().data;
    // 通用 JSON's secret is the server's own: a client's choice is not taken.
    expect(secret).not.toBe('chosen-by-client');
    expect(webhook).toMatchObject({ hasSecret: true, lastDelivery: null });
    expect(webhook._id).not.toBe(FORGED_ID);
    const stored = await row(webhooks, webhook._id);
    isNow(stored.createdAt);
    expect(String(stored.secret)).toMatch(/^v1\./);
    expect(await row(webhooks, FORGED_ID)).toBeUndefined();
  },

  'PATCH /api/settings/webhooks/:id': async () => {
    const created = await call('POST', '/api/settings/webhooks', validBody('POST /api/settings/webhooks', world, unique()) as object);
    const id = created.json().data.webhook._id;
    await patchOnly(webhooks, `/api/settings/webhooks/${id}`, id, { enabled: false }, { kind: 'wecom', url_masked: 'x', hasSecret: false });
  },

  'POST /api/settings/webhooks/:id/secret': async () => {
    const created = await call('POST', '/api/settings/webhooks', validBody('POST /api/settings/webhooks', world, unique()) as object);
    const id = created.json().data.webhook._id;
    const before = await row(webhooks, id);
    const response = await call('POST', `/api/settings/webhooks/${id}/secret`, { ...READ_ONLY, secret: 'chosen-by-client' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.secret).not.toBe('chosen-by-client');
    const after = await row(webhooks, id);
    expect({ ...after, secret: null }).toEqual({ ...before, secret: null });
    expect(after.secret).not.toEqual(before.secret);
  },

  'POST /api/settings/webhooks/:id/test': async () => {
    const created = await call('POST', '/api/settings/webhooks', validBody('POST /api/settings/webhooks', world, unique()) as object);
    const id = created.json().data.webhook._id;
    // An address the sender refuses before connecting (stored behind the route's back): the attempt fails at once, no network.
    await t.database.db.update(webhooks).set({ url: 'http://127.0.0.1:9/hook' }).where(eq(webhooks.id, id));
    const response = await call('POST', `/api/settings/webhooks/${id}/test`, {
      ...READ_ONLY,
      state: 'delivered',
      attempts: 99,
      event: 'rule.fired',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ event: 'webhook.test', attempts: 1 });
    expect(response.json().data.state).not.toBe('delivered');
  },

  'PATCH /api/settings/moderation': async () => {
    const response = await call('PATCH', '/api/settings/moderation', {
      ...READ_ONLY,
      holdFirstPosts: 1,
      wordsVersion: 42,
      updatedAt: LONG_AGO,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ holdFirstPosts: 1, holdLinksDays: 0 });
    const [stored] = await t.database.db.select().from(moderationSettings);
    expect(stored.wordsVersion).not.toBe(42);
    isNow(stored.updatedAt);
    await call('PATCH', '/api/settings/moderation', { holdFirstPosts: 0 });
  },

  'POST /api/user/:id/sanctions': async () => {
    const userId = await fixtures().user({ loginId: unique() });
    const response = await call('POST', `/api/user/${userId}/sanctions`, {
      ...READ_ONLY,
      kind: 'mute',
      days: 1,
      reason: '刷屏',
      userId: FORGED_ID,
      byAdminId: FORGED_ID,
      byLoginId: 'forged',
      startsAt: LONG_AGO,
      endsAt: LONG_AGO,
      liftedAt: LONG_AGO,
      liftedBy: FORGED_ID,
    });
    expect(response.statusCode).toBe(201);
    const stored = await row(userSanctions, response.json().data._id);
    expect(stored).toMatchObject({ userId, byAdminId: world.rootId, liftedAt: null, liftedBy: null, days: 1 });
    isNow(stored.startsAt);
    expect(stored.endsAt).toBe((stored.startsAt as number) + 24 * 3600 * 1000);
  },

  'POST /api/user/:id/notes': async () => {
    const userId = await fixtures().user({ loginId: unique() });
    const response = await call('POST', `/api/user/${userId}/notes`, {
      ...READ_ONLY,
      body: '备注',
      userId: FORGED_ID,
      adminId: FORGED_ID,
      adminLoginId: 'forged',
    });
    expect(response.statusCode).toBe(201);
    const stored = await row(userNotes, response.json().data._id);
    expect(stored).toMatchObject({ userId, adminId: world.rootId, body: '备注' });
    expect(stored.adminLoginId).not.toBe('forged');
    isNow(stored.createdAt);
  },

  'POST /api/review/reasons': async () => {
    const text = `理由${unique()}`;
    const response = await call('POST', '/api/review/reasons', { ...READ_ONLY, text });
    expect(response.statusCode).toBe(201);
    const stored = await row(reviewReasons, response.json().data._id);
    expect(stored.id).not.toBe(FORGED_ID);
    expect(stored.text).toBe(text);
    isNow(stored.createdAt);
  },

  'POST /api/review/decisions': async () => {
    const issueId = await fixtures().issue(world.userId, world.typeId, { issueStatus: false });
    const response = await call('POST', '/api/review/decisions', {
      ...READ_ONLY,
      items: [{ kind: 'issue', id: issueId }],
      decision: 'approve',
      decidedBy: FORGED_ID,
      decidedByLoginId: 'forged',
      decidedAt: LONG_AGO,
    });
    expect(response.statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(reviewDecisions).where(eq(reviewDecisions.itemId, issueId));
    expect(stored).toMatchObject({ decidedBy: world.rootId, decision: 'approve' });
    expect(stored.decidedByLoginId).not.toBe('forged');
    isNow(stored.decidedAt);
  },

  // Presence is kept in memory and told to the other admins: nothing is stored, whatever is sent.
  'POST /api/review/presence': async () => {
    const response = await call('POST', '/api/review/presence', {
      ...READ_ONLY,
      kind: 'issue',
      id: world.issueId,
      open: false,
      adminId: FORGED_ID,
    });
    expect(response.statusCode).toBe(200);
    expect(await t.database.db.select().from(reviewDecisions).where(eq(reviewDecisions.decidedBy, FORGED_ID))).toEqual([]);
  },

  'POST /api/moderation/words': async () => {
    const response = await call('POST', '/api/moderation/words', {
      ...READ_ONLY,
      word: 'Mass',
      action: 'flag',
      folded: 'forged',
      createdBy: FORGED_ID,
    });
    expect(response.statusCode).toBe(201);
    const stored = await row(moderationWords, response.json().data._id);
    expect(stored).toMatchObject({ folded: foldWord('Mass'), createdBy: world.rootId });
    expect(stored.folded).not.toBe('forged');
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.createdAt as number);
  },

  'POST /api/moderation/words/file': async () => {
    const response = await call('POST', '/api/moderation/words/file', { ...READ_ONLY, text: 'massfile\t拒绝\n', createdBy: FORGED_ID });
    expect(response.statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(moderationWords).where(eq(moderationWords.word, 'massfile'));
    expect(stored.createdBy).toBe(world.rootId);
    isNow(stored.createdAt);
  },

  'POST /api/moderation/test': async () => {
    const before = (await t.database.db.select().from(moderationWords)).length;
    const response = await call('POST', '/api/moderation/test', { ...READ_ONLY, text: 'mass', word: 'x', action: 'reject' });
    expect(response.statusCode).toBe(200);
    expect((await t.database.db.select().from(moderationWords)).length).toBe(before);
  },

  'POST /api/moderation/recheck': async () => {
    const response = await call('POST', '/api/moderation/recheck', {
      ...READ_ONLY,
      kinds: ['user'],
      since: 4_000_000_000_000,
      running: false,
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().data).toMatchObject({ running: true, checked: 0 });
  },

  'POST /api/type': async () => {
    const response = await call('POST', '/api/type', { ...READ_ONLY, ...validBody('POST /api/type', world, unique()) });
    expect(response.statusCode).toBe(201);
    const stored = await row(types, response.json().data._id);
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.createdAt);
  },

  'PATCH /api/type/:id': async () => {
    const id = await fixtures().type();
    await patchOnly(types, `/api/type/${id}`, id, { typeName: unique() });
  },

  'POST /api/user': async () => {
    const response = await call('POST', '/api/user', { ...READ_ONLY, ...validBody('POST /api/user', world, unique()) });
    expect(response.statusCode).toBe(201);
    const stored = await row(users, response.json().data._id);
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.registerDate);
    isNow(stored.lastLoginDate);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  },

  'PATCH /api/user/:id': async () => {
    const id = await fixtures().user();
    await patchOnly(users, `/api/user/${id}`, id, { nickname: 'renamed' });
  },

  'POST /api/book': async () => {
    const response = await call('POST', '/api/book', { ...READ_ONLY, ...validBody('POST /api/book', world, unique()) });
    expect(response.statusCode).toBe(201);
    const stored = await row(books, response.json().data._id);
    expect(stored).toMatchObject({ scanNumber: 0, commentNumber: 0 });
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.onShelfDate);
  },

  'PATCH /api/book/:id': async () => {
    const id = await fixtures().book(world.typeId);
    await patchOnly(books, `/api/book/${id}`, id, { bookTitle: 'renamed' });
  },

  'POST /api/interview': async () => {
    const response = await call('POST', '/api/interview', { ...READ_ONLY, ...validBody('POST /api/interview', world, unique()) });
    expect(response.statusCode).toBe(201);
    const stored = await row(interviews, response.json().data._id);
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.onShelfDate);
  },

  'PATCH /api/interview/:id': async () => {
    const id = await fixtures().interview(world.typeId);
    await patchOnly(interviews, `/api/interview/${id}`, id, { interviewTitle: 'renamed' });
  },

  'POST /api/issue': async () => {
    const body = { ...READ_ONLY, ...validBody('POST /api/issue', world, unique()), issueStatus: true };
    const response = await call('POST', '/api/issue', body);
    expect(response.statusCode).toBe(201);
    const stored = await row(issues, response.json().data._id);
    // A new issue waits for review, whatever it says about itself.
    expect(stored).toMatchObject({ scanNumber: 0, commentNumber: 0, issueStatus: false });
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.issueDate);
  },

  'PATCH /api/issue/:id': async () => {
    const id = await fixtures().issue(world.userId, world.typeId);
    const otherUser = await fixtures().user();
    await patchOnly(issues, `/api/issue/${id}`, id, { issueTitle: 'renamed' }, { userId: otherUser });
  },

  'POST /api/comment': async () => {
    const otherType = await fixtures().type();
    const body = { ...READ_ONLY, ...validBody('POST /api/comment', world, unique()), typeId: otherType, bookId: world.bookId };
    const issueBefore = await row(issues, world.issueId);
    const bookBefore = await row(books, world.bookId);
    const response = await call('POST', '/api/comment', body);
    expect(response.statusCode).toBe(201);
    const stored = await row(comments, response.json().data._id);
    // Its type and its target come from the issue it is on, not from the request.
    expect(stored).toMatchObject({ typeId: world.typeId, issueId: world.issueId, bookId: null, commentType: 1 });
    expect(stored.id).not.toBe(FORGED_ID);
    isNow(stored.commentDate);
    expect((await row(issues, world.issueId)).commentNumber).toBe((issueBefore.commentNumber as number) + 1);
    expect(await row(books, world.bookId)).toEqual(bookBefore);
  },

  'POST /api/upload': async () => {
    const { payload, contentType } = multipart([{ name: `${FORGED_ID}.png`, type: 'image/png', data: png(1, 1) }], {
      _id: FORGED_ID,
      id: FORGED_ID,
      path: '/static/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.png',
      ext: 'html',
      mime: 'text/html',
    });
    const response = await t.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...bearer(world.rootToken), 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(200);
    const url = response.json().data as string;
    expect(url).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    expect(url).not.toContain(FORGED_ID);
    expect((await t.inject({ method: 'GET', url })).headers['content-type']).toBe('image/png');
  },

  // A bulk action changes the one field it is about, on the records named, and nothing else.
  'POST /api/user/batch': async () => {
    const id = await fixtures().user();
    const before = await row(users, id);
    const response = await call('POST', '/api/user/batch', {
      ...READ_ONLY,
      action: 'disable',
      ids: [id],
      enabled: true,
      nickname: 'hacked',
    });
    expect(response.statusCode).toBe(200);
    expect(await row(users, id)).toEqual({ ...before, enabled: false });
  },

  'POST /api/issue/batch': async () => {
    const id = await fixtures().issue(world.userId, world.typeId);
    const before = await row(issues, id);
    const response = await call('POST', '/api/issue/batch', { ...READ_ONLY, action: 'approve', ids: [id], issueTitle: 'hacked' });
    expect(response.statusCode).toBe(200);
    expect(await row(issues, id)).toEqual({ ...before, issueStatus: true });
  },

  'POST /api/book/batch': async () => {
    const id = await fixtures().book(world.typeId);
    const keep = await row(books, world.bookId);
    expect((await call('POST', '/api/book/batch', { ...READ_ONLY, action: 'delete', ids: [id] })).statusCode).toBe(200);
    expect(await row(books, id)).toBeUndefined();
    expect(await row(books, world.bookId)).toEqual(keep);
  },

  'POST /api/interview/batch': async () => {
    const id = await fixtures().interview(world.typeId);
    const keep = await row(interviews, world.interviewId);
    expect((await call('POST', '/api/interview/batch', { ...READ_ONLY, action: 'delete', ids: [id] })).statusCode).toBe(200);
    expect(await row(interviews, id)).toBeUndefined();
    expect(await row(interviews, world.interviewId)).toEqual(keep);
  },

  'POST /api/comment/batch': async () => {
    const id = await fixtures().comment({ userId: world.userId, typeId: world.typeId, issueId: world.issueId });
    const keep = await row(comments, world.commentId);
    expect((await call('POST', '/api/comment/batch', { ...READ_ONLY, action: 'delete', ids: [id] })).statusCode).toBe(200);
    expect(await row(comments, id)).toBeUndefined();
    expect(await row(comments, world.commentId)).toEqual(keep);
  },

  // A revert puts back the fields of its entry and nothing a request body could add.
  'POST /api/audit/:auditId/revert': async () => {
    const id = await fixtures().user({ nickname: 'first' });
    await call('PATCH', `/api/user/${id}`, { nickname: 'second' });
    const before = await row(users, id);
    const history = await t.inject({ method: 'GET', url: `/api/audit/user/${id}`, headers: bearer(world.rootToken) });
    const response = await call('POST', `/api/audit/${history.json().data[0]._id}/revert`, {
      ...READ_ONLY,
      nickname: 'hacked',
      enabled: false,
    });
    expect(response.statusCode).toBe(200);
    expect(await row(users, id)).toEqual({ ...before, nickname: 'first' });
  },

  'POST /api/trash/:id/restore': async () => {
    // The entry decides what comes back: a body naming other rows, another entity or a deleter is ignored.
    const id = await fixtures().interview(world.typeId);
    const before = await row(interviews, id);
    expect((await t.inject({ method: 'DELETE', url: `/api/interview/${id}`, headers: bearer(world.rootToken) })).statusCode).toBe(200);
    const bin = (
      await t.inject({ method: 'GET', url: '/api/trash?entity=interview&pageSize=100', headers: bearer(world.rootToken) })
    ).json().data;
    const entry = bin.data.find((e: { entityId: string }) => e.entityId === id);
    const response = await call('POST', `/api/trash/${entry._id}/restore`, {
      ...READ_ONLY,
      entity: 'user',
      entityId: world.userId,
      rows: [{ table: 'interviews', rows: [{ ...before, id: FORGED_ID }] }],
      deletedBy: world.normal.id,
    });
    expect(response.statusCode).toBe(200);
    expect(await row(interviews, id)).toEqual(before);
    expect(await row(interviews, FORGED_ID)).toBeUndefined();
    expect(await row(users, world.userId)).toBeDefined();
  },
};

describe('mass assignment', () => {
  it('every POST and PATCH route has a case here', () => {
    const writes = t.app.routeCatalog.filter((route) => route.method === 'POST' || route.method === 'PATCH').map(routeKey);
    expect(writes.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.keys(CASES))('%s stores only what it may', async (key) => {
    await CASES[key]();
  });

  it('no PATCH reaches another record through a forged _id', async () => {
    const victim = await fixtures().book(world.typeId, { bookTitle: 'untouched' });
    const target = await fixtures().book(world.typeId);
    const response = await call('PATCH', fillPath('/api/book/:id', { id: target }), { _id: victim, id: victim, bookTitle: 'changed' });
    expect(response.statusCode).toBe(200);
    expect((await row(books, victim)).bookTitle).toBe('untouched');
    expect((await row(books, target)).bookTitle).toBe('changed');
    expect((await call('PATCH', `/api/book/${UNKNOWN_ID}`, { _id: victim, bookTitle: 'changed' })).statusCode).toBe(404);
    expect((await row(books, victim)).bookTitle).toBe('untouched');
  });
});
