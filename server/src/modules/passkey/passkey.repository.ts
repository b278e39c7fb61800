import { and, asc, count, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminPasskeys, passkeyChallenges } from '../../db/schema';

export type PasskeyRepository = ReturnType<typeof createPasskeyRepository>;
export type PasskeyRow = typeof adminPasskeys.$inferSelect;
export type ChallengePurpose = 'register' | 'signin' | 'proof';

export function createPasskeyRepository(db: Db) {
  return {
    /** Stores a challenge's hash, and forgets those run out (passkey_challenges_expires_at_idx). */
    async saveChallenge(row: { idHash: string; purpose: ChallengePurpose; adminId: string | null; expiresAt: number }, now: number) {
      await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
      await db.insert(passkeyChallenges).values(row);
    },

    /** Deletes and returns the challenge in one statement: of two answers with it, one finds it. */
    async consumeChallenge(idHash: string) {
      const [row] = await db.delete(passkeyChallenges).where(eq(passkeyChallenges.idHash, idHash)).returning();
      return row ?? null;
    },

    /** The admin's passkeys, oldest first (admin_passkeys_admin_id_idx). */
    listOf(adminId: string): Promise<PasskeyRow[]> {
      return db
        .select()
        .from(adminPasskeys)
        .where(eq(adminPasskeys.adminId, adminId))
        .orderBy(asc(adminPasskeys.createdAt), asc(adminPasskeys.id));
    },

    async countOf(adminId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(adminPasskeys).where(eq(adminPasskeys.adminId, adminId));
      return Number(row.n);
    },

    /** The passkey a sign-in names (admin_passkeys_credential_id_key). */
    async findByCredentialId(credentialId: string): Promise<PasskeyRow | null> {
      const [row] = await db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, credentialId));
      return row ?? null;
    },

    async insert(row: typeof adminPasskeys.$inferInsert, executor: Db = db) {
      await executor.insert(adminPasskeys).values(row);
    },

    /** Renames one of the admin's passkeys; null when the admin has no such passkey. */
    async rename(adminId: string, id: string, name: string, executor: Db = db): Promise<PasskeyRow | null> {
      const [row] = await executor
        .update(adminPasskeys)
        .set({ name })
        .where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.adminId, adminId)))
        .returning();
      return row ?? null;
    },

    /** Deletes one of the admin's passkeys and answers it; null when the admin has no such passkey. */
    async remove(adminId: string, id: string, executor: Db = db): Promise<PasskeyRow | null> {
      const [row] = await executor
        .delete(adminPasskeys)
        .where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.adminId, adminId)))
        .returning();
      return row ?? null;
    },

    /**
     * Records a use with the authenticator's new counter, only if it is higher than the stored one
     * (or both are 0: an authenticator that keeps none): a conditional update, so of two sign-ins
     * showing the same counter (a replay, a cloned key) one is refused. Answers whether it was taken.
     */
    async recordUse(id: string, counter: number, at: number): Promise<boolean> {
      const rows = await db
        .update(adminPasskeys)
        .set({ counter, lastUsedAt: at })
        .where(
          and(
            eq(adminPasskeys.id, id),
            or(lt(adminPasskeys.counter, counter), and(eq(adminPasskeys.counter, 0), sql`${counter}::bigint = 0`)),
          ),
        )
        .returning({ id: adminPasskeys.id });
      return rows.length > 0;
    },
  };
}
