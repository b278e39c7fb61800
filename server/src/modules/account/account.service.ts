import type { PasskeyAuthenticationResponse } from '#contract/passkey';
import type { RelyingParty } from '../passkey/passkey.service';
import { ACCOUNT_MESSAGES } from '#contract/account';
import type {
  AdminSession,
  ChangePasswordBody,
  LoginRecord,
  LoginRecordQuery,
  RecoveryCodes,
  RecoveryCodesLeft,
  RegenerateRecoveryCodesBody,
  SecuritySettings,
  TwoFactorDisableBody,
  TwoFactorSetup,
  UpdateMeBody,
} from '#contract/account';
import { ADMIN_MESSAGES, type Admin } from '#contract/admin';
import { TRUST_MESSAGES, type ReauthBody, type ReauthResult } from '#contract/version';
import { counters } from '../../lib/counters';
import { AUDIT_ACTIONS, SECURITY_SETTINGS_ID } from '#contract/audit';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '#contract/paging';
import { pageOf } from '../../lib/paging';
import type { Db } from '../../db/client';
import { admins as adminsTable } from '../../db/schema';
import { writeTransaction } from '../../db/write-lock';
import { DEFAULT_AVATAR } from '../../lib/defaults';
import { badRequest, notFound } from '../../lib/errors';
import { checkAdminPassword, hashPassword, verifyPassword } from '../../lib/passwords';
import { describeBrowser } from '../../lib/user-agent';
import type { AdminRepository, AdminRow } from '../admin/admin.repository';
import { toAdmin } from '../admin/admin.service';
import { diff, type Actor, type Audit } from '../audit/audit';
import { lockRow } from '../../db/rows';
import type { AuthRepository } from '../auth/auth.repository';
import { LOGIN_HISTORY_MS, type AuthenticatedAdmin, type AuthService, type ClientInfo } from '../auth/auth.service';
import { newRecoveryCode } from '../auth/keys';
import { newTotpSecret, otpauthUrl, totpStep } from '../auth/totp';

const REQUIRE_2FA = 'require_2fa';

/** What proves an admin is who the session says: one kind per branch of proveWith. */
export type ReauthProof = { password: string } | { code: string } | { passkey: PasskeyAuthenticationResponse; rp: RelyingParty };
/** How a passkey proves its admin (modules/passkey): true only for the admin's own passkey on its proof challenge. */
export type PasskeyProver = (
  admin: { id: string; loginId: string },
  response: PasskeyAuthenticationResponse,
  client: ClientInfo,
  rp: RelyingParty,
) => Promise<boolean>;
const RECOVERY_CODE_COUNT = 10;

export type AccountService = ReturnType<typeof createAccountService>;

/** What an admin does to its own account (个人设置), and what a super admin does to others' sign-in. */
export function createAccountService(deps: {
  db: Db;
  admins: AdminRepository;
  repo: AuthRepository;
  auth: AuthService;
  audit: Audit;
  /** REAUTH_WINDOW_SECONDS, in ms: what POST /me/reauth answers as validUntil. */
  reauthWindowMs: number;
  /** The passkey branch of proveWith. */
  provePasskey?: PasskeyProver;
  now?: () => number;
}) {
  const { db, admins, repo, auth, audit } = deps;
  const now = deps.now ?? Date.now;

  async function mustFind(id: string): Promise<AdminRow> {
    const row = await admins.findById(id);
    if (!row) throw notFound(ADMIN_MESSAGES.notFound);
    return row;
  }

  /** A current password, checked under the login throttle (a wrong one counts as a failed sign-in). */
  async function mustKnowPassword(row: AdminRow, password: string, client: ClientInfo) {
    const right = await auth.throttled(row.loginId, client, () => verifyPassword(row.passwordHash, password));
    if (!right) throw badRequest(ACCOUNT_MESSAGES.wrongCurrentPassword);
  }

  /**
   * A TOTP code of `sealedSecret`, checked under the throttle; its time step is then used up
   * (admins.totp_last_step), so the same code cannot sign in afterwards.
   */
  async function mustKnowCode(row: AdminRow, sealedSecret: string, code: string, client: ClientInfo): Promise<number> {
    const keys = await auth.getKeys();
    let step: number | null = null;
    const right = await auth.throttled(row.loginId, client, async () => {
      const secret = keys.open(sealedSecret);
      step = secret === null ? null : totpStep(secret, code, now());
      const claimed = step;
      return claimed !== null && (await writeTransaction(db, ['admins'], (tx) => repo.claimTotpStep(row.id, claimed, tx)));
    });
    if (!right || step === null) throw badRequest(ACCOUNT_MESSAGES.wrongCode);
    return step;
  }

  /**
   * The one place a proof of identity is checked, under the login throttle: the current password,
   * or a current TOTP code when two-step sign-in is on. A passkey is one more branch here.
   */
  async function proveWith(row: AdminRow, proof: ReauthProof, client: ClientInfo): Promise<void> {
    if ('passkey' in proof) {
      if (!deps.provePasskey || !(await deps.provePasskey(row, proof.passkey, client, proof.rp))) {
        throw badRequest(TRUST_MESSAGES.passkeyNotAccepted);
      }
      return;
    }
    if ('password' in proof) {
      const right = await auth.throttled(row.loginId, client, () => verifyPassword(row.passwordHash, proof.password));
      if (!right) throw badRequest(TRUST_MESSAGES.wrongPassword);
      return;
    }
    if (!row.totpSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorOff);
    await mustKnowCode(row, row.totpSecret, proof.code, client);
  }

  function toSession(row: Awaited<ReturnType<AuthRepository['liveSessions']>>[number], currentId: string): AdminSession {
    return {
      id: row.id,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt ?? row.createdAt,
      expiresAt: row.expiresAt,
      ip: row.ip,
      browser: describeBrowser(row.userAgent),
      current: row.id === currentId,
    };
  }

  /** Every write of this service is in the audit log, written in the write's own transaction. */
  const record = (
    tx: Db,
    actor: Actor,
    action: (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS],
    target: { id: string; loginId: string },
    note?: string,
  ) =>
    audit.record(tx, actor, {
      action,
      entity: action === AUDIT_ACTIONS.endSessions ? 'session' : 'admin',
      entityId: target.id,
      title: target.loginId,
      changes: note ? [{ field: action === AUDIT_ACTIONS.endSessions ? 'session' : 'twoFactor', note }] : null,
    });

  return {
    async updateMe(me: AuthenticatedAdmin, body: UpdateMeBody): Promise<Admin> {
      const changes = {
        ...(body.nickname !== undefined && { nickname: body.nickname }),
        ...(body.avatar !== undefined && { avatar: body.avatar || DEFAULT_AVATAR }),
      };
      const row = await writeTransaction(db, ['admins'], async (tx) => {
        const before = await lockRow(tx, adminsTable, me.id);
        if (!before) throw notFound(ADMIN_MESSAGES.notFound);
        if (!Object.keys(changes).length) return before;
        const updated = await admins.update(me.id, changes, tx);
        await audit.record(tx, me, {
          action: AUDIT_ACTIONS.update,
          entity: 'admin',
          entityId: me.id,
          title: before.loginId,
          changes: diff(before, changes),
        });
        return updated!;
      });
      return toAdmin(row);
    },

    /** A fresh proof of identity for this session: the actions marked `reauth` are allowed for the window. */
    async reauth(me: AuthenticatedAdmin, body: ReauthBody, client: ClientInfo, rp?: RelyingParty): Promise<ReauthResult> {
      const given = [body.password, body.code, body.passkey].filter((proof) => proof !== undefined).length;
      if (given !== 1) throw badRequest(TRUST_MESSAGES.passwordOrCode);
      const row = await mustFind(me.id);
      const proof: ReauthProof =
        body.password !== undefined
          ? { password: body.password }
          : body.code !== undefined
            ? { code: body.code }
            : { passkey: body.passkey!, rp: rp! };
      await proveWith(row, proof, client);
      const at = now();
      await db.transaction(async (tx) => {
        await repo.proveSession(me.sessionId, at, tx);
        await audit.record(tx, me, { action: AUDIT_ACTIONS.reauth, entity: 'session', entityId: me.id, title: row.loginId });
      });
      counters.increment('reauthProofs');
      return { validUntil: at + deps.reauthWindowMs };
    },

    /** Keeps the calling session and ends every other one; the current password given is a fresh proof too. */
    async changePassword(me: AuthenticatedAdmin, body: ChangePasswordBody, client: ClientInfo): Promise<void> {
      const row = await mustFind(me.id);
      await mustKnowPassword(row, body.currentPassword, client);
      // A "change" to the same password would also lift the first sign-in's must-change.
      if (body.newPassword === body.currentPassword) throw badRequest(ACCOUNT_MESSAGES.newPasswordSame);
      checkAdminPassword(body.newPassword, { loginId: row.loginId, nickname: row.nickname });
      const passwordHash = await hashPassword(body.newPassword);
      await writeTransaction(db, ['admins'], async (tx) => {
        await admins.update(me.id, { passwordHash, passwordLegacy: false, mustChangePassword: false }, tx);
        await repo.deleteOtherSessions(me.id, me.sessionId, tx);
        await repo.proveSession(me.sessionId, now(), tx);
        // 「密码已修改」, never the hash (audit.diff).
        await audit.record(tx, me, {
          action: AUDIT_ACTIONS.update,
          entity: 'admin',
          entityId: me.id,
          title: row.loginId,
          changes: diff(row, { passwordHash }),
        });
      });
    },

    /** A new secret, kept aside (sealed) until /enable confirms a code from it. */
    async setUpTwoFactor(me: AuthenticatedAdmin): Promise<TwoFactorSetup> {
      const row = await mustFind(me.id);
      if (row.totpSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorAlreadyOn);
      const secret = newTotpSecret();
      const sealed = (await auth.getKeys()).seal(secret);
      await writeTransaction(db, ['admins'], async (tx) => {
        await admins.update(me.id, { totpPendingSecret: sealed }, tx);
        await record(tx, me, AUDIT_ACTIONS.twoFactorSetUp, row);
      });
      return { secret, otpauthUrl: otpauthUrl(secret, row.loginId) };
    },

    async enableTwoFactor(me: AuthenticatedAdmin, code: string, client: ClientInfo): Promise<RecoveryCodes> {
      const row = await mustFind(me.id);
      if (row.totpSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorAlreadyOn);
      if (!row.totpPendingSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorNotSetUp);
      await mustKnowCode(row, row.totpPendingSecret, code, client);
      const keys = await auth.getKeys();
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await writeTransaction(db, ['admins'], async (tx) => {
        await admins.update(me.id, { totpSecret: row.totpPendingSecret, totpPendingSecret: null }, tx);
        await repo.replaceRecoveryCodes(
          me.id,
          recoveryCodes.map((c) => keys.recoveryHash(me.id, c)),
          tx,
        );
        await record(tx, me, AUDIT_ACTIONS.twoFactorEnable, row);
      });
      return { recoveryCodes };
    },

    async recoveryCodesLeft(me: AuthenticatedAdmin): Promise<RecoveryCodesLeft> {
      return { remaining: await repo.countRecoveryCodes(me.id) };
    },

    /**
     * Ten new recovery codes in place of the old ones (which stop working in the same
     * transaction), shown this once; proven by the current password or a TOTP code.
     */
    async regenerateRecoveryCodes(me: AuthenticatedAdmin, body: RegenerateRecoveryCodesBody, client: ClientInfo): Promise<RecoveryCodes> {
      if ((body.currentPassword === undefined) === (body.code === undefined)) throw badRequest(ACCOUNT_MESSAGES.passwordOrCode);
      const row = await mustFind(me.id);
      if (!row.totpSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorOff);
      if (body.currentPassword !== undefined) await mustKnowPassword(row, body.currentPassword, client);
      else await mustKnowCode(row, row.totpSecret, body.code!, client);
      const keys = await auth.getKeys();
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (tx) => {
        await repo.replaceRecoveryCodes(
          me.id,
          recoveryCodes.map((c) => keys.recoveryHash(me.id, c)),
          tx,
        );
        await record(tx, me, AUDIT_ACTIONS.recoveryCodesRegenerate, row, `生成了 ${RECOVERY_CODE_COUNT} 个新恢复码，旧恢复码已失效`);
      });
      return { recoveryCodes };
    },

    async disableTwoFactor(me: AuthenticatedAdmin, body: TwoFactorDisableBody, client: ClientInfo): Promise<void> {
      const row = await mustFind(me.id);
      if (!row.totpSecret) throw badRequest(ACCOUNT_MESSAGES.twoFactorOff);
      await mustKnowPassword(row, body.currentPassword, client);
      await mustKnowCode(row, row.totpSecret, body.code, client);
      await writeTransaction(db, ['admins'], async (tx) => {
        await admins.update(me.id, { totpSecret: null, totpPendingSecret: null, totpLastStep: null }, tx);
        await repo.replaceRecoveryCodes(me.id, [], tx);
        await record(tx, me, AUDIT_ACTIONS.twoFactorDisable, row);
      });
    },

    /** A super admin resets another admin's two-step sign-in (a lost phone): it ends that admin's sessions. */
    async resetTwoFactor(actor: AuthenticatedAdmin, id: string): Promise<void> {
      if (actor.id === id) throw badRequest(ADMIN_MESSAGES.cannot);
      const target = await mustFind(id);
      await writeTransaction(db, ['admins'], async (tx) => {
        await admins.update(id, { totpSecret: null, totpPendingSecret: null, totpLastStep: null }, tx);
        await repo.replaceRecoveryCodes(id, [], tx);
        const ended = await repo.deleteSessionsOf(id, tx);
        await record(tx, actor, AUDIT_ACTIONS.twoFactorReset, target, `结束了 ${ended} 个会话`);
      });
    },

    async sessions(me: AuthenticatedAdmin, adminId: string = me.id): Promise<AdminSession[]> {
      if (adminId !== me.id) await mustFind(adminId);
      return (await repo.liveSessions(adminId, now())).map((row) => toSession(row, me.sessionId));
    },

    async endSession(me: AuthenticatedAdmin, sessionId: string): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await repo.deleteSessionOf(me.id, sessionId, tx))) throw notFound(ACCOUNT_MESSAGES.sessionNotFound);
        await record(tx, me, AUDIT_ACTIONS.endSessions, me, '结束了 1 个会话');
      });
    },

    async endOtherSessions(me: AuthenticatedAdmin): Promise<void> {
      await db.transaction(async (tx) => {
        const ended = await repo.deleteOtherSessions(me.id, me.sessionId, tx);
        await record(tx, me, AUDIT_ACTIONS.endSessions, me, `结束了 ${ended} 个会话`);
      });
    },

    /** A super admin ends every session of an admin (its own included, when it names itself). */
    async endSessionsOf(actor: Actor, id: string): Promise<void> {
      const target = await mustFind(id);
      await db.transaction(async (tx) => {
        const ended = await repo.deleteSessionsOf(id, tx);
        await record(tx, actor, AUDIT_ACTIONS.endSessions, target, `结束了 ${ended} 个会话`);
      });
    },

    async logins(me: AuthenticatedAdmin, query: LoginRecordQuery): Promise<Page<LoginRecord>> {
      const current = query.current ?? FIRST_PAGE;
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      const { total, rows } = await repo.loginPage(me.id, now() - LOGIN_HISTORY_MS, (current - 1) * pageSize, pageSize);
      const data = rows.map((row) => ({
        id: row.id,
        at: row.at,
        ip: row.ip,
        browser: describeBrowser(row.userAgent),
        succeeded: row.succeeded,
        result: row.result,
      }));
      return pageOf(data, total, { current, pageSize });
    },

    async securitySettings(): Promise<SecuritySettings> {
      return { require2fa: (await repo.setting(REQUIRE_2FA)) === 'true' };
    },

    async updateSecuritySettings(actor: AuthenticatedAdmin, body: SecuritySettings): Promise<SecuritySettings> {
      // Otherwise this very session would be sent to set up two-step sign-in, away from the switch.
      if (body.require2fa && !actor.twoFactorEnabled && !actor.signedInWithPasskey) throw badRequest(ACCOUNT_MESSAGES.require2faSelfFirst);
      await db.transaction(async (tx) => {
        const before = (await repo.setting(REQUIRE_2FA, tx)) === 'true';
        await repo.setSetting(REQUIRE_2FA, String(body.require2fa), tx);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.securitySettings,
          entity: 'setting',
          entityId: SECURITY_SETTINGS_ID,
          title: '安全设置',
          changes: [{ field: 'require2fa', before, after: body.require2fa }],
        });
      });
      return { require2fa: body.require2fa };
    },
  };
}
