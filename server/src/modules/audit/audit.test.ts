import { count, eq, sql } from 'drizzle-orm';
import { MODERATION_SETTINGS_ID, SECURITY_SETTINGS_ID, type AuditEntry } from '#contract/audit';
import { ConfigError, loadConfig } from '../../config';
import { adminSessions, auditLog, issues, settings, users } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, passwordOf, ROOT_LOGIN, ROOT_PASSWORD, type TestContext } from '../../../test/harness';
import { multipart, png, UNKNOWN_ID } from '../../../test/attack/support';
import { routeKey } from '../../../test/attack/world';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { totpCode } from '../auth/totp';
import { createAuditRepository, PURGE_BATCH } from './audit.repository';
import { createAuditRetention } from './audit.retention';

let t: TestContext;
let root: string;
let rootId: string;
let normal: { id: string; token: string };
let typeId: string;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  rootId = (await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(root) })).json().data._id;
  normal = await t.createAdmin('audit-normal', 2);
  typeId = await fixtures().type('audit-type');
}, 120_000);
afterAll(() => t.close());

const fixtures = () => contentFixtures(t.database.db);
const DAY_MS = 24 * 60 * 60 * 1000;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token = root) {
  return t.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });
}

/** The newest `n` entries of the whole log, newest first. */
async function latest(n = 1): Promise<AuditEntry[]> {
  const response = await call('GET', `/api/audit?pageSize=${n}`);
  expect(response.statusCode).toBe(200);
  return response.json().data.data;
}

async function entryCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(auditLog);
  return Number(row.n);
}

async function history(entity: string, id: string, token = root): Promise<AuditEntry[]> {
  const response = await call('GET', `/api/audit/${entity}/${id}`, undefined, token);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** Turns two-step sign-in on for the token's admin (设置两步验证 and 开启两步验证: two entries); answers the secret. */

/** The code of the next time step: the current one was just used (no replay). */
function nextCode(secret: string): string {
  t.clock.advance(30_000);
  return totpCode(secret, t.clock.now());
}

/** Adds a passkey of a new software authenticator (no relying party configured: the injected Host, localhost). */
async function addPasskey(token: string, name: string) {
  const authenticator = new SoftAuthenticator('localhost', 'http://localhost');
  const options = (await call('POST', '/api/admin/me/passkeys/options', undefined, token)).json().data;
  const added = await call('POST', '/api/admin/me/passkeys', { name, response: authenticator.register(options) }, token);
  expect(added.statusCode).toBe(201);
  return { authenticator, passkeyId: added.json().data._id as string };
}

/** What one write route's entry must say, after doing that write through the API. */
type Expected = Partial<AuditEntry>;

/**
 * One case per write route (POST, PATCH, PUT, DELETE) of the app: it makes the write and answers
 * how many entries it made and what the newest must say. A route registered without a case here
 * fails "every write route has a case", so a new write cannot go unaudited unnoticed.
 */
const CASES: Record<string, () => Promise<{ entries?: number; expected: Expected }>> = {
  // Passkeys: made and signed in (2) before each; the option calls make a challenge and no entry.
  'POST /api/admin/me/passkeys/options': async () => {
    const { id, token } = await t.createAdmin('audit-pk-options', 2);
    expect((await call('POST', '/api/admin/me/passkeys/options', undefined, token)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '登录', adminId: id } };
  },
  'POST /api/admin/me/passkeys/proof-options': async () => {
    const { id, token } = await t.createAdmin('audit-pk-proof', 2);
    expect((await call('POST', '/api/admin/me/passkeys/proof-options', undefined, token)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '登录', adminId: id } };
  },
  'POST /api/admin/login/passkey/options': async () => {
    const { id } = await t.createAdmin('audit-pk-signin-options', 2);
    expect((await t.inject({ method: 'POST', url: '/api/admin/login/passkey/options' })).statusCode).toBe(200);
    return { entries: 2, expected: { action: '登录', adminId: id } };
  },
  'POST /api/admin/me/passkeys': async () => {
    const { id, token } = await t.createAdmin('audit-pk-add', 2);
    await addPasskey(token, '办公室电脑');
    return {
      entries: 3,
      expected: { action: '添加通行密钥', entity: 'admin', entityId: id, title: 'audit-pk-add：办公室电脑', adminId: id },
    };
  },
  'PATCH /api/admin/me/passkeys/:id': async () => {
    const { id, token } = await t.createAdmin('audit-pk-rename', 2);
    const { passkeyId } = await addPasskey(token, '旧');
    expect((await call('PATCH', `/api/admin/me/passkeys/${passkeyId}`, { name: '新' }, token)).statusCode).toBe(200);
    return { entries: 4, expected: { action: '重命名通行密钥', entity: 'admin', entityId: id, title: 'audit-pk-rename：新', adminId: id } };
  },
  'DELETE /api/admin/me/passkeys/:id': async () => {
    const { id, token } = await t.createAdmin('audit-pk-remove', 2);
    const { passkeyId } = await addPasskey(token, '钥匙');
    expect((await call('DELETE', `/api/admin/me/passkeys/${passkeyId}`, undefined, token)).statusCode).toBe(200);
    return { entries: 4, expected: { action: '删除通行密钥', entity: 'admin', entityId: id, title: 'audit-pk-remove：钥匙', adminId: id } };
  },
  'POST /api/admin/login/passkey': async () => {
    const { id, token } = await t.createAdmin('audit-pk-login', 2);
    const { authenticator } = await addPasskey(token, '钥匙');
    const options = (await t.inject({ method: 'POST', url: '/api/admin/login/passkey/options' })).json().data;
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login/passkey',
      payload: { response: authenticator.assert(options) },
    });
    expect(response.statusCode).toBe(200);
    return {
      entries: 4,
      expected: {
        action: '登录',
        entity: 'session',
        entityId: id,
        title: 'audit-pk-login（通行密钥）',
        adminId: id,
        adminLoginId: 'audit-pk-login',
      },
    };
  },
  'POST /api/admin/login': async () => {
    expect((await t.login(ROOT_LOGIN, ROOT_PASSWORD)).statusCode).toBe(200);
    return {
      expected: { action: '登录', entity: 'session', entityId: rootId, title: ROOT_LOGIN, adminId: rootId, adminLoginId: ROOT_LOGIN },
    };
  },
  'POST /api/admin/logout': async () => {
    const token = await t.tokenFor('audit-normal', passwordOf('audit-normal'));
    expect((await call('POST', '/api/admin/logout', undefined, token)).statusCode).toBe(200);
    return {
      entries: 2,
      expected: { action: '退出', entity: 'session', entityId: normal.id, adminId: normal.id, adminLoginId: 'audit-normal' },
    };
  },
  'POST /api/admin/login/2fa': async () => {
    // Made and signed in (2), two-step set up and on (2); the password step writes nothing, the second step 登录.
    const { id, token } = await t.createAdmin('audit-two-step', 2);
    const { secret } = await t.enableTwoFactor(token);
    const first = await t.login('audit-two-step', passwordOf('audit-two-step'));
    expect(first.json().data).toMatchObject({ twoFactorRequired: true });
    const second = await t.inject({
      method: 'POST',
      url: '/api/admin/login/2fa',
      payload: { challenge: first.json().data.challenge, code: nextCode(secret) },
    });
    expect(second.statusCode).toBe(200);
    return {
      entries: 5,
      expected: { action: '登录', entity: 'session', entityId: id, title: 'audit-two-step', adminId: id, adminLoginId: 'audit-two-step' },
    };
  },
  'PATCH /api/admin/me': async () => {
    const { id, token } = await t.createAdmin('audit-me', 2);
    expect((await call('PATCH', '/api/admin/me', { nickname: '我的新名字' }, token)).statusCode).toBe(200);
    return {
      entries: 3,
      expected: {
        action: '修改',
        entity: 'admin',
        entityId: id,
        title: 'audit-me',
        adminId: id,
        changes: [{ field: 'nickname', before: '新增管理员', after: '我的新名字' }],
      },
    };
  },
  'POST /api/admin/me/password': async () => {
    const { id, token, password } = await t.createAdmin('audit-own-password', 2);
    const response = await call(
      'POST',
      '/api/admin/me/password',
      { currentPassword: password, newPassword: 'Copper-Meadow-Falcon-7' },
      token,
    );
    expect(response.statusCode).toBe(200);
    return {
      entries: 3,
      expected: { action: '修改', entity: 'admin', entityId: id, adminId: id, changes: [{ field: 'password', note: '密码已修改' }] },
    };
  },
  'POST /api/admin/me/reauth': async () => {
    // Made and signed in (2), then the proof.
    const { id, token } = await t.createAdmin('audit-reauth', 2);
    expect((await call('POST', '/api/admin/me/reauth', { password: passwordOf('audit-reauth') }, token)).statusCode).toBe(200);
    return { entries: 3, expected: { action: '验证身份', entity: 'session', entityId: id, title: 'audit-reauth', adminId: id } };
  },
  'POST /api/admin/me/2fa/setup': async () => {
    const { id, token } = await t.createAdmin('audit-2fa-setup', 2);
    expect((await call('POST', '/api/admin/me/2fa/setup', undefined, token)).statusCode).toBe(200);
    return {
      entries: 3,
      expected: { action: '设置两步验证', entity: 'admin', entityId: id, title: 'audit-2fa-setup', adminId: id, changes: null },
    };
  },
  'POST /api/admin/me/2fa/enable': async () => {
    const { id, token } = await t.createAdmin('audit-2fa-enable', 2);
    await t.enableTwoFactor(token);
    return {
      entries: 4,
      expected: { action: '开启两步验证', entity: 'admin', entityId: id, title: 'audit-2fa-enable', adminId: id, changes: null },
    };
  },
  'POST /api/admin/me/2fa/disable': async () => {
    const { id, token, password } = await t.createAdmin('audit-2fa-disable', 2);
    const { secret } = await t.enableTwoFactor(token);
    expect((await call('POST', '/api/admin/me/2fa/disable', { currentPassword: password, code: nextCode(secret) }, token)).statusCode).toBe(
      200,
    );
    return { entries: 5, expected: { action: '关闭两步验证', entity: 'admin', entityId: id, adminId: id, changes: null } };
  },
  'POST /api/admin/me/2fa/recovery-codes': async () => {
    const { id, token, password } = await t.createAdmin('audit-2fa-regen', 2);
    await t.enableTwoFactor(token);
    expect((await call('POST', '/api/admin/me/2fa/recovery-codes', { currentPassword: password }, token)).statusCode).toBe(200);
    return {
      entries: 5,
      expected: {
        action: '重新生成恢复码',
        entity: 'admin',
        entityId: id,
        adminId: id,
        changes: [{ field: 'twoFactor', note: '生成了 10 个新恢复码，旧恢复码已失效' }],
      },
    };
  },
  'DELETE /api/admin/:id/2fa': async () => {
    const { id, token } = await t.createAdmin('audit-2fa-reset', 2);
    await t.enableTwoFactor(token);
    expect((await call('DELETE', `/api/admin/${id}/2fa`)).statusCode).toBe(200);
    return {
      entries: 5,
      expected: {
        action: '重置两步验证',
        entity: 'admin',
        entityId: id,
        title: 'audit-2fa-reset',
        changes: [{ field: 'twoFactor', note: '结束了 1 个会话' }],
      },
    };
  },
  'DELETE /api/admin/me/sessions/:sessionId': async () => {
    const { id, token, password } = await t.createAdmin('audit-end-one', 2);
    await t.tokenFor('audit-end-one', password);
    const sessions = (await call('GET', '/api/admin/me/sessions', undefined, token)).json().data as Array<{ id: string; current: boolean }>;
    const other = sessions.find((session) => !session.current)!;
    expect((await call('DELETE', `/api/admin/me/sessions/${other.id}`, undefined, token)).statusCode).toBe(200);
    return {
      entries: 4,
      expected: {
        action: '结束会话',
        entity: 'session',
        entityId: id,
        adminId: id,
        changes: [{ field: 'session', note: '结束了 1 个会话' }],
      },
    };
  },
  'DELETE /api/admin/me/sessions': async () => {
    const { id, token, password } = await t.createAdmin('audit-end-others', 2);
    await t.tokenFor('audit-end-others', password);
    await t.tokenFor('audit-end-others', password);
    expect((await call('DELETE', '/api/admin/me/sessions', undefined, token)).statusCode).toBe(200);
    return {
      entries: 5,
      expected: {
        action: '结束会话',
        entity: 'session',
        entityId: id,
        adminId: id,
        changes: [{ field: 'session', note: '结束了 2 个会话' }],
      },
    };
  },
  'DELETE /api/admin/:id/sessions': async () => {
    const { id } = await t.createAdmin('audit-end-all', 2);
    expect((await call('DELETE', `/api/admin/${id}/sessions`)).statusCode).toBe(200);
    return {
      entries: 3,
      expected: {
        action: '结束会话',
        entity: 'session',
        entityId: id,
        title: 'audit-end-all',
        changes: [{ field: 'session', note: '结束了 1 个会话' }],
      },
    };
  },
  'DELETE /api/user/:id/sessions': async () => {
    const { id } = await t.signUpMember('audit-member-all', { ip: '10.9.0.1' });
    expect((await call('DELETE', `/api/user/${id}/sessions`)).statusCode).toBe(200);
    return {
      expected: {
        action: '结束会话',
        entity: 'user',
        entityId: id,
        title: 'audit-member-all',
        revertible: false,
        changes: [{ field: 'session', note: '结束了 1 个前台会话' }],
      },
    };
  },
  'DELETE /api/user/:id/sessions/:sessionId': async () => {
    const { id } = await t.signUpMember('audit-member-one', { ip: '10.9.0.2' });
    const [session] = (await call('GET', `/api/user/${id}/sessions`)).json().data;
    expect((await call('DELETE', `/api/user/${id}/sessions/${session.id}`)).statusCode).toBe(200);
    return {
      expected: {
        action: '结束会话',
        entity: 'user',
        entityId: id,
        title: 'audit-member-one',
        revertible: false,
        changes: [{ field: 'session', note: '结束了 1 个前台会话' }],
      },
    };
  },
  'PATCH /api/settings/moderation': async () => {
    expect((await call('PATCH', '/api/settings/moderation', { holdFirstPosts: 3 })).statusCode).toBe(200);
    return {
      expected: {
        action: '修改',
        entity: 'moderation',
        entityId: MODERATION_SETTINGS_ID,
        title: '审核规则',
        changes: [{ field: 'holdFirstPosts', before: 0, after: 3 }],
        revertible: false,
      },
    };
  },
  // Notifications (通知): the secret's value is never in an entry, only that it changed.
  'POST /api/settings/webhooks': async () => {
    const response = await call('POST', '/api/settings/webhooks', {
      name: '审计通知',
      kind: 'json',
      url: 'https://93.184.216.34/hook',
      events: ['item.waiting'],
    });
    expect(response.statusCode).toBe(201);
    return {
      expected: { action: '新增', entity: 'webhook', entityId: response.json().data.webhook._id, title: '通知：审计通知（通用 JSON）' },
    };
  },
  'PATCH /api/settings/webhooks/:id': async () => {
    const id = (
      await call('POST', '/api/settings/webhooks', {
        name: '审计改通知',
        kind: 'json',
        url: 'https://93.184.216.34/hook',
        events: ['item.waiting'],
      })
    ).json().data.webhook._id;
    expect((await call('PATCH', `/api/settings/webhooks/${id}`, { enabled: false })).statusCode).toBe(200);
    return { entries: 2, expected: { action: '修改', entity: 'webhook', entityId: id, title: '通知：审计改通知（通用 JSON）' } };
  },
  'POST /api/settings/webhooks/:id/secret': async () => {
    const id = (
      await call('POST', '/api/settings/webhooks', {
        name: '审计换密钥',
        kind: 'json',
        url: 'https://93.184.216.34/hook',
        events: ['item.waiting'],
      })
    ).json().data.webhook._id;
    expect((await call('POST', `/api/settings/webhooks/${id}/secret`)).statusCode).toBe(200);
    return {
      entries: 2,
      expected: { action: '修改', entity: 'webhook', entityId: id, changes: [{ field: 'secret', before: true, after: true }] },
    };
  },
  'DELETE /api/settings/webhooks/:id': async () => {
    const id = (
      await call('POST', '/api/settings/webhooks', {
        name: '审计删通知',
        kind: 'wecom',
        url: 'https://93.184.216.34/hook',
        events: ['item.waiting'],
      })
    ).json().data.webhook._id;
    expect((await call('DELETE', `/api/settings/webhooks/${id}`)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '删除', entity: 'webhook', entityId: id, title: '通知：审计删通知（企业微信）' } };
  },
  'POST /api/moderation/words': async () => {
    const response = await call('POST', '/api/moderation/words', { word: '审计用词', action: 'flag' });
    return { expected: { action: '新增', entity: 'moderation', entityId: response.json().data._id, title: '敏感词：审计用词（标记）' } };
  },
  'DELETE /api/moderation/words/:id': async () => {
    const id = (await call('POST', '/api/moderation/words', { word: '审计删除', action: 'hold' })).json().data._id;
    expect((await call('DELETE', `/api/moderation/words/${id}`)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '删除', entity: 'moderation', entityId: id, title: '敏感词：审计删除（待审）' } };
  },
  'POST /api/moderation/words/file': async () => {
    expect((await call('POST', '/api/moderation/words/file', { text: '审计导入\t拒绝\n' })).statusCode).toBe(200);
    return {
      expected: {
        action: '导入',
        entity: 'moderation',
        entityId: MODERATION_SETTINGS_ID,
        title: '敏感词（1 行）',
        changes: [
          { field: 'added', after: 1 },
          { field: 'updated', after: 0 },
          { field: 'removed', after: 0 },
          { field: 'unchanged', after: 0 },
        ],
      },
    };
  },
  'POST /api/moderation/recheck': async () => {
    expect((await call('POST', '/api/moderation/recheck', { kinds: ['user'] })).statusCode).toBe(202);
    return {
      expected: {
        action: '重新检查',
        entity: 'moderation',
        entityId: MODERATION_SETTINGS_ID,
        changes: [{ field: 'kinds', after: ['user'] }],
      },
    };
  },
  'PATCH /api/settings/security': async () => {
    // Only an admin whose own session satisfies it may turn it on: root's is made a passkey's.
    await t.database.db.update(adminSessions).set({ signedInWithPasskey: true }).where(eq(adminSessions.adminId, rootId));
    try {
      expect((await call('PATCH', '/api/settings/security', { require2fa: true })).statusCode).toBe(200);
    } finally {
      // Off again behind the API's back, and root's session a password's again: every later case
      // needs every admin free of it.
      await t.database.db.delete(settings).where(eq(settings.key, 'require_2fa'));
      await t.database.db.update(adminSessions).set({ signedInWithPasskey: false }).where(eq(adminSessions.adminId, rootId));
    }
    return {
      expected: {
        action: '修改安全设置',
        entity: 'setting',
        entityId: SECURITY_SETTINGS_ID,
        changes: [{ field: 'require2fa', before: false, after: true }],
        revertible: false,
      },
    };
  },
  'POST /api/admin': async () => {
    const response = await call('POST', '/api/admin', { loginId: 'audit-created', loginPwd: 'password-123', permission: 2 });
    return { expected: { action: '新增', entity: 'admin', entityId: response.json().data._id, title: 'audit-created', adminId: rootId } };
  },
  'PATCH /api/admin/:id': async () => {
    // Made (新增) and signed in (登录) first; then the change under test.
    const target = await t.createAdmin('audit-patched-admin', 2);
    expect((await call('PATCH', `/api/admin/${target.id}`, { nickname: 'renamed', loginPwd: 'new-password-1' })).statusCode).toBe(200);
    return {
      entries: 3,
      expected: {
        action: '修改',
        entity: 'admin',
        entityId: target.id,
        title: 'audit-patched-admin',
        changes: [
          { field: 'nickname', before: '新增管理员', after: 'renamed' },
          { field: 'password', note: '密码已修改' },
        ],
      },
    };
  },
  'DELETE /api/admin/:id': async () => {
    const doomed = await t.createAdmin('audit-doomed', 2);
    expect((await call('DELETE', `/api/admin/${doomed.id}`)).statusCode).toBe(200);
    return { entries: 3, expected: { action: '删除', entity: 'admin', entityId: doomed.id, title: 'audit-doomed' } };
  },
  'POST /api/type': async () => {
    const response = await call('POST', '/api/type', { typeName: 'audit-new-type' });
    return { expected: { action: '新增', entity: 'type', entityId: response.json().data._id, title: 'audit-new-type' } };
  },
  'PATCH /api/type/:id': async () => {
    const id = await fixtures().type('audit-old-name');
    expect((await call('PATCH', `/api/type/${id}`, { typeName: 'audit-new-name' })).statusCode).toBe(200);
    return {
      expected: {
        action: '修改',
        entity: 'type',
        entityId: id,
        changes: [{ field: 'typeName', before: 'audit-old-name', after: 'audit-new-name' }],
      },
    };
  },
  'DELETE /api/type/:id': async () => {
    const id = await fixtures().type('audit-unused');
    expect((await call('DELETE', `/api/type/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'type', entityId: id, title: 'audit-unused' } };
  },
  'POST /api/upload': async () => {
    const { payload, contentType } = multipart([{ name: 'a.png', type: 'image/png', data: png(1, 1) }]);
    const response = await t.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...bearer(root), 'content-type': contentType },
      payload,
    });
    const file = (response.json().data as string).split('/').pop()!;
    return { expected: { action: '新增', entity: 'upload', entityId: file.slice(0, 24), title: file } };
  },
  'POST /api/user': async () => {
    const response = await call('POST', '/api/user', { loginId: 'audit-user', loginPwd: 'password-123' });
    return { expected: { action: '新增', entity: 'user', entityId: response.json().data._id, title: 'audit-user', changes: null } };
  },
  'PATCH /api/user/:id': async () => {
    const id = await fixtures().user({ loginId: 'audit-patched', nickname: '甲' });
    expect((await call('PATCH', `/api/user/${id}`, { nickname: '乙', points: 5, loginPwd: 'another-pass-1' })).statusCode).toBe(200);
    return {
      expected: {
        action: '修改',
        entity: 'user',
        entityId: id,
        title: 'audit-patched',
        changes: [
          { field: 'nickname', before: '甲', after: '乙' },
          { field: 'points', before: 100, after: 5 },
          { field: 'password', note: '密码已修改' },
        ],
        revertible: true,
      },
    };
  },
  'DELETE /api/user/:id': async () => {
    const id = await fixtures().user({ loginId: 'audit-deleted' });
    expect((await call('DELETE', `/api/user/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'user', entityId: id, title: 'audit-deleted', revertible: false } };
  },
  'POST /api/user/batch': async () => {
    const ids = [await fixtures().user(), await fixtures().user()];
    expect((await call('POST', '/api/user/batch', { action: 'disable', ids })).statusCode).toBe(200);
    return { entries: 2, expected: { action: '批量禁用', entity: 'user', changes: [{ field: 'enabled', before: true, after: false }] } };
  },
  'POST /api/user/:id/sanctions': async () => {
    const id = await fixtures().user({ loginId: 'audit-muted' });
    const response = await call('POST', `/api/user/${id}/sanctions`, { kind: 'mute', days: 3, reason: '刷屏' });
    expect(response.statusCode).toBe(201);
    const sanction = response.json().data._id;
    return {
      expected: {
        action: '禁言',
        entity: 'user',
        entityId: id,
        title: 'audit-muted',
        revertible: true,
        changes: [{ field: 'sanction', after: sanction, note: '禁言 3 天：刷屏' }],
      },
    };
  },
  'DELETE /api/user/:id/sanctions/:sanctionId': async () => {
    const id = await fixtures().user({ loginId: 'audit-suspended' });
    const sanction = (await call('POST', `/api/user/${id}/sanctions`, { kind: 'suspend', days: null, reason: '盗号' })).json().data._id;
    expect((await call('DELETE', `/api/user/${id}/sanctions/${sanction}`)).statusCode).toBe(200);
    return {
      entries: 2,
      expected: {
        action: '解除处罚',
        entity: 'user',
        entityId: id,
        revertible: true,
        changes: [{ field: 'sanction', after: sanction, note: '封禁 永久：盗号' }],
      },
    };
  },
  'POST /api/user/:id/notes': async () => {
    const id = await fixtures().user({ loginId: 'audit-noted' });
    expect((await call('POST', `/api/user/${id}/notes`, { body: '老用户' })).statusCode).toBe(201);
    return {
      expected: {
        action: '添加备注',
        entity: 'user',
        entityId: id,
        title: 'audit-noted',
        revertible: false,
        changes: [{ field: 'note', note: '老用户' }],
      },
    };
  },
  'DELETE /api/user/:id/notes/:noteId': async () => {
    const id = await fixtures().user({ loginId: 'audit-unnoted' });
    const note = (await call('POST', `/api/user/${id}/notes`, { body: '待删' })).json().data._id;
    expect((await call('DELETE', `/api/user/${id}/notes/${note}`)).statusCode).toBe(200);
    return {
      entries: 2,
      expected: { action: '删除备注', entity: 'user', entityId: id, revertible: false, changes: [{ field: 'note', note: '待删' }] },
    };
  },
  'POST /api/review/decisions': async () => {
    const userId = await fixtures().user();
    const ids = [
      await fixtures().issue(userId, typeId, { issueStatus: false }),
      await fixtures().issue(userId, typeId, { issueStatus: false }),
    ];
    const items = ids.map((id) => ({ kind: 'issue', id }));
    expect((await call('POST', '/api/review/decisions', { items, decision: 'reject', reason: '广告' })).statusCode).toBe(200);
    return { entries: 2, expected: { action: '审核拒绝', entity: 'issue', revertible: true } };
  },
  'POST /api/review/reasons': async () => {
    const response = await call('POST', '/api/review/reasons', { text: '审计理由' });
    return { expected: { action: '新增', entity: 'reviewReason', entityId: response.json().data._id, title: '审计理由' } };
  },
  'DELETE /api/review/reasons/:id': async () => {
    const id = (await call('POST', '/api/review/reasons', { text: '待删理由' })).json().data._id;
    expect((await call('DELETE', `/api/review/reasons/${id}`)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '删除', entity: 'reviewReason', entityId: id, title: '待删理由' } };
  },
  'POST /api/book': async () => {
    const response = await call('POST', '/api/book', {
      bookTitle: '审计之书',
      downloadLink: 'https://example.com',
      bookIntro: '<p>x</p>',
      requirePoints: 1,
      typeId,
    });
    return { expected: { action: '新增', entity: 'book', entityId: response.json().data._id, title: '审计之书' } };
  },
  'PATCH /api/book/:id': async () => {
    const id = await fixtures().book(typeId, { bookTitle: '旧书名' });
    expect((await call('PATCH', `/api/book/${id}`, { bookTitle: '新书名' })).statusCode).toBe(200);
    return {
      expected: {
        action: '修改',
        entity: 'book',
        entityId: id,
        title: '新书名',
        changes: [{ field: 'bookTitle', before: '旧书名', after: '新书名' }],
      },
    };
  },
  'DELETE /api/book/:id': async () => {
    const id = await fixtures().book(typeId, { bookTitle: '要删的书' });
    expect((await call('DELETE', `/api/book/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'book', entityId: id, title: '要删的书' } };
  },
  'POST /api/book/batch': async () => {
    const ids = [await fixtures().book(typeId), await fixtures().book(typeId), await fixtures().book(typeId)];
    expect((await call('POST', '/api/book/batch', { action: 'delete', ids })).statusCode).toBe(200);
    return { entries: 3, expected: { action: '批量删除', entity: 'book' } };
  },
  'POST /api/interview': async () => {
    const response = await call('POST', '/api/interview', { interviewTitle: '审计面试题', interviewContent: '<p>x</p>', typeId });
    return { expected: { action: '新增', entity: 'interview', entityId: response.json().data._id, title: '审计面试题' } };
  },
  'PATCH /api/interview/:id': async () => {
    const id = await fixtures().interview(typeId);
    expect((await call('PATCH', `/api/interview/${id}`, { interviewContent: '<p>新内容</p>' })).statusCode).toBe(200);
    return {
      expected: {
        action: '修改',
        entity: 'interview',
        entityId: id,
        changes: [{ field: 'interviewContent', before: '<p>answer</p>', after: '<p>新内容</p>' }],
      },
    };
  },
  'DELETE /api/interview/:id': async () => {
    const id = await fixtures().interview(typeId);
    expect((await call('DELETE', `/api/interview/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'interview', entityId: id } };
  },
  'POST /api/interview/batch': async () => {
    const id = await fixtures().interview(typeId);
    expect((await call('POST', '/api/interview/batch', { action: 'delete', ids: [id] })).statusCode).toBe(200);
    return { expected: { action: '批量删除', entity: 'interview', entityId: id } };
  },
  'POST /api/issue': async () => {
    const userId = await fixtures().user();
    const response = await call('POST', '/api/issue', { issueTitle: '审计问答', issueContent: '<p>x</p>', userId, typeId });
    return { expected: { action: '新增', entity: 'issue', entityId: response.json().data._id, title: '审计问答' } };
  },
  'PATCH /api/issue/:id': async () => {
    const id = await fixtures().issue(await fixtures().user(), typeId, { issueTitle: '待审' });
    expect((await call('PATCH', `/api/issue/${id}`, { issueStatus: true })).statusCode).toBe(200);
    return {
      expected: {
        action: '审核通过',
        entity: 'issue',
        entityId: id,
        title: '待审',
        changes: [{ field: 'issueStatus', before: false, after: true }],
      },
    };
  },
  'DELETE /api/issue/:id': async () => {
    const id = await fixtures().issue(await fixtures().user(), typeId);
    expect((await call('DELETE', `/api/issue/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'issue', entityId: id } };
  },
  'POST /api/issue/batch': async () => {
    const userId = await fixtures().user();
    const ids = [await fixtures().issue(userId, typeId), await fixtures().issue(userId, typeId)];
    expect((await call('POST', '/api/issue/batch', { action: 'approve', ids })).statusCode).toBe(200);
    return { entries: 2, expected: { action: '批量审核通过', entity: 'issue', revertible: true } };
  },
  'POST /api/comment': async () => {
    const userId = await fixtures().user();
    const issueId = await fixtures().issue(userId, typeId);
    const response = await call('POST', '/api/comment', { userId, commentType: 1, issueId, commentContent: '<p>很好的<b>问题</b></p>' });
    return { expected: { action: '新增', entity: 'comment', entityId: response.json().data._id, title: '很好的 问题' } };
  },
  'DELETE /api/comment/:id': async () => {
    const userId = await fixtures().user();
    const id = await fixtures().comment({ userId, typeId, issueId: await fixtures().issue(userId, typeId) });
    expect((await call('DELETE', `/api/comment/${id}`)).statusCode).toBe(200);
    return { expected: { action: '删除', entity: 'comment', entityId: id } };
  },
  'POST /api/comment/batch': async () => {
    const userId = await fixtures().user();
    const id = await fixtures().comment({ userId, typeId, issueId: await fixtures().issue(userId, typeId) });
    expect((await call('POST', '/api/comment/batch', { action: 'delete', ids: [id] })).statusCode).toBe(200);
    return { expected: { action: '批量删除', entity: 'comment', entityId: id } };
  },
  // The bin's restore and purge are recorded on the binned record, after its 删除 (the delete's entry).
  'POST /api/trash/:id/restore': async () => {
    const id = await fixtures().book(typeId, { bookTitle: '回收再恢复' });
    expect((await call('DELETE', `/api/book/${id}`)).statusCode).toBe(200);
    const entry = await binEntry('book', id);
    expect((await call('POST', `/api/trash/${entry}/restore`)).statusCode).toBe(200);
    expect((await history('book', id)).map((e) => e.action)).toEqual(['恢复', '删除']);
    return {
      entries: 2,
      expected: { action: '恢复', entity: 'book', entityId: id, title: '回收再恢复', changes: null, revertible: false },
    };
  },
  'DELETE /api/trash/:id': async () => {
    const userId = await fixtures().user({ loginId: 'audit-purged' });
    expect((await call('DELETE', `/api/user/${userId}`)).statusCode).toBe(200);
    const entry = await binEntry('user', userId);
    expect((await call('DELETE', `/api/trash/${entry}`)).statusCode).toBe(200);
    return { entries: 2, expected: { action: '彻底删除', entity: 'user', entityId: userId, title: 'audit-purged', changes: null } };
  },
  'POST /api/audit/:auditId/revert': async () => {
    const id = await fixtures().user({ nickname: '原名' });
    await call('PATCH', `/api/user/${id}`, { nickname: '改名' });
    const [change] = await history('user', id);
    expect((await call('POST', `/api/audit/${change._id}/revert`)).statusCode).toBe(200);
    return {
      entries: 2,
      expected: { action: '恢复', entity: 'user', entityId: id, changes: [{ field: 'nickname', before: '改名', after: '原名' }] },
    };
  },
};

/** The bin entry of a deleted record. */
async function binEntry(entity: string, entityId: string): Promise<string> {
  const page = (await call('GET', `/api/trash?entity=${entity}&pageSize=100`)).json().data;
  const entry = page.data.find((e: { entityId: string }) => e.entityId === entityId);
  expect(entry).toBeDefined();
  return entry._id;
}

/**
 * An export is a read, recorded anyway: one 导出 entry per download, with the list (entity and
 * title), the filters given and the number of rows sent. One case per export route.
 */
const EXPORT_CASES: Record<string, () => Promise<{ query: string; rows: number; expected: Expected }>> = {
  'GET /api/user/export': async () => {
    await fixtures().user({ loginId: 'audit-export-a' });
    await fixtures().user({ loginId: 'audit-export-b' });
    return {
      query: 'loginId=audit-export',
      rows: 2,
      expected: {
        entity: 'user',
        title: '用户列表（2 行）',
        changes: [
          { field: 'loginId', after: 'audit-export' },
          { field: 'rows', after: 2 },
        ],
      },
    };
  },
  'GET /api/book/export': async () => {
    await fixtures().book(typeId, { bookTitle: '导出审计之书' });
    return {
      query: `bookTitle=${encodeURIComponent('导出审计')}`,
      rows: 1,
      expected: {
        entity: 'book',
        title: '书籍列表（1 行）',
        changes: [
          { field: 'bookTitle', after: '导出审计' },
          { field: 'rows', after: 1 },
        ],
      },
    };
  },
  'GET /api/interview/export': async () => {
    const other = await fixtures().type('audit-export-type');
    await fixtures().interview(other);
    await fixtures().interview(other);
    await fixtures().interview(other);
    return {
      query: `typeId=${other}`,
      rows: 3,
      expected: {
        entity: 'interview',
        title: '题目列表（3 行）',
        changes: [
          { field: 'typeId', after: other },
          { field: 'rows', after: 3 },
        ],
      },
    };
  },
  'GET /api/issue/export': async () => {
    await fixtures().issue(await fixtures().user(), typeId, { issueTitle: '导出审计问答' });
    return {
      query: `issueTitle=${encodeURIComponent('导出审计问答')}&issueStatus=false`,
      rows: 1,
      expected: {
        entity: 'issue',
        title: '问答列表（1 行）',
        changes: [
          { field: 'issueTitle', after: '导出审计问答' },
          { field: 'issueStatus', after: 'false' },
          { field: 'rows', after: 1 },
        ],
      },
    };
  },
  'GET /api/comment/export': async () => {
    return {
      query: `commentContent=${encodeURIComponent('没有这样的评论')}`,
      rows: 0,
      expected: {
        entity: 'comment',
        title: '问答评论列表（0 行）',
        changes: [
          { field: 'commentContent', after: '没有这样的评论' },
          { field: 'commentType', after: 1 },
          { field: 'rows', after: 0 },
        ],
      },
    };
  },
};

EXPORT_CASES['GET /api/audit/export'] = async () => ({
  query: `record=${encodeURIComponent('没有这样的记录')}`,
  rows: 0,
  expected: {
    entity: 'audit',
    title: '操作日志（0 行）',
    changes: [
      { field: 'record', after: '没有这样的记录' },
      { field: 'rows', after: 0 },
    ],
  },
});

describe('every export is in the audit log', () => {
  it('every export route has a case', () => {
    const exports = t.app.routeCatalog.filter((route) => route.method === 'GET' && route.url.endsWith('/export')).map(routeKey);
    expect(exports.sort()).toEqual(Object.keys(EXPORT_CASES).sort());
  });

  it.each(Object.keys(EXPORT_CASES))('%s records one 导出 entry', async (key) => {
    const { query, rows, expected } = await EXPORT_CASES[key]();
    const before = await entryCount();
    const response = await call('GET', `${key.split(' ')[1]}?${query}`, undefined, normal.token);
    expect(response.statusCode).toBe(200);
    // The header line, then one line per row.
    expect(response.body.trim().split('\r\n')).toHaveLength(rows + 1);
    expect(await entryCount()).toBe(before + 1);
    const [entry] = await latest();
    expect(entry).toMatchObject({ action: '导出', adminId: normal.id, adminLoginId: 'audit-normal', revertible: false, ...expected });
    expect(entry.entityId).toMatch(/^[0-9a-f]{24}$/);
  });
});

/**
 * Write routes whose audit entry another change brings (none today). A route may be listed here
 * only while its recording is being built elsewhere; the list is reported, never silently grown.
 */
const PENDING: string[] = [];

/** Write methods that write nothing: presence only tells other admins who looks at what. */
// 发送测试 sends one message now: the delivery log (投递记录) keeps it, as it keeps every delivery.
const NOT_WRITES = ['POST /api/review/presence', 'POST /api/settings/webhooks/:id/test'];
/** POST routes that change nothing (a dry run): they must leave the log as it was. */
const READ_ONLY_POSTS = ['POST /api/moderation/test'];

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

describe('every write through the API is in the audit log', () => {
  it('every write route has a case', () => {
    const writes = t.app.routeCatalog
      .filter((route) => WRITE_METHODS.has(route.method))
      .map(routeKey)
      .filter((key) => !NOT_WRITES.includes(key));
    expect(writes.sort()).toEqual([...Object.keys(CASES), ...PENDING, ...READ_ONLY_POSTS].sort());
  });

  it('POST /api/moderation/test writes nothing', async () => {
    const before = await entryCount();
    expect((await call('POST', '/api/moderation/test', { text: '审计用词' })).statusCode).toBe(200);
    expect(await entryCount()).toBe(before);
  });

  it.each(Object.keys(CASES))('%s records its entry', async (key) => {
    const before = await entryCount();
    const started = t.clock.now();
    const { entries = 1, expected } = await CASES[key]();
    expect(await entryCount()).toBe(before + entries);
    const [entry] = await latest();
    expect(entry).toMatchObject({ adminId: expected.adminId ?? rootId, ...expected });
    expect(entry.at).toBeGreaterThanOrEqual(started);
    expect(JSON.stringify(entry)).not.toMatch(/argon2|passwordHash|password_hash|loginPwd/);
  });

  it('a write that fails leaves no entry, and an entry that cannot be written undoes the write', async () => {
    const taken = await fixtures().user({ loginId: 'audit-taken' });
    const other = await fixtures().user({ loginId: 'audit-other', nickname: 'keep' });
    const before = await entryCount();
    expect((await call('PATCH', `/api/user/${other}`, { loginId: 'audit-taken' })).statusCode).toBe(409);
    expect((await call('PATCH', `/api/user/${UNKNOWN_ID}`, { nickname: 'x' })).statusCode).toBe(404);
    expect(await entryCount()).toBe(before);
    expect(taken).toBeTruthy();

    await t.database.db.execute(
      sql.raw(`
      create or replace function test_refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'refused by test trigger'; end $$`),
    );
    await t.database.db.execute(
      sql.raw('create trigger test_refuse_audit before insert on audit_log for each row execute function test_refuse_audit()'),
    );
    try {
      expect((await call('PATCH', `/api/user/${other}`, { nickname: 'lost' })).statusCode).toBe(500);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger test_refuse_audit on audit_log'));
    }
    const [row] = await t.database.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, other));
    expect(row.nickname).toBe('keep');
  });

  it('keeps the account the admin had at the time after the admin is gone', async () => {
    const gone = await t.createAdmin('audit-gone', 2);
    const userId = await fixtures().user();
    await call('PATCH', `/api/user/${userId}`, { nickname: 'by-gone' }, gone.token);
    await call('DELETE', `/api/admin/${gone.id}`);
    const [entry] = (await history('user', userId)).filter((e) => e.adminId === gone.id);
    expect(entry).toMatchObject({ adminLoginId: 'audit-gone', action: '修改' });
  });
});

describe('GET /api/audit', () => {
  it('pages newest first in the shape of every list, and filters by admin, entity, action and time', async () => {
    const userId = await fixtures().user({ loginId: 'audit-filter' });
    const from = t.clock.now();
    t.clock.advance(1000);
    await call('PATCH', `/api/user/${userId}`, { nickname: 'f1' });
    t.clock.advance(1000);
    await call('PATCH', `/api/user/${userId}`, { enabled: false }, normal.token);
    t.clock.advance(1000);
    const page = (await call('GET', `/api/audit?current=1&pageSize=2&from=${from}`)).json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 2, count: 2, totalPage: 1 });
    expect(page.data.map((e: AuditEntry) => e.action)).toEqual(['禁用', '修改']);

    const byAdmin = (await call('GET', `/api/audit?adminId=${normal.id}&from=${from}`)).json().data;
    expect(byAdmin.data.map((e: AuditEntry) => e.action)).toEqual(['禁用']);
    const byAction = (await call('GET', `/api/audit?action=${encodeURIComponent('修改')}&entity=user&from=${from}`)).json().data;
    expect(byAction.data.map((e: AuditEntry) => e.changes)).toEqual([[{ field: 'nickname', before: '用户', after: 'f1' }]]);
    const before = (await call('GET', `/api/audit?to=${from}&entity=user&action=${encodeURIComponent('修改')}`)).json().data;
    expect(before.data.every((e: AuditEntry) => e.at <= from)).toBe(true);
    expect((await call('GET', '/api/audit?entity=nothing')).statusCode).toBe(400);
    expect((await call('GET', '/api/audit?action=drop')).statusCode).toBe(400);
  });

  it("shows a normal admin their own entries only, and refuses them another admin's", async () => {
    const all = (await call('GET', '/api/audit?pageSize=100', undefined, normal.token)).json().data;
    expect(all.count).toBeGreaterThan(0);
    expect(all.data.every((e: AuditEntry) => e.adminId === normal.id)).toBe(true);
    expect((await call('GET', `/api/audit?adminId=${normal.id}`, undefined, normal.token)).statusCode).toBe(200);
    const refused = await call('GET', `/api/audit?adminId=${rootId}`, undefined, normal.token);
    expect(refused.statusCode).toBe(403);
    const everyone = (await call('GET', '/api/audit?pageSize=100')).json().data;
    expect(new Set(everyone.data.map((e: AuditEntry) => e.adminId)).size).toBeGreaterThan(1);
  });

  it("a record's history is everyone's writes to it; an admin account's is its own or a super admin's", async () => {
    const userId = await fixtures().user();
    await call('PATCH', `/api/user/${userId}`, { nickname: 'a' });
    await call('PATCH', `/api/user/${userId}`, { nickname: 'b' }, normal.token);
    expect((await history('user', userId, normal.token)).map((e) => e.changes?.[0].after)).toEqual(['b', 'a']);
    expect((await call('GET', `/api/audit/admin/${rootId}`, undefined, normal.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/audit/session/${rootId}`, undefined, normal.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/audit/admin/${normal.id}`, undefined, normal.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/audit/admin/${normal.id}`)).statusCode).toBe(200);
  });

  it('is served by the indexes: no sequential scan of audit_log for any filter', async () => {
    // Enough rows that the planner would rather scan a table it had to read whole. In slices: on
    // PostgreSQL each statement has the server's 2 s bound, which one insert of all of them passed
    // on a loaded CI machine (its connection was dropped).
    for (let from = 1; from <= 20_000; from += 4_000) {
      await t.database.db.execute(sql`
        insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
        select ${t.clock.now()}::bigint - g, lpad(to_hex(g % 7), 24, '0'), 'x', (array['新增','修改','删除'])[g % 3 + 1],
          (array['user','book','issue'])[g % 3 + 1], lpad(to_hex(g), 24, '0'), 't'
        from generate_series(${from}::int, ${from + 3_999}::int) g`);
    }
    await t.database.db.execute(sql`analyze audit_log`);
    const plans: string[] = [];
    for (const where of [
      sql`true`,
      sql`admin_id = ${rootId}`,
      sql`entity = 'book'`,
      sql`action = '删除'`,
      sql`at >= 5 and at <= 10`,
      // The 记录 filter: an id whatever the entity, a title's substring through its grams.
      sql`entity_id = ${UNKNOWN_ID}`,
      sql`search_grams(title) @> search_term_grams('审计') and title ilike '%审计%'`,
    ]) {
      const rows = await t.database.db.execute(
        sql`explain select * from audit_log where ${where} order by at desc nulls last, id desc nulls last limit 10`,
      );
      plans.push(JSON.stringify(rows));
    }
    const rows = await t.database.db.execute(
      sql`explain select * from audit_log where entity = 'user' and entity_id = ${UNKNOWN_ID} order by at desc nulls last, id desc nulls last limit 200`,
    );
    plans.push(JSON.stringify(rows));
    for (const plan of plans) expect(plan).not.toContain('Seq Scan');
    await t.database.db.execute(sql`delete from audit_log where admin_login_id = 'x'`);
  });
});

describe('what happened to this record', () => {
  it('filters by record: its id exactly (any entity) or a substring of its title, in any case', async () => {
    const userId = await fixtures().user({ loginId: 'audit-record-Zebra', nickname: '斑马' });
    await call('PATCH', `/api/user/${userId}`, { nickname: '斑马二号' });
    await call('PATCH', `/api/user/${userId}`, { points: 7 });
    const bookId = await fixtures().book(typeId, { bookTitle: 'Zebra 之书' });
    await call('PATCH', `/api/book/${bookId}`, { bookTitle: 'Zebra 之书（二）' });

    const byId = (await call('GET', `/api/audit?record=${userId}`)).json().data;
    expect(byId.count).toBe(2);
    expect(byId.data.every((e: AuditEntry) => e.entityId === userId && e.entity === 'user')).toBe(true);
    // Upper-case hex is the same id.
    expect((await call('GET', `/api/audit?record=${userId.toUpperCase()}`)).json().data.count).toBe(2);

    const byTitle = (await call('GET', `/api/audit?record=zebra&pageSize=50`)).json().data;
    expect(byTitle.data.map((e: AuditEntry) => e.entityId).sort()).toEqual([bookId, userId, userId].sort());
    // One Chinese character is a search too; `%` is taken literally.
    expect((await call('GET', `/api/audit?record=${encodeURIComponent('二')}&entity=book`)).json().data.data).toHaveLength(1);
    expect((await call('GET', `/api/audit?record=${encodeURIComponent('%')}`)).json().data.count).toBe(0);
    // A longer term with no letter case (matched with LIKE), full-width brackets included.
    expect((await call('GET', `/api/audit?record=${encodeURIComponent('之书（二）')}`)).json().data.count).toBe(1);
    // Combined with the other filters, and a normal admin's own entries only.
    expect((await call('GET', `/api/audit?record=zebra&entity=book`)).json().data.count).toBe(1);
    expect((await call('GET', `/api/audit?record=zebra`, undefined, normal.token)).json().data.count).toBe(0);
    expect((await call('GET', `/api/audit?record=${'x'.repeat(121)}`)).statusCode).toBe(400);
  });

  it('names what an entry refers to: a type by its name, a user by nickname and account; says whether the record is still there', async () => {
    const other = await fixtures().type('审计-另一分类');
    const bookId = await fixtures().book(typeId, { bookTitle: '换分类的书' });
    expect((await call('PATCH', `/api/book/${bookId}`, { typeId: other })).statusCode).toBe(200);
    const [changed] = await history('book', bookId);
    expect(changed.changes).toEqual([
      { field: 'typeId', before: typeId, after: other, beforeName: 'audit-type', afterName: '审计-另一分类' },
    ]);
    expect(changed.recordExists).toBe(true);

    const userId = await fixtures().user({ loginId: 'audit-asker', nickname: '提问的人' });
    const issueId = await fixtures().issue(userId, typeId, { issueTitle: '审计问答' });
    const comment = await call('POST', '/api/comment', { userId, commentType: 1, issueId, commentContent: '<p>审计评论</p>' });
    expect(comment.statusCode).toBe(201);
    const commentId = comment.json().data._id;
    const [created] = await history('comment', commentId);
    expect(created).toMatchObject({ recordExists: true, parentId: issueId, parentEntity: 'issue' });

    expect((await call('DELETE', `/api/book/${bookId}`)).statusCode).toBe(200);
    const afterDelete = await history('book', bookId);
    expect(afterDelete.every((e) => e.recordExists === false)).toBe(true);
    // Sign-ins and exports are no records: they say nothing about one.
    const [login] = (await call('GET', `/api/audit?action=${encodeURIComponent('登录')}&pageSize=1`)).json().data.data;
    expect(login.recordExists).toBeUndefined();
  });

  it('GET /api/audit/export: the filtered entries as CSV, changes in Chinese with names, a normal admin their own', async () => {
    const bookId = await fixtures().book(typeId, { bookTitle: '导出日志之书' });
    const other = await fixtures().type('导出日志分类');
    await call('PATCH', `/api/book/${bookId}`, { typeId: other, bookTitle: '=导出日志之书' });
    const response = await call('GET', `/api/audit/export?record=${bookId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(encodeURIComponent('操作日志-'));
    const lines = response.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('时间,管理员,对象,操作,记录,记录 ID,变更');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},root,书籍,修改,'=导出日志之书,[0-9a-f]{24},/);
    expect(lines[1]).toContain('分类：audit-type → 导出日志分类');
    expect(lines[1]).toContain('书籍标题：导出日志之书 → =导出日志之书');
    expect(lines[1]).not.toContain('typeId');

    // The export's own entry reads as a sentence, with the filter's name.
    await call('GET', `/api/book/export?typeId=${other}`);
    const [exported] = await latest();
    expect(exported.changes).toEqual([
      { field: 'typeId', after: other, afterName: '导出日志分类' },
      { field: 'rows', after: 1 },
    ]);

    const mine = await call('GET', '/api/audit/export', undefined, normal.token);
    expect(mine.statusCode).toBe(200);
    const admins = mine.body
      .slice(1)
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(admins.length).toBeGreaterThan(0);
    expect(new Set(admins)).toEqual(new Set(['audit-normal']));
    expect((await call('GET', `/api/audit/export?adminId=${rootId}`, undefined, normal.token)).statusCode).toBe(403);
  });
});

describe('POST /api/audit/:auditId/revert', () => {
  async function changedUser(from: string, to: string) {
    const id = await fixtures().user({ nickname: from });
    await call('PATCH', `/api/user/${id}`, { nickname: to });
    const [entry] = await history('user', id);
    return { id, entry };
  }

  it('puts the fields back, records 恢复, and the revert itself can be reverted', async () => {
    const { id, entry } = await changedUser('小明', '小红');
    const response = await call('POST', `/api/audit/${entry._id}/revert`, undefined, normal.token);
    expect(response.statusCode).toBe(200);
    const [reverted] = response.json().data as AuditEntry[];
    expect(reverted).toMatchObject({
      action: '恢复',
      adminId: normal.id,
      changes: [{ field: 'nickname', before: '小红', after: '小明' }],
      revertible: true,
    });
    expect((await call('GET', `/api/user/${id}`)).json().data.nickname).toBe('小明');
    expect((await call('POST', `/api/audit/${reverted._id}/revert`)).statusCode).toBe(200);
    expect((await call('GET', `/api/user/${id}`)).json().data.nickname).toBe('小红');
  });

  it('answers 409 naming the field when the record changed since in those fields, and changes nothing', async () => {
    const { id, entry } = await changedUser('一', '二');
    await call('PATCH', `/api/user/${id}`, { nickname: '三' });
    const before = await entryCount();
    const response = await call('POST', `/api/audit/${entry._id}/revert`);
    expect(response.statusCode).toBe(409);
    expect(response.json().msg).toBe('该记录此后又被修改过，无法恢复（昵称）');
    expect((await call('GET', `/api/user/${id}`)).json().data.nickname).toBe('三');
    expect(await entryCount()).toBe(before);
    // A change to another field since does not stand in the way.
    const other = await changedUser('四', '五');
    await call('PATCH', `/api/user/${other.id}`, { points: 7 });
    expect((await call('POST', `/api/audit/${other.entry._id}/revert`)).statusCode).toBe(200);
  });

  it('answers 409 when the record is in the bin (saying so), and when it is gone for good', async () => {
    const { id, entry } = await changedUser('六', '七');
    await call('DELETE', `/api/user/${id}`);
    const binned = await call('POST', `/api/audit/${entry._id}/revert`);
    expect({ status: binned.statusCode, msg: binned.json().msg }).toEqual({
      status: 409,
      msg: '该记录在回收站中：请先在回收站恢复它，再撤销此修改',
    });

    const trashed = (await call('GET', '/api/trash?pageSize=100')).json().data.data.find((e: { entityId: string }) => e.entityId === id);
    await t.prove(root, ROOT_PASSWORD);
    expect((await call('DELETE', `/api/trash/${trashed._id}`)).statusCode).toBe(200);
    const purged = await call('POST', `/api/audit/${entry._id}/revert`);
    expect({ status: purged.statusCode, msg: purged.json().msg }).toEqual({ status: 409, msg: '该记录已被删除，无法恢复' });
  });

  it('refuses entries that are not changes, a password alone, and unknown entries', async () => {
    const created = (await call('POST', '/api/user', { loginId: 'audit-revert-create', loginPwd: 'password-123' })).json().data._id;
    const [createEntry] = await history('user', created);
    expect(createEntry.revertible).toBe(false);
    expect((await call('POST', `/api/audit/${createEntry._id}/revert`)).json()).toMatchObject({
      code: 400,
      msg: '只有修改类的记录可以恢复',
    });
    await call('PATCH', `/api/user/${created}`, { loginPwd: 'changed-pass-1' });
    const [passwordEntry] = await history('user', created);
    expect(passwordEntry).toMatchObject({ changes: [{ field: 'password', note: '密码已修改' }], revertible: false });
    expect((await call('POST', `/api/audit/${passwordEntry._id}/revert`)).json()).toMatchObject({ code: 400, msg: '密码的修改无法恢复' });
    expect((await call('POST', '/api/audit/999999999/revert')).json()).toMatchObject({ code: 404, msg: '操作记录不存在' });
  });

  it('needs the permission the original change needed', async () => {
    await call('PATCH', `/api/admin/${rootId}`, { nickname: 'root-renamed' });
    const [rootChange] = await history('admin', rootId);
    expect((await call('POST', `/api/audit/${rootChange._id}/revert`, undefined, normal.token)).statusCode).toBe(403);
    expect((await call('POST', `/api/audit/${rootChange._id}/revert`)).statusCode).toBe(200);
    // A super admin's disabling of a normal admin: only a super admin may put it back.
    const target = await t.createAdmin('audit-disabled', 2);
    await call('PATCH', `/api/admin/${target.id}`, { enabled: false });
    const [disabled] = await history('admin', target.id);
    expect(disabled.action).toBe('禁用');
    expect((await call('POST', `/api/audit/${disabled._id}/revert`, undefined, normal.token)).statusCode).toBe(403);
    expect((await call('POST', `/api/audit/${disabled._id}/revert`)).statusCode).toBe(200);
    expect((await call('GET', `/api/admin/${target.id}`)).json().data.enabled).toBe(true);
  });
});

describe('bulk actions', () => {
  it('approves several issues at once, one entry per issue from one insert', async () => {
    const userId = await fixtures().user();
    const ids = [await fixtures().issue(userId, typeId), await fixtures().issue(userId, typeId), await fixtures().issue(userId, typeId)];
    const response = await call('POST', '/api/issue/batch', { action: 'approve', ids: [...ids, ids[0]] });
    expect(response.json()).toMatchObject({ success: true, data: { done: 3 } });
    const rows = await t.database.db
      .select({ id: issues.id, issueStatus: issues.issueStatus })
      .from(issues)
      .where(eq(issues.userId, userId));
    expect(rows.every((row) => row.issueStatus)).toBe(true);
    for (const id of ids) expect((await history('issue', id))[0]).toMatchObject({ action: '批量审核通过', entityId: id });
    const listed = (await call('GET', `/api/issue?issueStatus=true&pageSize=100`)).json().data;
    const [{ n }] = await t.database.db.select({ n: count() }).from(issues).where(eq(issues.issueStatus, true));
    expect(listed.count).toBe(Number(n));

    // The statements a batch sends do not grow with its size: one update and one insert.
    const few = [await fixtures().issue(userId, typeId), await fixtures().issue(userId, typeId)];
    const many = await Promise.all(Array.from({ length: 30 }, () => fixtures().issue(userId, typeId)));
    const small = await t.countQueries(() => call('POST', '/api/issue/batch', { action: 'approve', ids: few }));
    const large = await t.countQueries(() => call('POST', '/api/issue/batch', { action: 'approve', ids: many }));
    expect(large).toBe(small);
  });

  it('changes nothing and names the unknown ids when one is unknown', async () => {
    const userId = await fixtures().user();
    const known = await fixtures().issue(userId, typeId);
    const before = await entryCount();
    const response = await call('POST', '/api/issue/batch', { action: 'delete', ids: [known, UNKNOWN_ID] });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toBe(`以下记录不存在，未做任何修改：${UNKNOWN_ID}`);
    expect((await call('GET', `/api/issue/${known}`)).statusCode).toBe(200);
    expect(await entryCount()).toBe(before);
  });

  it('is all or nothing when a delete fails midway', async () => {
    const userId = await fixtures().user();
    const ids = [await fixtures().book(typeId), await fixtures().book(typeId)];
    await fixtures().comment({ userId, typeId, bookId: ids[1], commentType: 2 });
    const before = await entryCount();
    await fixtures().failOn('comments', 'delete');
    try {
      expect((await call('POST', '/api/book/batch', { action: 'delete', ids })).statusCode).toBe(500);
    } finally {
      await fixtures().stopFailing('comments', 'delete');
    }
    for (const id of ids) expect((await call('GET', `/api/book/${id}`)).statusCode).toBe(200);
    expect(await entryCount()).toBe(before);
  });

  it('refuses an action that does not belong to the resource, too many ids, and none', async () => {
    const userId = await fixtures().user();
    for (const [url, action] of [
      ['/api/user/batch', 'approve'],
      ['/api/book/batch', 'enable'],
      ['/api/issue/batch', 'disable'],
      ['/api/comment/batch', 'approve'],
      ['/api/interview/batch', 'purge'],
    ]) {
      const response = await call('POST', url, { action, ids: [userId] });
      expect({ url, action, status: response.statusCode }).toEqual({ url, action, status: 400 });
      expect(response.json().msg).toContain('action');
    }
    const tooMany = Array.from({ length: 201 }, (_, i) => i.toString(16).padStart(24, '0'));
    expect((await call('POST', '/api/user/batch', { action: 'enable', ids: tooMany })).statusCode).toBe(400);
    expect((await call('POST', '/api/user/batch', { action: 'enable', ids: [] })).statusCode).toBe(400);
    expect((await call('POST', '/api/user/batch', { action: 'enable', ids: ['not-an-id'] })).statusCode).toBe(400);
  });

  it('deletes users in bulk for a super admin only, with what goes with them', async () => {
    const ids = [await fixtures().user(), await fixtures().user()];
    const issueId = await fixtures().issue(ids[0], typeId);
    const refused = await call('POST', '/api/user/batch', { action: 'delete', ids }, normal.token);
    expect(refused.statusCode).toBe(403);
    expect((await call('GET', `/api/user/${ids[0]}`)).statusCode).toBe(200);
    expect((await call('POST', '/api/user/batch', { action: 'enable', ids }, normal.token)).statusCode).toBe(200);
    expect((await call('POST', '/api/user/batch', { action: 'delete', ids })).json().data).toEqual({ done: 2 });
    expect((await call('GET', `/api/issue/${issueId}`)).statusCode).toBe(404);
    const [{ n }] = await t.database.db.select({ n: count() }).from(users);
    expect((await call('GET', '/api/user')).json().data.count).toBe(Number(n));
    expect((await history('user', ids[1]))[0]).toMatchObject({ action: '批量删除' });
  });
});

describe('retention', () => {
  it('AUDIT_RETENTION_DAYS defaults to 365 and a bad value names the variable', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    for (const value of ['0', '-1', 'abc', '1.5', '36501']) {
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ AUDIT_RETENTION_DAYS: value })).toThrow('AUDIT_RETENTION_DAYS');
    }
  });

  it('the server removes entries older than the retention, in batches, on its timer', async () => {
    const repo = createAuditRepository(t.database.db);
    const at = t.clock.now();
    const old = PURGE_BATCH + 500;
    await t.database.db.execute(sql`
      insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
      select ${at - 31 * DAY_MS}::bigint - g, ${rootId}, 'old', '修改', 'user', ${UNKNOWN_ID}, 'old' from generate_series(1, ${old}::int) g`);
    await t.database.db.execute(sql`
      insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
      values (${at - 29 * DAY_MS}::bigint, ${rootId}, 'recent', '修改', 'user', ${UNKNOWN_ID}, 'recent')`);
    const remaining = async (login: string) =>
      Number((await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.adminLoginId, login)))[0].n);

    const retention = createAuditRetention({ repo, days: 30, now: t.clock.now, intervalMs: 20 });
    retention.start();
    try {
      for (let i = 0; i < 200 && (await remaining('old')) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await retention.stop();
    }
    expect(await remaining('old')).toBe(0);
    expect(await remaining('recent')).toBe(1);

    // The clock moves on: what was recent expires in its turn.
    t.clock.advance(2 * DAY_MS);
    expect(await retention.runOnce()).toBe(1);
    expect(await remaining('recent')).toBe(0);
  });
});
