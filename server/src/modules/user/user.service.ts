import { randomInt } from 'node:crypto';
import type { Page } from '#contract/paging';
import { USER_MESSAGES } from '#contract/user';
import type { CreateUserBody, UpdateUserBody, User, UserImpact, UserListQuery } from '#contract/user';
import { AUDIT_ACTIONS, type AuditAction, type BatchResult, type UserBatchAction } from '#contract/audit';
import type { Db } from '../../db/client';
import { users as usersTable } from '../../db/schema';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { ENTITIES, type BinLocks } from '../../db/entities';
import { DEFAULT_AVATAR, DEFAULT_USER_NICKNAME, DEFAULT_USER_POINTS } from '../../lib/defaults';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { booleanFilter } from '../../lib/filters';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkUserPassword, hashPassword, randomPassword } from '../../lib/passwords';
import { recordHold, screenAdminWrite } from '../moderation/moderation';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard, removalEntries } from '../audit/audit';
import { lockRow, lockRows, uniqueIds } from '../../db/rows';
import type { CommentRepository } from '../comment/comment.repository';
import type { IssueRepository } from '../issue/issue.repository';
import type { TrashBin } from '../trash/trash.service';
import type { UserChanges, UserRepository, UserRow } from './user.repository';

// Field by field rather than `{ _id: id, ...rest }`: a page maps ten rows per call, and a rest
// copy of each was a per cent of a list call's CPU.
function toUser(row: UserRow): User {
  return {
    _id: row.id,
    loginId: row.loginId,
    nickname: row.nickname,
    avatar: row.avatar,
    mail: row.mail,
    qq: row.qq,
    wechat: row.wechat,
    intro: row.intro,
    points: row.points,
    enabled: row.enabled,
    reviewFirst: row.reviewFirst,
    registerDate: row.registerDate,
    lastLoginDate: row.lastLoginDate,
    version: row.version,
  };
}

export type UserService = ReturnType<typeof createUserService>;

export function createUserService(deps: {
  db: Db;
  users: UserRepository;
  issues: IssueRepository;
  comments: CommentRepository;
  bin: TrashBin;
  audit: Audit;
  /** Ends members' sessions (modules/site): a user disabled or given a new password is signed out everywhere. */
  memberSessions?: { endAllOf(userIds: readonly string[], executor: Db): Promise<number> };
  now?: () => number;
}) {
  const { db, users, issues, comments, bin, audit } = deps;
  const now = deps.now ?? Date.now;

  async function mustFind(id: string): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw notFound(USER_MESSAGES.notFound);
    return row;
  }

  /**
   * The one delete path of users (DELETE and the bulk delete): each user, locked by the caller,
   * goes to the recycle bin with their issues and every comment that goes with them (one bin entry
   * per user), the comment counts of the issues and books they had commented on are put right, and
   * each gets its audit entry (one insert for all); inside the caller's transaction.
   */
  async function removeIn(
    tx: Locked<BinLocks<'user'>>,
    actor: Actor,
    action: AuditAction,
    rows: ReadonlyArray<{ id: string; loginId: string }>,
    reason?: string,
  ): Promise<number[]> {
    const binned: string[] = [];
    for (const { id } of rows) {
      const trashId = await bin.capture(tx, 'user', id, actor);
      if (!trashId) throw notFound(USER_MESSAGES.notFound);
      binned.push(trashId);
      const commentedOn = await comments.deleteByUser(id, tx);
      await comments.deleteUnderIssuesOf(id, tx);
      await issues.deleteByUser(id, tx);
      await comments.recount(commentedOn, tx);
      await users.delete(id, tx);
    }
    const records = rows.map((row) => ({ id: row.id, title: row.loginId }));
    return audit.record(tx, actor, removalEntries('user', action, records, binned, reason));
  }

  /** Only enabled changed: the log says 启用 or 禁用 rather than 修改. */
  function updateAction(changes: Record<string, unknown>) {
    const keys = Object.keys(changes);
    if (keys.length === 1 && keys[0] === 'enabled') return changes.enabled ? AUDIT_ACTIONS.enable : AUDIT_ACTIONS.disable;
    return AUDIT_ACTIONS.update;
  }

  return {
    removeIn,
    async list({ current, pageSize, loginId, nickname, enabled }: UserListQuery): Promise<Page<User>> {
      return mapPage(await users.list({ loginId, nickname, enabled: booleanFilter(enabled) }, { current, pageSize }), toUser);
    },

    async get(id: string): Promise<User> {
      return toUser(await mustFind(id));
    },

    async loginIdTaken(loginId: string): Promise<boolean> {
      return (await users.loginIdOwner(loginId)) !== null;
    },

    async impact(id: string): Promise<UserImpact> {
      await mustFind(id);
      return users.impact(id);
    },

    async create(actor: Actor, body: CreateUserBody): Promise<User & { initialPassword?: string }> {
      const generated = body.loginPwd ? null : randomPassword();
      const password = body.loginPwd || generated!;
      checkUserPassword(password);
      if (await users.loginIdOwner(body.loginId)) throw conflict(USER_MESSAGES.taken);
      const at = now();
      // Hashed before the transaction: the users write lock is held for the insert alone.
      const passwordHash = await hashPassword(password);
      const row = {
        id: newId(at),
        loginId: body.loginId,
        passwordHash,
        nickname: body.nickname || `${DEFAULT_USER_NICKNAME}${randomInt(100_000, 1_000_000)}`,
        avatar: body.avatar || DEFAULT_AVATAR,
        mail: body.mail ?? '',
        qq: body.qq ?? '',
        wechat: body.wechat ?? '',
        intro: body.intro ?? '',
        points: body.points ?? DEFAULT_USER_POINTS,
        enabled: body.enabled ?? true,
        registerDate: at,
        lastLoginDate: at,
        // Kept for the member sign-in to honour: a generated password is changed at the first sign-in.
        mustChangePassword: generated !== null,
      };
      const verdict = await screenAdminWrite(
        db,
        'user',
        [
          { text: body.nickname, html: false },
          { text: body.intro, html: false },
        ],
        at,
      );
      const created = await writeTransaction(db, ['users'], async (tx) => {
        const inserted = await users.insert(row, tx);
        if (inserted) {
          await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'user', entityId: inserted.id, title: inserted.loginId });
          if (verdict) await recordHold(tx, { kind: 'user', itemId: inserted.id, verdict }, at);
        }
        return inserted;
      });
      if (!created) throw conflict(USER_MESSAGES.taken);
      return generated ? { ...toUser(created), initialPassword: generated } : toUser(created);
    },

    async update(actor: Actor, id: string, body: UpdateUserBody, guard?: RevertGuard): Promise<User> {
      const { loginPwd, version, ...fields } = body;
      if (loginPwd) checkUserPassword(loginPwd);
      if (fields.loginId) {
        const owner = await users.loginIdOwner(fields.loginId);
        if (owner && owner !== id) throw conflict(USER_MESSAGES.taken);
      }
      const changes: UserChanges = {
        ...fields,
        ...(fields.avatar !== undefined && { avatar: fields.avatar || DEFAULT_AVATAR }),
        // An empty password field means "unchanged", as on the admin form.
        ...(loginPwd && { passwordHash: await hashPassword(loginPwd), passwordLegacy: false }),
      };
      if (!Object.keys(changes).length) return toUser(await mustFind(id));
      // A revert puts back text that was stored before: the rules judged it then.
      const verdict = guard
        ? null
        : await screenAdminWrite(db, 'user', [
            { text: fields.nickname, html: false },
            { text: fields.intro, html: false },
          ]);
      try {
        const row = await writeTransaction(db, ['users'], async (tx) => {
          const before = await lockRow(tx, usersTable, id);
          if (!before) throw missingRecord(guard, notFound(USER_MESSAGES.notFound));
          checkGuard(before, guard);
          if (!guard) await checkVersion(tx, { entity: 'user', id, version: before.version }, version, () => toUser(before));
          const updated = await users.update(id, changes, tx);
          if (!updated) throw notFound(USER_MESSAGES.notFound);
          if (changes.enabled === false || changes.passwordHash) await deps.memberSessions?.endAllOf([id], tx);
          await audit.record(tx, actor, {
            action: guard?.action ?? updateAction(changes),
            entity: 'user',
            entityId: id,
            title: updated.loginId,
            changes: diff(before, changes),
          });
          if (verdict) await recordHold(tx, { kind: 'user', itemId: id, verdict }, now());
          return updated;
        });
        return toUser(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(USER_MESSAGES.taken);
        throw error;
      }
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await writeTransaction(db, ENTITIES.user.bin.locks, async (tx) => {
        const user = await lockRow(tx, usersTable, id);
        if (!user) throw notFound(USER_MESSAGES.notFound);
        await removeIn(tx, actor, AUDIT_ACTIONS.delete, [user]);
      });
    },

    /** All or nothing: every id must exist, and each record gets its own audit entry. */
    async batch(actor: Actor, action: UserBatchAction, given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      if (action === 'delete') {
        // Deleting a user takes their issues and comments: a super admin's decision, as one by one.
        if (actor.permission !== 1) throw forbidden();
        await writeTransaction(db, ENTITIES.user.bin.locks, async (tx) => {
          await removeIn(tx, actor, AUDIT_ACTIONS.batchDelete, await lockRows(tx, usersTable, ids));
        });
        return { done: ids.length };
      }
      const enabled = action === 'enable';
      await writeTransaction(db, ['users'], async (tx) => {
        const rows = await lockRows(tx, usersTable, ids);
        await users.setEnabled(ids, enabled, tx);
        if (!enabled) await deps.memberSessions?.endAllOf(ids, tx);
        await audit.record(
          tx,
          actor,
          rows.map((row) => ({
            action: enabled ? AUDIT_ACTIONS.batchEnable : AUDIT_ACTIONS.batchDisable,
            entity: 'user' as const,
            entityId: row.id,
            title: row.loginId,
            changes: diff(row, { enabled }),
          })),
        );
      });
      return { done: ids.length };
    },
  };
}
