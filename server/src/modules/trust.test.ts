import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { TRUST_MESSAGES } from '#contract/version';
import { adminSessions, users } from '../db/schema';
import { counters } from '../lib/counters';
import { contentFixtures } from '../../test/content';
import { bearer, createTestContext, passwordOf, ROOT_PASSWORD, type TestContext } from '../../test/harness';
import { totpCode } from './auth/totp';

/**
 * Issue 26: no edit is lost (record versions, 409 VERSION_CONFLICT) and proof before power
 * (REAUTH_REQUIRED, POST /api/admin/me/reauth, the first sign-in's password change).
 */

let t: TestContext;
let root: string;
let fixtures: ReturnType<typeof contentFixtures>;
const WINDOW_MS = 900_000;

beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  fixtures = contentFixtures(t.database.db);
}, 120_000);
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, ip?: string) =>
  t.inject({ method, url, headers: bearer(token), remoteAddress: ip, ...(payload && { payload }) });

describe('record versions', () => {
  // Each versioned entity: where it lives, how it is made, and one field a PATCH changes.
  const cases: Array<{ name: string; entity: string; make: () => Promise<string>; field: string; values: [unknown, unknown] }> = [
    { name: 'user', entity: 'user', make: () => fixtures.user(), field: 'nickname', values: ['甲', '乙'] },
    { name: 'book', entity: 'book', make: async () => fixtures.book(await fixtures.type()), field: 'bookTitle', values: ['书一', '书二'] },
    {
      name: 'interview',
      entity: 'interview',
      make: async () => fixtures.interview(await fixtures.type()),
      field: 'interviewTitle',
      values: ['题一', '题二'],
    },
    {
      name: 'issue',
      entity: 'issue',
      make: async () => fixtures.issue(await fixtures.user(), await fixtures.type()),
      field: 'issueTitle',
      values: ['问一', '问二'],
    },
    { name: 'type', entity: 'type', make: () => fixtures.type(), field: 'typeName', values: ['分类一', '分类二'] },
    {
      name: 'admin',
      entity: 'admin',
      make: async () => (await t.createAdmin(`ver-${Date.now().toString(36)}`, 2)).id,
      field: 'nickname',
      values: ['管理甲', '管理乙'],
    },
  ];

  it.each(cases)(
    '$name: GET carries the version, a PATCH from an older one is 409 naming what changed, and changes nothing',
    async ({ entity, make, field, values }) => {
      const id = await make();
      const url = `/api/${entity}/${id}`;
      // Types have no GET of one: the list holds them all.
      const loaded =
        entity === 'type'
          ? (await call(root, 'GET', '/api/type')).json().data.find((type: { _id: string }) => type._id === id)
          : (await call(root, 'GET', url)).json().data;
      expect(loaded.version).toBe(1);

      const first = await call(root, 'PATCH', url, { [field]: values[0], version: 1 });
      expect(first.statusCode).toBe(200);
      expect(first.json().data.version).toBe(2);

      const conflictsBefore = counters.get('versionConflicts');
      const stale = await call(root, 'PATCH', url, { [field]: values[1], version: 1 });
      expect(stale.statusCode).toBe(409);
      const body = stale.json();
      expect(body).toMatchObject({
        success: false,
        code: 409,
        errorCode: ERROR_CODES.versionConflict,
        msg: TRUST_MESSAGES.versionConflict,
      });
      expect(body.conflict).toMatchObject({ yourVersion: 1, currentVersion: 2, current: { _id: id, [field]: values[0], version: 2 } });
      expect(body.conflict.changes).toEqual([
        expect.objectContaining({ field, before: loaded[field], after: values[0], by: 'root', at: expect.any(Number) }),
      ]);
      expect(counters.get('versionConflicts')).toBe(conflictsBefore + 1);

      // Nothing was written: the record and its version are as the first PATCH left them.
      const after =
        entity === 'type'
          ? (await call(root, 'GET', '/api/type')).json().data.find((type: { _id: string }) => type._id === id)
          : (await call(root, 'GET', url)).json().data;
      expect(after).toMatchObject({ [field]: values[0], version: 2 });

      // Overwriting on purpose: the same change sent again with the version the 409 reported.
      const overwrite = await call(root, 'PATCH', url, { [field]: values[1], version: body.conflict.currentVersion });
      expect(overwrite.statusCode).toBe(200);
      expect(overwrite.json().data).toMatchObject({ [field]: values[1], version: 3 });

      // An old client without versions: last write wins, as before, and is counted.
      const unversionedBefore = counters.get('unversionedPatches');
      const blind = await call(root, 'PATCH', url, { [field]: values[0] });
      expect(blind.statusCode).toBe(200);
      expect(blind.json().data).toMatchObject({ [field]: values[0], version: 4 });
      expect(counters.get('unversionedPatches')).toBe(unversionedBefore + 1);
    },
  );

  it('a write that changes nothing of the record (a counter, the last sign-in) keeps its version', async () => {
    const userId = await fixtures.user();
    await t.database.db
      .update(users)
      .set({ lastLoginDate: Date.now() + 1000 })
      .where(eq(users.id, userId));
    expect((await call(root, 'GET', `/api/user/${userId}`)).json().data.version).toBe(1);
    const bookId = await fixtures.book(await fixtures.type());
    expect((await call(root, 'POST', '/api/comment', { commentType: 2, bookId, userId, commentContent: '<p>好书</p>' })).statusCode).toBe(
      201,
    );
    expect((await call(root, 'GET', `/api/book/${bookId}`)).json().data).toMatchObject({ commentNumber: 1, version: 1 });
  });

  it('a version from the future is a conflict too, and a version is no field a body may set', async () => {
    const id = await fixtures.type();
    const ahead = await call(root, 'PATCH', `/api/type/${id}`, { typeName: `t-${id}`, version: 5 });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().conflict).toMatchObject({ yourVersion: 5, currentVersion: 1, changes: [] });
    const bad = await call(root, 'PATCH', `/api/type/${id}`, { typeName: `t-${id}`, version: 0 });
    expect(bad.statusCode).toBe(400);
  });
});

describe('proof before power', () => {
  /** The routes that need a fresh proof, with a call to each (any target: the refusal comes first). */
  const REAUTH_ROUTES: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object]> = [
    ['POST', '/api/admin', { loginId: 'never-made', permission: 2 }],
    ['DELETE', '/api/admin/000000000000000000000000'],
    ['DELETE', '/api/admin/000000000000000000000000/sessions'],
    ['DELETE', '/api/admin/000000000000000000000000/2fa'],
    ['PATCH', '/api/settings/security', { require2fa: false }],
    ['GET', '/api/audit/export'],
    ['GET', '/api/user/export'],
    ['GET', '/api/book/export'],
    ['GET', '/api/interview/export'],
    ['GET', '/api/issue/export'],
    ['GET', '/api/comment/export'],
    ['DELETE', '/api/trash/000000000000000000000000'],
    // The moderation rules (issue 25): the word list and the account rules.
    ['POST', '/api/moderation/words', { word: '从未添加', action: 'flag' }],
    ['DELETE', '/api/moderation/words/000000000000000000000000'],
    ['POST', '/api/moderation/words/file', { text: '从未添加 flag', mode: 'merge' }],
    ['PATCH', '/api/settings/moderation', { holdFirstPosts: 0 }],
    // The notifications of the moderation work (通知).
    ['POST', '/api/settings/webhooks', { name: '从未添加', kind: 'json', url: 'https://93.184.216.34/hook', events: ['item.waiting'] }],
    ['PATCH', '/api/settings/webhooks/000000000000000000000000', { enabled: false }],
    ['DELETE', '/api/settings/webhooks/000000000000000000000000'],
    ['POST', '/api/settings/webhooks/000000000000000000000000/secret'],
  ];
  const templateOf = (url: string) => url.replace(/[0-9a-f]{24}/g, ':id');

  it('the routes marked reauth are exactly the listed ones', () => {
    const marked = t.app.routeCatalog.filter((route) => route.reauth).map((route) => `${route.method} ${route.url}`);
    expect(marked.sort()).toEqual(REAUTH_ROUTES.map(([method, url]) => `${method} ${templateOf(url)}`).sort());
  });

  describe('with a proof older than the window', () => {
    let token: string;
    beforeAll(async () => {
      const { token: made } = await t.createAdmin(`stale-${Date.now().toString(36)}`, 1);
      token = made;
      t.clock.advance(WINDOW_MS + 1000);
    });

    // Rows as one argument each: a row of two would make jest take the test's third parameter for `done`.
    it.each(REAUTH_ROUTES.map(([method, url, payload]) => ({ method, url, payload })))(
      '$method $url answers 403 REAUTH_REQUIRED',
      async ({ method, url, payload }) => {
        const response = await call(token, method, url, payload);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({
          success: false,
          code: 403,
          errorCode: ERROR_CODES.reauthRequired,
          msg: '需要重新验证身份',
        });
      },
    );

    it('raising an admin to super or disabling one needs it too; other edits do not', async () => {
      const target = await t.createAdmin(`target-${Date.now().toString(36)}`, 2);
      t.clock.advance(WINDOW_MS + 1000);
      for (const payload of [{ permission: 1 }, { enabled: false }]) {
        const refused = await call(token, 'PATCH', `/api/admin/${target.id}`, payload);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().errorCode).toBe(ERROR_CODES.reauthRequired);
      }
      expect((await call(token, 'PATCH', `/api/admin/${target.id}`, { nickname: '改名' })).statusCode).toBe(200);
      expect((await call(token, 'PATCH', `/api/admin/${target.id}`, { permission: 2, enabled: true })).statusCode).toBe(200);
    });
  });

  it('a proof lets the action through for REAUTH_WINDOW_SECONDS, and not a moment longer', async () => {
    const admin = await t.createAdmin(`win-${Date.now().toString(36)}`, 1);
    // Signing in counts as a proof.
    expect((await call(admin.token, 'GET', '/api/user/export')).statusCode).toBe(200);
    t.clock.advance(WINDOW_MS - 1000);
    expect((await call(admin.token, 'GET', '/api/user/export')).statusCode).toBe(200);
    t.clock.advance(2000);
    const refused = (await call(admin.token, 'GET', '/api/user/export')).json();
    expect(refused.errorCode).toBe(ERROR_CODES.reauthRequired);
    // The refusal says how long a proof will last, for the dialog that asks for it.
    expect(refused.reauthWindowSeconds).toBe(WINDOW_MS / 1000);

    const before = t.clock.now();
    const proof = await call(admin.token, 'POST', '/api/admin/me/reauth', { password: admin.password });
    expect(proof.statusCode).toBe(200);
    expect(proof.json().data.validUntil).toBeGreaterThanOrEqual(before + WINDOW_MS);
    expect(proof.json().data.validUntil).toBeLessThanOrEqual(t.clock.now() + WINDOW_MS);
    expect((await call(admin.token, 'GET', '/api/user/export')).statusCode).toBe(200);
    // The proof belongs to that session: another sign-in of the same admin has its own.
    const [row] = await t.database.db
      .select({ reauthAt: adminSessions.reauthAt })
      .from(adminSessions)
      .where(eq(adminSessions.adminId, admin.id));
    expect(row.reauthAt).not.toBeNull();
  });

  it('a password proves who the admin is on a host without a passkey relying party (none configured, not localhost)', async () => {
    const admin = await t.createAdmin(`rp-${Date.now().toString(36)}`, 1);
    t.clock.advance(WINDOW_MS + 1000);
    const proof = await t.inject({
      method: 'POST',
      url: '/api/admin/me/reauth',
      headers: { ...bearer(admin.token), host: '127.0.0.1:8080' },
      payload: { password: admin.password },
    });
    expect(proof.statusCode).toBe(200);
    expect((await call(admin.token, 'GET', '/api/user/export')).statusCode).toBe(200);
  });

  it('after the proof, every listed action goes through (the answer is the action’s own)', async () => {
    const admin = await t.createAdmin(`all-${Date.now().toString(36)}`, 1);
    t.clock.advance(WINDOW_MS + 1000);
    await t.prove(admin.token, admin.password);
    for (const [method, url, payload] of REAUTH_ROUTES) {
      const response = await call(admin.token, method, url, payload);
      const json = String(response.headers['content-type']).startsWith('application/json');
      expect(json ? response.json().errorCode : null).not.toBe(ERROR_CODES.reauthRequired);
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it('refuses a wrong password (counted by the sign-in throttle), neither or both proofs, and a code without two-step sign-in', async () => {
    const admin = await t.createAdmin(`bad-${Date.now().toString(36)}`, 1);
    // Its own address: the failures it makes must not lock the other tests' address.
    const ip = '10.26.0.1';
    const wrong = await call(admin.token, 'POST', '/api/admin/me/reauth', { password: 'not-it-at-all' }, ip);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe(TRUST_MESSAGES.wrongPassword);
    expect((await call(admin.token, 'POST', '/api/admin/me/reauth', {}, ip)).statusCode).toBe(400);
    expect((await call(admin.token, 'POST', '/api/admin/me/reauth', { password: admin.password, code: '123456' }, ip)).statusCode).toBe(
      400,
    );
    expect((await call(admin.token, 'POST', '/api/admin/me/reauth', { code: '123456' }, ip)).statusCode).toBe(400);
    // Five wrong answers lock the account as five wrong sign-ins would.
    for (let i = 0; i < 4; i++) await call(admin.token, 'POST', '/api/admin/me/reauth', { password: 'still-not-it' }, ip);
    expect((await call(admin.token, 'POST', '/api/admin/me/reauth', { password: admin.password }, ip)).statusCode).toBe(429);
  });

  it('accepts a current code of two-step sign-in as the proof', async () => {
    const admin = await t.createAdmin(`code-${Date.now().toString(36)}`, 1);
    const setup = await call(admin.token, 'POST', '/api/admin/me/2fa/setup');
    const { secret } = setup.json().data;
    expect((await call(admin.token, 'POST', '/api/admin/me/2fa/enable', { code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
    t.clock.advance(WINDOW_MS + 30_000);
    expect((await call(admin.token, 'GET', '/api/book/export')).json().errorCode).toBe(ERROR_CODES.reauthRequired);
    const proof = await call(admin.token, 'POST', '/api/admin/me/reauth', { code: totpCode(secret, t.clock.now()) });
    expect(proof.statusCode).toBe(200);
    expect((await call(admin.token, 'GET', '/api/book/export')).statusCode).toBe(200);
  });
});

describe('the first sign-in with a generated password', () => {
  it('allows only whoami, logout and the password change until the password is changed', async () => {
    await t.prove(root, ROOT_PASSWORD);
    const created = await call(root, 'POST', '/api/admin', { loginId: `first-${Date.now().toString(36)}`, permission: 2 });
    expect(created.statusCode).toBe(201);
    const { loginId, initialPassword } = created.json().data;
    const token = await t.tokenFor(loginId, initialPassword);

    const me = await call(token, 'GET', '/api/admin/whoami');
    expect(me.statusCode).toBe(200);
    expect(me.json().data.mustChangePassword).toBe(true);
    for (const [method, url] of [
      ['GET', '/api/user'],
      ['GET', '/api/book'],
      ['PATCH', '/api/admin/me'],
      ['POST', '/api/admin/me/reauth'],
      ['GET', '/api/admin/me/sessions'],
    ] as const) {
      const refused = await call(token, method, url, method === 'GET' ? undefined : {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: ERROR_CODES.passwordChangeRequired, msg: '请先修改初始密码' });
    }

    // "Changing" it to itself is no change: refused, and the hold stays.
    const same = await call(token, 'POST', '/api/admin/me/password', { currentPassword: initialPassword, newPassword: initialPassword });
    expect({ status: same.statusCode, msg: same.json().msg }).toEqual({ status: 400, msg: '新密码不能与当前密码相同' });
    expect((await call(token, 'GET', '/api/admin/whoami')).json().data.mustChangePassword).toBe(true);

    const newPassword = passwordOf(`${loginId}-new`);
    const changed = await call(token, 'POST', '/api/admin/me/password', { currentPassword: initialPassword, newPassword });
    expect(changed.statusCode).toBe(200);
    expect((await call(token, 'GET', '/api/admin/whoami')).json().data.mustChangePassword).toBe(false);
    expect((await call(token, 'GET', '/api/user')).statusCode).toBe(200);
    // A password the admin chose is not changed again at the next sign-in.
    const again = await t.tokenFor(loginId, newPassword);
    expect((await call(again, 'GET', '/api/admin/whoami')).json().data.mustChangePassword).toBe(false);
  });

  it('an admin given a password by the super admin is not held; a user given a generated one keeps the flag', async () => {
    const chosen = await t.createAdmin(`chosen-${Date.now().toString(36)}`, 2);
    expect((await call(chosen.token, 'GET', '/api/user')).statusCode).toBe(200);
    const user = await call(root, 'POST', '/api/user', { loginId: `member-${Date.now().toString(36)}` });
    expect(user.statusCode).toBe(201);
    const [row] = await t.database.db.select({ must: users.mustChangePassword }).from(users).where(eq(users.id, user.json().data._id));
    expect(row.must).toBe(true);
  });

  it('the root password of the first start is one the operator chose: no change asked', async () => {
    const me = await call(root, 'GET', '/api/admin/whoami');
    expect(me.json().data.mustChangePassword).toBe(false);
  });
});
