import { ADMIN_MESSAGES } from '../../../../contract/admin';
import type { Admin, CreateAdminBody, UpdateAdminBody } from '../../../../contract/admin';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { checkPassword, hashPassword, randomPassword } from '../../lib/passwords';
import { DEFAULT_ADMIN_NICKNAME, DEFAULT_AVATAR } from '../../lib/defaults';
import type { Db } from '../../db/client';
import type { AuthRepository } from '../auth/auth.repository';
import type { AdminRepository, AdminRow } from './admin.repository';

/** Who is asking: the admin behind the request's token. */
export interface Actor {
  id: string;
  permission: number;
}

export const SUPER = 1;
const SELF_EDITABLE = new Set(['nickname', 'avatar', 'loginPwd']);

export function toAdmin(row: AdminRow): Admin {
  return {
    _id: row.id,
    loginId: row.loginId,
    nickname: row.nickname,
    avatar: row.avatar,
    permission: row.permission as Admin['permission'],
    enabled: row.enabled,
    createdAt: row.createdAt,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

export function createAdminService(deps: { db: Db; admins: AdminRepository; auth: AuthRepository; now?: () => number }) {
  const { db, admins, auth } = deps;
  const now = deps.now ?? Date.now;

  async function mustFind(id: string, executor: Db = db): Promise<AdminRow> {
    const row = await admins.findById(id, executor);
    if (!row) throw notFound(ADMIN_MESSAGES.notFound);
    return row;
  }

  /** Refuses a change that would leave no enabled super admin; call inside the transaction. */
  async function keepOneSuper(target: AdminRow, stillSuper: boolean, tx: Db) {
    const isActiveSuper = target.permission === SUPER && target.enabled;
    if (isActiveSuper && !stillSuper && (await admins.lockOtherEnabledSupers(target.id, tx)) === 0) {
      throw badRequest(ADMIN_MESSAGES.lastSuper);
    }
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

    async create(body: CreateAdminBody): Promise<Admin & { initialPassword?: string }> {
      const generated = body.loginPwd ? null : randomPassword();
      const password = body.loginPwd || generated!;
      checkPassword(password);
      if (await admins.findByLoginId(body.loginId)) throw conflict(ADMIN_MESSAGES.taken);
      const created = await admins.insert({
        id: newId(),
        loginId: body.loginId,
        passwordHash: await hashPassword(password),
        nickname: body.nickname || DEFAULT_ADMIN_NICKNAME,
        avatar: body.avatar || DEFAULT_AVATAR,
        permission: body.permission,
        enabled: true,
        createdAt: now(),
      });
      if (!created) throw conflict(ADMIN_MESSAGES.taken);
      return generated ? { ...toAdmin(created), initialPassword: generated } : toAdmin(created);
    },

    async update(actor: Actor, id: string, body: UpdateAdminBody): Promise<Admin> {
      const isSelf = actor.id === id;
      if (actor.permission !== SUPER) {
        if (!isSelf) throw forbidden();
        if (Object.keys(body).some((key) => !SELF_EDITABLE.has(key))) throw forbidden();
      }
      if (body.loginPwd !== undefined && body.loginPwd !== '') checkPassword(body.loginPwd);
      const passwordHash = body.loginPwd ? await hashPassword(body.loginPwd) : undefined;

      const updated = await db.transaction(async (tx) => {
        const target = await mustFind(id, tx);
        const enabled = body.enabled ?? target.enabled;
        const permission = body.permission ?? target.permission;
        if (isSelf && (!enabled || permission !== target.permission)) throw badRequest(ADMIN_MESSAGES.cannot);
        await keepOneSuper(target, enabled && permission === SUPER, tx);

        const row = await admins.update(
          id,
          {
            ...(body.nickname !== undefined && { nickname: body.nickname }),
            ...(body.avatar !== undefined && { avatar: body.avatar || DEFAULT_AVATAR }),
            ...(passwordHash && { passwordHash, passwordLegacy: false }),
            enabled,
            permission,
          },
          tx,
        );
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
      await db.transaction(async (tx) => {
        const target = await mustFind(id, tx);
        await keepOneSuper(target, false, tx);
        await admins.delete(id, tx);
      });
    },
  };
}
