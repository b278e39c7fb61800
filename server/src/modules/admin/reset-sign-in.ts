import { eq } from 'drizzle-orm';
import { AUDIT_ACTIONS, AUDIT_MESSAGES, type AuditChange } from '#contract/audit';
import type { Db } from '../../db/client';
import { lockRow } from '../../db/rows';
import {
  adminPasskeys,
  adminRecoveryCodes,
  adminSessions,
  admins as adminsTable,
  loginChallenges,
  loginFailures,
  passkeyChallenges,
} from '../../db/schema';
import { writeTransaction } from '../../db/write-lock';
import { hashPassword, randomAdminPassword } from '../../lib/passwords';
import { createAudit } from '../audit/audit';
import { throttleKeys } from '../auth/auth.service';
import { type AdminRepository, createAdminRepository } from './admin.repository';
import { SUPER } from './admin.service';

/** No admin runs the command: the log names the command itself as the one who did it (as the import does). */
export const RESET_SIGN_IN_ACTOR = { id: '000000000000000000000000', loginId: 'npm run admin:reset', permission: SUPER };

/** Why the account's sign-in was not reset, in words for the operator's terminal. */
export class SignInResetRefusal extends Error {}

export interface SignInReset {
  loginId: string;
  /** The new password, shown once; the admin must change it at the next sign-in. */
  password: string;
  twoFactorWasOn: boolean;
  recoveryCodes: number;
  passkeys: number;
  sessions: number;
  /** The account was disabled and `enable` turned it on. */
  enabled: boolean;
}

/**
 * What an operator does when an admin cannot sign in at all and no super admin can help (the only
 * super admin forgot the password, or lost the phone and the recovery codes): one transaction gives
 * the account a new generated password to be changed at the next sign-in, turns two-step sign-in
 * off, removes its passkeys and recovery codes, ends its sessions and its pending sign-in steps,
 * and forgets the account's failed attempts, with one 重置登录 entry in the audit log. Removing the
 * passkeys matters: whoever took the account over may have added one.
 */
export async function resetSignIn(db: Db, loginId: string, options: { enable?: boolean; now?: () => number } = {}): Promise<SignInReset> {
  const admins = createAdminRepository(db);
  const found = await admins.findByLoginId(loginId);
  if (!found) throw new SignInResetRefusal(await unknownAccount(db, admins, loginId));
  if (!found.enabled && !options.enable)
    throw new SignInResetRefusal(
      `管理员 ${found.loginId} 已被禁用，重置后也无法登录：请由一位超级管理员在管理员列表中启用它，或加上 --enable 同时启用。`,
    );
  const password = randomAdminPassword({ loginId: found.loginId, nickname: found.nickname });
  const passwordHash = await hashPassword(password);

  return writeTransaction(db, ['admins'], async (tx) => {
    // Read again under the lock: the account may have changed (or gone) while the password was hashed.
    const admin = await lockRow(tx, adminsTable, found.id);
    if (!admin) throw new SignInResetRefusal(`管理员 ${found.loginId} 刚刚被删除了。`);
    const enable = !admin.enabled && options.enable === true;
    await admins.update(
      admin.id,
      {
        passwordHash,
        passwordLegacy: false,
        mustChangePassword: true,
        totpSecret: null,
        totpPendingSecret: null,
        totpLastStep: null,
        ...(enable && { enabled: true }),
      },
      tx,
    );
    const codes = await tx
      .delete(adminRecoveryCodes)
      .where(eq(adminRecoveryCodes.adminId, admin.id))
      .returning({ id: adminRecoveryCodes.codeHash });
    const passkeys = await tx.delete(adminPasskeys).where(eq(adminPasskeys.adminId, admin.id)).returning({ id: adminPasskeys.id });
    const sessions = await tx.delete(adminSessions).where(eq(adminSessions.adminId, admin.id)).returning({ id: adminSessions.id });
    // A second step waiting for a code, or a passkey proof begun, would outlive the reset otherwise.
    await tx.delete(loginChallenges).where(eq(loginChallenges.adminId, admin.id));
    await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.adminId, admin.id));
    // The account's own lock (five wrong passwords) would refuse the new password for 15 minutes.
    await tx.delete(loginFailures).where(eq(loginFailures.key, throttleKeys(admin.loginId, '').idKey));

    const twoFactorWasOn = admin.totpSecret !== null;
    const changes: AuditChange[] = [
      { field: 'password', note: `${AUDIT_MESSAGES.passwordChanged}（生成的密码，下次登录时须修改）` },
      ...(twoFactorWasOn ? [{ field: 'twoFactor', note: `两步验证已关闭，${codes.length} 个恢复码作废` }] : []),
      ...(passkeys.length ? [{ field: 'passkeys', note: `删除了 ${passkeys.length} 个通行密钥` }] : []),
      { field: 'sessions', note: `结束了 ${sessions.length} 个会话` },
      ...(enable ? [{ field: 'enabled', before: false, after: true }] : []),
    ];
    await createAudit({ now: options.now }).record(tx, RESET_SIGN_IN_ACTOR, {
      action: AUDIT_ACTIONS.signInReset,
      entity: 'admin',
      entityId: admin.id,
      title: admin.loginId,
      changes,
    });
    return {
      loginId: admin.loginId,
      password,
      twoFactorWasOn,
      recoveryCodes: codes.length,
      passkeys: passkeys.length,
      sessions: sessions.length,
      enabled: enable,
    };
  });
}

/** No such account: say which super admins there are, so that a mistyped name is seen at once. */
async function unknownAccount(db: Db, admins: AdminRepository, loginId: string): Promise<string> {
  if ((await admins.count()) === 0) return '数据库里还没有管理员：启动一次服务器（npm start）会创建第一个超级管理员并打印它的密码。';
  const supers = (await db.select({ loginId: adminsTable.loginId }).from(adminsTable).where(eq(adminsTable.permission, SUPER)))
    .map((row) => row.loginId)
    .sort();
  return `没有账号为 ${loginId} 的管理员。超级管理员：${supers.join('、') || '（无）'}`;
}
