import { createHash } from 'node:crypto';
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { memoUntilWrite, type Db } from '../../db/client';
import { SESSION_TABLES } from '../../db/change-feed';
import type { Locked } from '../../db/write-lock';
import {
  adminLogins,
  adminRecoveryCodes,
  admins,
  adminSessions,
  captchas,
  loginChallenges,
  loginFailures,
  settings,
} from '../../db/schema';

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
      lastSeenAt: adminSessions.lastSeenAt,
      reauthAt: adminSessions.reauthAt,
      signedInWithPasskey: adminSessions.signedInWithPasskey,
      mustChangePassword: admins.mustChangePassword,
      // What the two-step requirement needs, read by this same statement (no second one per request).
      twoFactorOn: sql<boolean>`${admins.totpSecret} is not null`,
      require2fa: settings.value,
    })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .leftJoin(settings, sql`${settings.key} = 'require_2fa'`)
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
      layer: 'sessions',
      tables: SESSION_TABLES,
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
      /** null: a success clears nothing (a right password before its second step, a right current password). */
      clearKey: string | null;
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
          if (clearKey) await tx.delete(loginFailures).where(eq(loginFailures.key, clearKey));
          await tx.delete(loginFailures).where(lt(loginFailures.failedAt, since));
        } else {
          await tx.insert(loginFailures).values(keys.map((key) => ({ key, failedAt: at })));
        }
        return 'settled';
      });
    },

    async createSession(
      row: {
        id: string;
        adminId: string;
        createdAt: number;
        expiresAt: number;
        ip: string;
        userAgent: string;
        signedInWithPasskey?: boolean;
      },
      executor: Db = db,
    ) {
      await executor.delete(adminSessions).where(lt(adminSessions.expiresAt, row.createdAt));
      // Signing in is a proof of identity: the session starts with a fresh one.
      await executor.insert(adminSessions).values({ ...row, lastSeenAt: row.createdAt, reauthAt: row.createdAt });
    },

    /** Records a fresh proof of identity in the session (POST /api/admin/me/reauth, a password change). */
    async proveSession(id: string, at: number, executor: Db = db) {
      await executor.update(adminSessions).set({ reauthAt: at }).where(eq(adminSessions.id, id));
    },

    async deleteSession(id: string, executor: Db = db) {
      await executor.delete(adminSessions).where(eq(adminSessions.id, id));
    },

    /** Ends every session of the admin; answers how many there were. */
    async deleteSessionsOf(adminId: string, executor: Db = db): Promise<number> {
      const rows = await executor.delete(adminSessions).where(eq(adminSessions.adminId, adminId)).returning({ id: adminSessions.id });
      return rows.length;
    },

    /** Ends every session of the admin but `keepId` (the caller's own); answers how many there were. */
    async deleteOtherSessions(adminId: string, keepId: string, executor: Db = db): Promise<number> {
      const rows = await executor
        .delete(adminSessions)
        .where(and(eq(adminSessions.adminId, adminId), ne(adminSessions.id, keepId)))
        .returning({ id: adminSessions.id });
      return rows.length;
    },

    /** Ends one session of the admin; false when it has no such session. */
    async deleteSessionOf(adminId: string, sessionId: string, executor: Db = db): Promise<boolean> {
      const rows = await executor
        .delete(adminSessions)
        .where(and(eq(adminSessions.adminId, adminId), eq(adminSessions.id, sessionId)))
        .returning({ id: adminSessions.id });
      return rows.length > 0;
    },

    /** The admin's live sessions, most recently seen first (admin_sessions_admin_id_idx). */
    liveSessions(adminId: string, now: number) {
      return db
        .select()
        .from(adminSessions)
        .where(and(eq(adminSessions.adminId, adminId), gt(adminSessions.expiresAt, now)))
        .orderBy(desc(adminSessions.lastSeenAt), desc(adminSessions.createdAt));
    },

    /**
     * Records that the session was used at `at`, unless it was within the last `everyMs`: the
     * condition makes concurrent requests and processes write it once per interval at most.
     */
    async touchSession(id: string, at: number, everyMs: number) {
      await db
        .update(adminSessions)
        .set({ lastSeenAt: at })
        .where(and(eq(adminSessions.id, id), or(isNull(adminSessions.lastSeenAt), lte(adminSessions.lastSeenAt, at - everyMs))));
    },

    async createChallenge(row: { idHash: string; adminId: string; remember: boolean; expiresAt: number }, now: number) {
      await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, now));
      await db.insert(loginChallenges).values(row);
    },

    async findChallenge(idHash: string, now: number) {
      const [row] = await db
        .select()
        .from(loginChallenges)
        .where(and(eq(loginChallenges.idHash, idHash), gt(loginChallenges.expiresAt, now)));
      return row ?? null;
    },

    /** Counts a wrong code against the challenge; the challenge dies at `max` wrong codes. */
    async failChallenge(idHash: string, max: number) {
      await db.transaction(async (tx) => {
        await tx
          .update(loginChallenges)
          .set({ failures: sql`${loginChallenges.failures} + 1` })
          .where(eq(loginChallenges.idHash, idHash));
        await tx.delete(loginChallenges).where(and(eq(loginChallenges.idHash, idHash), gte(loginChallenges.failures, max)));
      });
    },

    /** Deletes the challenge and tells whether it was still there: of two uses, one wins. */
    async consumeChallenge(idHash: string): Promise<boolean> {
      const rows = await db.delete(loginChallenges).where(eq(loginChallenges.idHash, idHash)).returning({ id: loginChallenges.idHash });
      return rows.length > 0;
    },

    /**
     * Accepts TOTP time step `step` for the admin unless it (or a later one) was accepted before:
     * one conditional update, so a code is good once even when two requests race with it.
     */
    async claimTotpStep(adminId: string, step: number, tx: Locked<'admins'>): Promise<boolean> {
      const rows = await tx
        .update(admins)
        .set({ totpLastStep: step })
        .where(and(eq(admins.id, adminId), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step))))
        .returning({ id: admins.id });
      return rows.length > 0;
    },

    /** Deletes the recovery code and tells whether it existed: a code works once. */
    async consumeRecoveryCode(adminId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .delete(adminRecoveryCodes)
        .where(and(eq(adminRecoveryCodes.adminId, adminId), eq(adminRecoveryCodes.codeHash, codeHash)))
        .returning({ adminId: adminRecoveryCodes.adminId });
      return rows.length > 0;
    },

    /** How many unused recovery codes the admin has (admin_recovery_codes_admin_id_idx). */
    async countRecoveryCodes(adminId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(adminRecoveryCodes)
        .where(eq(adminRecoveryCodes.adminId, adminId));
      return Number(row.n);
    },

    async replaceRecoveryCodes(adminId: string, codeHashes: string[], executor: Db = db) {
      await executor.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
      if (codeHashes.length) await executor.insert(adminRecoveryCodes).values(codeHashes.map((codeHash) => ({ adminId, codeHash })));
    },

    /** Records a sign-in attempt on an account, and forgets those older than `keepSince` (admin_logins_at_idx). */
    async recordLogin(
      row: { adminId: string; at: number; ip: string; userAgent: string; succeeded: boolean; result: string },
      keepSince: number,
    ) {
      await db.delete(adminLogins).where(lt(adminLogins.at, keepSince));
      await db.insert(adminLogins).values(row);
    },

    /** One page of the admin's sign-ins since `since`, newest first (admin_logins_admin_id_at_idx). */
    async loginPage(adminId: string, since: number, offset: number, limit: number) {
      const where = and(eq(adminLogins.adminId, adminId), gte(adminLogins.at, since));
      const [[total], rows] = await Promise.all([
        db.select({ n: count() }).from(adminLogins).where(where),
        db.select().from(adminLogins).where(where).orderBy(desc(adminLogins.at), desc(adminLogins.id)).offset(offset).limit(limit),
      ]);
      return { total: Number(total.n), rows };
    },

    async setting(key: string, executor: Db = db): Promise<string | null> {
      const [row] = await executor.select().from(settings).where(eq(settings.key, key));
      return row?.value ?? null;
    },

    async setSetting(key: string, value: string, executor: Db = db) {
      await executor.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
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
