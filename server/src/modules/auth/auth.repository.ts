import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { memoUntilWrite, type Db } from '../../db/client';
import { admins, adminSessions, captchas, loginFailures, settings } from '../../db/schema';

export type AuthRepository = ReturnType<typeof createAuthRepository>;

export function createAuthRepository(db: Db) {
  // Every guarded request runs this lookup: prepared once per connection, it is neither built by
  // drizzle nor parsed and planned by the database again.
  const sessionAdmin = db
    .select({
      id: admins.id,
      loginId: admins.loginId,
      nickname: admins.nickname,
      avatar: admins.avatar,
      permission: admins.permission,
      enabled: admins.enabled,
      expiresAt: adminSessions.expiresAt,
    })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .where(
      and(
        eq(adminSessions.id, sql.placeholder('sessionId')),
        eq(adminSessions.adminId, sql.placeholder('adminId')),
        gt(adminSessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('session_admin');
  type SessionAdmin = Awaited<ReturnType<typeof sessionAdmin.execute>>[number];
  // On the embedded database the same token's lookups, request after request, are answered from
  // memory until something is written: an exact memo (see memoUntilWrite), as the lookup costs
  // PGlite a third of an unfiltered user list's CPU.
  const findSessionAdmin = memoUntilWrite(
    db,
    async (sessionId: string, adminId: string, now: number): Promise<SessionAdmin | null> => {
      const [row] = await sessionAdmin.execute({ sessionId, adminId, now });
      return row ?? null;
    },
    {
      key: (sessionId, adminId) => `${sessionId} ${adminId}`,
      keep: (row) => row !== null,
      fresh: (row, _sessionId, _adminId, now) => row !== null && row.expiresAt > now,
    },
  );

  return {
    async saveCaptcha(row: { id: string; answerHash: string; expiresAt: number }, replacesId: string | null, now: number) {
      await db.transaction(async (tx) => {
        if (replacesId) await tx.delete(captchas).where(eq(captchas.id, replacesId));
        await tx.delete(captchas).where(lt(captchas.expiresAt, now));
        await tx.insert(captchas).values(row);
      });
    },

    /** Deletes and returns the captcha in one statement: a second attempt finds nothing. */
    async consumeCaptcha(id: string) {
      const [row] = await db.delete(captchas).where(eq(captchas.id, id)).returning();
      return row ?? null;
    },

    async recordAttempts(keys: string[], at: number): Promise<number[]> {
      const rows = await db
        .insert(loginFailures)
        .values(keys.map((key) => ({ key, failedAt: at })))
        .returning({ id: loginFailures.id });
      return rows.map((r) => r.id);
    },

    async countFailuresSince(keys: string[], since: number): Promise<Map<string, number>> {
      const rows = await db
        .select({ key: loginFailures.key, n: sql<number>`count(*)::int` })
        .from(loginFailures)
        .where(and(inArray(loginFailures.key, keys), gt(loginFailures.failedAt, since)))
        .groupBy(loginFailures.key);
      return new Map(rows.map((r) => [r.key, Number(r.n)]));
    },

    async deleteAttempts(ids: number[]) {
      if (ids.length) await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
    },

    async clearFailures(key: string, olderThan: number) {
      await db.delete(loginFailures).where(eq(loginFailures.key, key));
      await db.delete(loginFailures).where(lt(loginFailures.failedAt, olderThan));
    },

    async createSession(row: { id: string; adminId: string; createdAt: number; expiresAt: number }) {
      await db.delete(adminSessions).where(lt(adminSessions.expiresAt, row.createdAt));
      await db.insert(adminSessions).values(row);
    },

    async deleteSession(id: string) {
      await db.delete(adminSessions).where(eq(adminSessions.id, id));
    },

    async deleteSessionsOf(adminId: string, executor: Db = db) {
      await executor.delete(adminSessions).where(eq(adminSessions.adminId, adminId));
    },

    /** The admin behind a live session: one indexed lookup per request, or none (see above). */
    findSessionAdmin,

    /** A value made once and shared by every process (the first writer wins). */
    async sharedSetting(key: string, make: () => string): Promise<string> {
      await db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, key));
      return row.value;
    },
  };
}
