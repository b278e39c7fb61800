import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { memoUntilWrite, type Db } from '../../db/client';
import { admins, adminSessions, captchas, loginFailures, settings } from '../../db/schema';

export type AuthRepository = ReturnType<typeof createAuthRepository>;

// Advisory locks of the login throttle: apart from the write locks (db/write-lock.ts) by their first key.
const THROTTLE_LOCK_SPACE = 7002;

/** A throttle key's lock number: the first four bytes of its SHA-256, as a signed integer. */
function throttleLockId(key: string): number {
  return createHash('sha256').update(key).digest().readInt32BE(0);
}

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

  async function countFailuresSince(keys: string[], since: number, executor: Db = db): Promise<Map<string, number>> {
    const rows = await executor
      .select({ key: loginFailures.key, n: sql<number>`count(*)::int` })
      .from(loginFailures)
      .where(and(inArray(loginFailures.key, keys), gt(loginFailures.failedAt, since)))
      .groupBy(loginFailures.key);
    return new Map(rows.map((r) => [r.key, Number(r.n)]));
  }

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

    countFailuresSince,

    /**
     * Settles one attempt whose password has been checked, under a lock per throttle key (so the
     * attempts on one account or from one address settle one at a time, on every process): when a
     * key already has `limit` failures since `since` the answer is 'locked' and nothing is
     * written; otherwise a failure is recorded for every key, or a success clears `clearKey`'s.
     * The password check itself (the slow part) runs outside the lock.
     */
    async settleAttempt(attempt: {
      keys: string[];
      since: number;
      at: number;
      limit: number;
      succeeded: boolean;
      clearKey: string;
    }): Promise<'locked' | 'settled'> {
      const { keys, since, at, limit, succeeded, clearKey } = attempt;
      // Taken in one order (by their number) by every attempt, so two never wait on each other.
      const lockIds = [...new Set(keys.map(throttleLockId))].sort((a, b) => a - b);
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select ${sql.join(
            lockIds.map((id) => sql`pg_advisory_xact_lock(${THROTTLE_LOCK_SPACE}, ${id}::int)`),
            sql`, `,
          )}`,
        );
        const failures = await countFailuresSince(keys, since, tx);
        if (keys.some((key) => (failures.get(key) ?? 0) >= limit)) return 'locked';
        if (succeeded) {
          await tx.delete(loginFailures).where(eq(loginFailures.key, clearKey));
          await tx.delete(loginFailures).where(lt(loginFailures.failedAt, since));
        } else {
          await tx.insert(loginFailures).values(keys.map((key) => ({ key, failedAt: at })));
        }
        return 'settled';
      });
    },

    async createSession(row: { id: string; adminId: string; createdAt: number; expiresAt: number }, executor: Db = db) {
      await executor.delete(adminSessions).where(lt(adminSessions.expiresAt, row.createdAt));
      await executor.insert(adminSessions).values(row);
    },

    async deleteSession(id: string, executor: Db = db) {
      await executor.delete(adminSessions).where(eq(adminSessions.id, id));
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
