import { and, eq } from 'drizzle-orm';
import { adminPasskeys, adminRecoveryCodes, admins, auditLog, loginChallenges } from '../../db/schema';
import { ROOT_LOGIN, bearer, createTestContext, passwordOf, type TestContext } from '../../../test/harness';
import { verifyChain } from '../audit/audit.chain';
import { RESET_SIGN_IN_ACTOR, resetSignIn, SignInResetRefusal } from './reset-sign-in';

/**
 * resetSignIn, what `npm run admin:reset` does (the command itself: test/admin-reset.test.ts): an
 * account nobody can sign in to gets a new password and loses every other way in, in one
 * transaction with its audit entry.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

let ipSerial = 0;
const freshIp = () => `10.31.${Math.floor(++ipSerial / 250)}.${(ipSerial % 250) + 1}`;
const whoami = (token: string) => t.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) });
const reset = (loginId: string, options: { enable?: boolean } = {}) =>
  resetSignIn(t.database.db, loginId, { ...options, now: t.clock.now });

it('gives a new password to change at once, turns two-step and passkeys off, ends the sessions and the pending second step', async () => {
  const { id, token } = await t.createAdmin('reset-all', 1);
  await t.enableTwoFactor(token);
  await t.database.db.insert(adminPasskeys).values({
    id: 'a11cede5a11cede5a11cede5',
    adminId: id,
    credentialId: 'reset-all-credential',
    publicKey: Buffer.from([1, 2, 3]),
    name: '别人加的钥匙',
    createdAt: t.clock.now(),
  });
  // A sign-in waiting at its second step (the password was right): it must not survive.
  const pending = await t.login('reset-all', passwordOf('reset-all'), { ip: freshIp() });
  expect(pending.json().data.twoFactorRequired).toBe(true);

  const done = await reset('reset-all');
  expect(done).toMatchObject({ loginId: 'reset-all', twoFactorWasOn: true, recoveryCodes: 10, passkeys: 1, sessions: 1, enabled: false });

  expect((await whoami(token)).statusCode).toBe(401);
  expect((await t.login('reset-all', passwordOf('reset-all'), { ip: freshIp() })).statusCode).toBe(401);
  const signedIn = await t.login('reset-all', done.password, { ip: freshIp() });
  expect(signedIn.statusCode).toBe(200);
  // No second step any more, and the generated password is to be changed before anything else.
  const me = await whoami(signedIn.json().data.token);
  expect(me.json().data).toMatchObject({ loginId: 'reset-all', mustChangePassword: true });

  const [row] = await t.database.db.select().from(admins).where(eq(admins.id, id));
  expect(row).toMatchObject({
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    mustChangePassword: true,
    passwordLegacy: false,
  });
  expect(await t.database.db.select().from(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, id))).toEqual([]);
  expect(await t.database.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, id))).toEqual([]);
  expect(await t.database.db.select().from(loginChallenges).where(eq(loginChallenges.adminId, id))).toEqual([]);

  const [entry] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, '重置登录')));
  expect(entry).toMatchObject({
    adminId: RESET_SIGN_IN_ACTOR.id,
    adminLoginId: 'npm run admin:reset',
    entity: 'admin',
    title: 'reset-all',
  });
  expect(entry.changes).toEqual([
    { field: 'password', note: '密码已修改（生成的密码，下次登录时须修改）' },
    { field: 'twoFactor', note: '两步验证已关闭，10 个恢复码作废' },
    { field: 'passkeys', note: '删除了 1 个通行密钥' },
    { field: 'sessions', note: '结束了 1 个会话' },
  ]);
  expect(await verifyChain(t.database.db)).toMatchObject({ ok: true });
});

it('lifts the account’s own lock: five wrong passwords no longer refuse the new one', async () => {
  await t.createAdmin('reset-locked', 2);
  for (let i = 0; i < 5; i++) await t.login('reset-locked', 'Wrong-Password-1', { ip: freshIp() });
  expect((await t.login('reset-locked', passwordOf('reset-locked'), { ip: freshIp() })).statusCode).toBe(429);

  const { password } = await reset('reset-locked');
  expect((await t.login('reset-locked', password, { ip: freshIp() })).statusCode).toBe(200);
});

it('finds the account as sign-in does (its canonical name), and names the super admins when there is none', async () => {
  await t.createAdmin('reset-case', 2);
  expect((await reset('RESET-CASE')).loginId).toBe('reset-case');

  const refusal = reset('reset-nobody');
  await expect(refusal).rejects.toThrow(SignInResetRefusal);
  await expect(refusal).rejects.toThrow(`没有账号为 reset-nobody 的管理员。超级管理员：${['reset-all', ROOT_LOGIN].sort().join('、')}`);
});

it('refuses a disabled account unless told to enable it, and then says so in the log', async () => {
  const { id } = await t.createAdmin('reset-off', 2);
  await t.database.db.update(admins).set({ enabled: false }).where(eq(admins.id, id));
  await expect(reset('reset-off')).rejects.toThrow('管理员 reset-off 已被禁用，重置后也无法登录');
  const [unchanged] = await t.database.db.select().from(admins).where(eq(admins.id, id));
  expect(unchanged.mustChangePassword).toBe(false);

  const done = await reset('reset-off', { enable: true });
  expect(done.enabled).toBe(true);
  expect((await t.login('reset-off', done.password, { ip: freshIp() })).statusCode).toBe(200);
  const [entry] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, '重置登录')));
  expect(entry.changes).toContainEqual({ field: 'enabled', before: false, after: true });
});
