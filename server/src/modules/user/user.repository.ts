import { desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Page } from '#contract/paging';
import { queryRows, type Db } from '../../db/client';
import { defineList, exactFilter, textFilter } from '../../db/list';
import { users } from '../../db/schema';
import { canonicalLoginId } from '../../lib/account-names';
import type { Locked } from '../../db/write-lock';
import type { PageRequest } from '../../lib/paging';

/** A user as it may leave the database: everything but the password hash (and its kind) and the canonical name. */
export type UserRow = Omit<typeof users.$inferSelect, 'passwordHash' | 'passwordLegacy' | 'loginKey' | 'mustChangePassword'>;
/** A new user: its canonical name is computed here, never given. */
export type NewUserRow = Omit<typeof users.$inferInsert, 'loginKey'>;
export type UserChanges = Partial<Omit<typeof users.$inferSelect, 'id' | 'loginKey' | 'registerDate' | 'lastLoginDate' | 'version'>>;
export type UserRepository = ReturnType<typeof createUserRepository>;

export interface UserFilter {
  loginId?: string;
  nickname?: string;
  enabled?: boolean;
}

const publicColumns = {
  id: users.id,
  loginId: users.loginId,
  nickname: users.nickname,
  avatar: users.avatar,
  mail: users.mail,
  qq: users.qq,
  wechat: users.wechat,
  intro: users.intro,
  points: users.points,
  enabled: users.enabled,
  registerDate: users.registerDate,
  lastLoginDate: users.lastLoginDate,
  reviewFirst: users.reviewFirst,
  version: users.version,
};

export function createUserRepository(db: Db) {
  const userList = defineList(db, {
    name: 'user',
    table: users,
    date: users.registerDate,
    id: users.id,
    filters: { loginId: textFilter(users.loginId), nickname: textFilter(users.nickname), enabled: exactFilter(users.enabled, 'flag') },
    counted: 'users',
    // Deep pages of the whole list and of either state through the kept buckets (migration 0009).
    buckets: [[], ['enabled']],
    // The page's ids first, from the date index alone (or from the matches of a substring
    // filter), and only then their rows: a deep page skips index entries, not whole rows.
    rows: ({ query, pageIds, total }) =>
      query
        .select({ ...publicColumns, total })
        .from(users)
        .innerJoin(pageIds, sql`page.id = ${users.id}`),
  });

  return {
    list(filter: UserFilter, page: PageRequest): Promise<Page<UserRow>> {
      return userList.list(filter, page);
    },

    /** Every row the list's filters let through, newest first, in batches (for the CSV export). */
    scan(filter: UserFilter, batchSize?: number): AsyncGenerator<UserRow[]> {
      return userList.scan(filter, batchSize);
    },

    async findById(id: string): Promise<UserRow | null> {
      const [row] = await db.select(publicColumns).from(users).where(eq(users.id, id));
      return row ?? null;
    },

    /** The user named `loginId` or its canonical form (lib/account-names.ts), an exact match first. */
    async loginIdOwner(loginId: string): Promise<string | null> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(or(eq(users.loginId, loginId), eq(users.loginKey, canonicalLoginId(loginId))))
        .orderBy(desc(sql`${users.loginId} = ${loginId}`))
        .limit(1);
      return row?.id ?? null;
    },

    /**
     * Whether the user exists; inside a transaction it also cannot be deleted until the end, so
     * what is written for the user never meets a vanished user.
     */
    async holdForUse(id: string, executor: Db): Promise<boolean> {
      const rows = await executor.select({ id: users.id }).from(users).where(eq(users.id, id)).for('key share');
      return rows.length > 0;
    },

    /** null when the loginId is taken (also when two writers race). */
    async insert(row: NewUserRow, tx: Locked<'users'>): Promise<UserRow | null> {
      const [created] = await tx
        .insert(users)
        .values({ ...row, loginKey: canonicalLoginId(row.loginId) })
        .onConflictDoNothing()
        .returning(publicColumns);
      return created ?? null;
    },

    async update(id: string, changes: UserChanges, tx: Locked<'users'>): Promise<UserRow | null> {
      const loginKey = changes.loginId === undefined ? {} : { loginKey: canonicalLoginId(changes.loginId) };
      const [row] = await tx
        .update(users)
        .set({ ...changes, ...loginKey })
        .where(eq(users.id, id))
        .returning(publicColumns);
      return row ?? null;
    },

    /**
     * What goes with the user: their issues, and the comments written by them or under their
     * issues (two disjoint index-backed counts rather than one OR that would scan every comment).
     */
    async impact(id: string): Promise<{ issues: number; comments: number }> {
      const [row] = await queryRows<{ issues: number; own: number; underIssues: number }>(
        db,
        sql`
        select
          (select count(*)::int from issues where user_id = ${id}) as "issues",
          (select count(*)::int from comments where user_id = ${id}) as "own",
          (select count(*)::int from comments c join issues i on i.id = c.issue_id
            where i.user_id = ${id} and c.user_id <> ${id}) as "underIssues"`,
      );
      return { issues: Number(row.issues), comments: Number(row.own) + Number(row.underIssues) };
    },

    async setEnabled(ids: readonly string[], enabled: boolean, tx: Locked<'users'>): Promise<void> {
      await tx
        .update(users)
        .set({ enabled })
        .where(inArray(users.id, [...ids]));
    },

    async delete(id: string, tx: Locked<'users'>): Promise<boolean> {
      const rows = await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
