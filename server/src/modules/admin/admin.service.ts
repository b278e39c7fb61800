import { ADMIN_MESSAGES } from '#contract/admin';
import type { Admin, CreateAdminBody, UpdateAdminBody } from '#contract/admin';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { checkAdminPassword, hashPassword, randomAdminPassword } from '../../lib/passwords';
import { ACCOUNT_MESSAGES } from '#contract/account';
import { DEFAULT_ADMIN_NICKNAME, DEFAULT_AVATAR } from '../../lib/defaults';
import { AUDIT_ACTIONS } from '#contract/audit';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { admins as adminsTable } from '../../db/schema';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard } from '../audit/audit';
import { lockRow } from '../../db/rows';
import type { AuthRepository } from '../auth/auth.repository';
import { reauthRequired } from '../../plugins/reauth';
import type { AdminRepository, AdminRow } from './admin.repository';

export type { Actor };

export const SUPER = 1;
const SELF_EDITABLE = new Set(['nickname', 'avatar', 'loginPwd', 'version']);

export function toAdmin(row: AdminRow): Admin {
  return {
    _id: row.id,
    loginId: row.loginId,
    nickname: row.nickname,
    avatar: row.avatar,
    permission: row.permission as Admin['permission'],
    enabled: row.enabled,
    createdAt: row.createdAt,
    twoFactorEnabled: row.totpSecret !== null,
    version: row.version,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

export function createAdminService(deps: { db: Db; admins: AdminRepository; auth: AuthRepository; audit: Audit; now?: () => number }) {
  const { db, admins, auth, audit } = deps;
  const now = deps.now ?? Date.now;

  async function mustFind(id: string, executor: Db = db): Promise<AdminRow> {
    const row = await admins.findById(id, executor);
    if (!row) throw notFound(ADMIN_MESSAGES.notFound);
    return row;
  }

  /** Refuses a change that would leave no enabled super admin; call inside the admins-locked transaction. */
  async function keepOneSuper(target: AdminRow, stillSuper: boolean, tx: Locked<'admins'>) {
    const isActiveSuper = target.permission === SUPER && target.enabled;
    if (isActiveSuper && !stillSuper && (await admins.countOtherEnabledSupers(target.id, tx)) === 0) {
      throw badRequest(ADMIN_MESSAGES.lastSuper);
    }
  }

  /**
   * The actor's rights as they are now, under the admins lock: its token was checked before the
   * lock was granted, and a super admin demoted, disabled or deleted meanwhile must not act.
   */
  async function mustStillBeSuper(actor: Actor, tx: Locked<'admins'>) {
    const row = await admins.findById(actor.id, tx);
    if (!row?.enabled || row.permission !== SUPER) throw forbidden();
  }

  return {
    async list(): Promise<Admin[]> {
      return (await admins.list()).map(toAdmin);
    },

    async get(actor: Actor, id: string): Promise<Admin> {
      if (actor.permission !== SUPER && actor.id !== id) throw forbidden();
      return toAdmin(await mustFind(id));
    },

    async loginIdTaken(loginId: string): Promise<boolean> {
      return (await admins.findByLoginId(loginId)) !== null;
    },

    async create(actor: Actor, body: CreateAdminBody): Promise<Admin & { initialPassword?: string }> {
      const owner = { loginId: body.loginId, nickname: body.nickname || DEFAULT_ADMIN_NICKNAME };
      const generated = body.loginPwd ? null : randomAdminPassword(owner);
      const password = body.loginPwd || generated!;
      checkAdminPassword(password, owner);
      if (await admins.findByLoginId(body.loginId)) throw conflict(ADMIN_MESSAGES.taken);
      const passwordHash = await hashPassword(password);
      const created = await writeTransaction(db, ['admins'], async (tx) => {
        const inserted = await admins.insert(
          {
            id: newId(),
            loginId: body.loginId,
            passwordHash,
            nickname: body.nickname || DEFAULT_ADMIN_NICKNAME,
            avatar: body.avatar || DEFAULT_AVATAR,
            permission: body.permission,
            enabled: true,
            createdAt: now(),
            // A password the server made (and a super admin read) is changed at the first sign-in.
            mustChangePassword: generated !== null,
          },
          tx,
        );
        if (inserted)
          await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'admin', entityId: inserted.id, title: inserted.loginId });
        return inserted;
      });
      if (!created) throw conflict(ADMIN_MESSAGES.taken);
      return generated ? { ...toAdmin(created), initialPassword: generated } : toAdmin(created);
    },

    async update(actor: Actor, id: string, body: UpdateAdminBody, guard?: RevertGuard): Promise<Admin> {
      const isSelf = actor.id === id;
      if (actor.permission !== SUPER) {
        if (!isSelf) throw forbidden();
        if (Object.keys(body).some((key) => !SELF_EDITABLE.has(key))) throw forbidden();
      }
      // One's own password is changed with the current one (POST /api/admin/me/password), never here.
      if (body.loginPwd && isSelf) throw badRequest(ACCOUNT_MESSAGES.ownPasswordElsewhere);
      if (body.loginPwd) {
        const target = await mustFind(id);
        checkAdminPassword(body.loginPwd, { loginId: target.loginId, nickname: body.nickname ?? target.nickname });
      }
      const passwordHash = body.loginPwd ? await hashPassword(body.loginPwd) : undefined;

      const updated = await writeTransaction(db, ['admins'], async (tx) => {
        if (!isSelf) await mustStillBeSuper(actor, tx);
        const target = await lockRow(tx, adminsTable, id);
        if (!target) throw missingRecord(guard, notFound(ADMIN_MESSAGES.notFound));
        checkGuard(target, guard);
        if (!guard) await checkVersion(tx, { entity: 'admin', id, version: target.version }, body.version, () => toAdmin(target));
        const enabled = body.enabled ?? target.enabled;
        const permission = body.permission ?? target.permission;
        // Raising an admin to super or disabling one needs a fresh proof (a revert of either too).
        const raises = permission === SUPER && target.permission !== SUPER;
        if ((raises || (!enabled && target.enabled)) && !actor.freshProof) throw reauthRequired();
        if (isSelf && (!enabled || permission !== target.permission)) throw badRequest(ADMIN_MESSAGES.cannot);
        await keepOneSuper(target, enabled && permission === SUPER, tx);

        const changes = {
          ...(body.nickname !== undefined && { nickname: body.nickname }),
          ...(body.avatar !== undefined && { avatar: body.avatar || DEFAULT_AVATAR }),
          ...(passwordHash && { passwordHash, passwordLegacy: false }),
          enabled,
          permission,
        };
        const row = await admins.update(id, changes, tx);
        const changed = diff(target, changes);
        const onlyEnabled = changed.length === 1 && changed[0].field === 'enabled';
        await audit.record(tx, actor, {
          action: guard?.action ?? (onlyEnabled ? (enabled ? AUDIT_ACTIONS.enable : AUDIT_ACTIONS.disable) : AUDIT_ACTIONS.update),
          entity: 'admin',
          entityId: id,
          title: target.loginId,
          changes: changed,
        });
        // A token carries the rights it was issued with: any change to them ends it at once.
        if (passwordHash || enabled !== target.enabled || permission !== target.permission) {
          await auth.deleteSessionsOf(id, tx);
        }
        return row!;
      });
      return toAdmin(updated);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (actor.id === id) throw badRequest(ADMIN_MESSAGES.cannot);
      await writeTransaction(db, ['admins'], async (tx) => {
        await mustStillBeSuper(actor, tx);
        const target = await lockRow(tx, adminsTable, id);
        if (!target) throw notFound(ADMIN_MESSAGES.notFound);
        await keepOneSuper(target, false, tx);
        await admins.delete(id, tx);
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.delete, entity: 'admin', entityId: id, title: target.loginId });
      });
    },
  };
}
