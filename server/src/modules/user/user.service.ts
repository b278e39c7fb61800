import { randomInt } from 'node:crypto';
import type { Page } from '../../../../contract/paging';
import { USER_MESSAGES } from '../../../../contract/user';
import type { CreateUserBody, UpdateUserBody, User, UserImpact, UserListQuery } from '../../../../contract/user';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { DEFAULT_AVATAR, DEFAULT_USER_NICKNAME, DEFAULT_USER_POINTS } from '../../lib/defaults';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { booleanFilter } from '../../lib/filters';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkPassword, hashPassword, randomPassword } from '../../lib/passwords';
import type { CommentRepository } from '../comment/comment.repository';
import type { IssueRepository } from '../issue/issue.repository';
import type { Actor, TrashBin } from '../trash/trash.service';
import type { UserChanges, UserRepository, UserRow } from './user.repository';


function toUser({ id, ...row }: UserRow): User {
  return { _id: id, ...row };
}

export type UserService = ReturnType<typeof createUserService>;

export function createUserService(deps: {
  db: Db;
  users: UserRepository;
  issues: IssueRepository;
  comments: CommentRepository;
  bin: TrashBin;
  now?: () => number;
}) {
  const { db, users, issues, comments, bin } = deps;
  const now = deps.now ?? Date.now;

  async function mustFind(id: string): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw notFound(USER_MESSAGES.notFound);
    return row;
  }

  return {
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

    async create(body: CreateUserBody): Promise<User & { initialPassword?: string }> {
      const generated = body.loginPwd ? null : randomPassword();
      const password = body.loginPwd || generated!;
      checkPassword(password);
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
      };
      const created = await writeTransaction(db, ['users'], (tx) => users.insert(row, tx));
      if (!created) throw conflict(USER_MESSAGES.taken);
      return generated ? { ...toUser(created), initialPassword: generated } : toUser(created);
    },

    async update(id: string, body: UpdateUserBody): Promise<User> {
      const { loginPwd, ...fields } = body;
      if (loginPwd) checkPassword(loginPwd);
      if (fields.loginId) {
        const owner = await users.loginIdOwner(fields.loginId);
        if (owner && owner !== id) throw conflict(USER_MESSAGES.taken);
      }
      const changes: UserChanges = {
        ...fields,
        ...(fields.avatar !== undefined && { avatar: fields.avatar || DEFAULT_AVATAR }),
        // An empty password field means "unchanged", as on the admin form.
        ...(loginPwd && { passwordHash: await hashPassword(loginPwd) }),
      };
      if (!Object.keys(changes).length) return toUser(await mustFind(id));
      try {
        const row = await writeTransaction(db, ['users'], (tx) => users.update(id, changes, tx));
        if (!row) throw notFound(USER_MESSAGES.notFound);
        return toUser(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(USER_MESSAGES.taken);
        throw error;
      }
    },

    /**
     * Removes the user with their issues and every comment that goes with them, and puts right
     * the comment counts of the issues and books they had commented on: all or nothing.
     */
    async removeIn(tx: Locked<'users' | 'books' | 'issues' | 'comments'>, id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      // The user's issues and comments go too (to the recycle bin with the user), and the books and
      // issues they commented on are recounted.
      if (!(await users.lockForDelete(id, tx))) throw notFound(USER_MESSAGES.notFound);
      await bin.capture(tx, 'user', id, by);
      const commentedOn = await comments.deleteByUser(id, tx);
      await comments.deleteUnderIssuesOf(id, tx);
      await issues.deleteByUser(id, tx);
      await comments.recount(commentedOn, tx);
      await users.delete(id, tx);
    },

    async remove(id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      await writeTransaction(db, ['users', 'books', 'issues', 'comments'], (tx) => this.removeIn(tx, id, by));
    },
  };
}
