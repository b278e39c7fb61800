import { and, asc, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Locked } from '../../db/write-lock';
import { admins } from '../../db/schema';
import { canonicalLoginId } from '../../lib/account-names';

export type AdminRow = typeof admins.$inferSelect;
/** A new admin: its canonical name is computed here, never given. */
export type NewAdminRow = Omit<typeof admins.$inferInsert, 'loginKey'>;
export type AdminRepository = ReturnType<typeof createAdminRepository>;

export function createAdminRepository(db: Db) {
  return {
    list() {
      return db.select().from(admins).orderBy(asc(admins.createdAt), asc(admins.id));
    },

    async findById(id: string, executor: Db = db): Promise<AdminRow | null> {
      const [row] = await executor.select().from(admins).where(eq(admins.id, id));
      return row ?? null;
    },

    /**
     * The admin whose name is `loginId` or has its canonical form (lib/account-names.ts); an exact
     * match first, so an account kept with a suffixed key after a collision still signs in.
     */
    async findByLoginId(loginId: string): Promise<AdminRow | null> {
      const [row] = await db
        .select()
        .from(admins)
        .where(or(eq(admins.loginId, loginId), eq(admins.loginKey, canonicalLoginId(loginId))))
        .orderBy(desc(sql`${admins.loginId} = ${loginId}`))
        .limit(1);
      return row ?? null;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(admins);
      return Number(row.n);
    },

    /** Inserts unless the loginId or its canonical form is taken; null means it was (also when two writers race). */
    async insert(row: NewAdminRow, tx: Locked<'admins'>): Promise<AdminRow | null> {
      const [created] = await tx
        .insert(admins)
        .values({ ...row, loginKey: canonicalLoginId(row.loginId) })
        .onConflictDoNothing()
        .returning();
      return created ?? null;
    },

    async update(id: string, changes: Partial<Omit<AdminRow, 'id' | 'loginId' | 'loginKey' | 'createdAt'>>, tx: Locked<'admins'>) {
      const [row] = await tx.update(admins).set(changes).where(eq(admins.id, id)).returning();
      return row ?? null;
    },

    /**
     * Replaces an imported md5 hash by an argon2id one once its password was proven. Only while it
     * is still legacy: a password set meanwhile by someone else is never overwritten.
     */
    async replaceLegacyPassword(id: string, passwordHash: string, tx: Locked<'admins'>): Promise<void> {
      await tx
        .update(admins)
        .set({ passwordHash, passwordLegacy: false })
        .where(and(eq(admins.id, id), eq(admins.passwordLegacy, true)));
    },

    async delete(id: string, tx: Locked<'admins'>): Promise<boolean> {
      const rows = await tx.delete(admins).where(eq(admins.id, id)).returning({ id: admins.id });
      return rows.length > 0;
    },

    /**
     * Counts the enabled super admins but `exceptId`. Under the admins write lock no other writer
     * can change them before this transaction ends, so two concurrent demotions cannot both see
     * "another super admin is left" (and no row locks are taken in an order of their own).
     */
    async countOtherEnabledSupers(exceptId: string, tx: Locked<'admins'>): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(admins)
        .where(and(eq(admins.permission, 1), eq(admins.enabled, true), ne(admins.id, exceptId)));
      return Number(row.n);
    },
  };
}
