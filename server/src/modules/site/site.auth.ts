import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { AUTH_MESSAGES } from '#contract/auth';
import type { MemberSession } from '#contract/site';
import type { Db } from '../../db/client';
import { userSessions, users } from '../../db/schema';
import { forbidden, sessionEnded, unauthorized } from '../../lib/errors';
import type { ClientInfo } from '../auth/auth.service';
import type { Keys } from '../auth/keys';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The reference's lifetimes: 1 day, 7 days with `remember`. */
export const MEMBER_SESSION_MS = { short: DAY_MS, remembered: 7 * DAY_MS } as const;

export interface AuthenticatedMember {
  id: string;
  loginId: string;
  sessionId: string;
  /** The caller's address, for the limits per address. */
  ip: string;
}

export type MemberAuth = ReturnType<typeof createMemberAuth>;

/**
 * Members' sessions: a token signed with the members' own key (modules/auth/keys.ts) naming a row
 * of user_sessions. Every member call reads its session and user in one indexed statement, so an
 * ended session or a disabled user is refused at once, in every process.
 */
export function createMemberAuth(deps: { db: Db; getKeys: () => Promise<Keys>; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  return {
    async authenticate(authorization: string | undefined, ip: string): Promise<AuthenticatedMember> {
      const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!match) throw unauthorized();
      const claims = (await deps.getKeys()).memberTokens.verify(match[1]);
      if (!claims) throw unauthorized();
      const at = now();
      const [row] = await db
        .select({ loginId: users.loginId, enabled: users.enabled })
        .from(userSessions)
        .innerJoin(users, eq(users.id, userSessions.userId))
        .where(and(eq(userSessions.id, claims.sid), eq(userSessions.userId, claims.sub), gt(userSessions.expiresAt, at)));
      if (!row) throw at < claims.expiresAt ? sessionEnded() : unauthorized();
      if (!row.enabled) throw forbidden(AUTH_MESSAGES.frozen);
      return { id: claims.sub, loginId: row.loginId, sessionId: claims.sid, ip };
    },

    /** A new session and its token; expired sessions of the user are cleared on the way. */
    async start(userId: string, remember: boolean, client: ClientInfo, executor: Db = db): Promise<string> {
      const at = now();
      const lifetime = remember ? MEMBER_SESSION_MS.remembered : MEMBER_SESSION_MS.short;
      const id = randomBytes(16).toString('hex');
      await executor.delete(userSessions).where(and(eq(userSessions.userId, userId), lt(userSessions.expiresAt, at)));
      await executor.insert(userSessions).values({
        id,
        userId,
        createdAt: at,
        expiresAt: at + lifetime,
        ip: client.ip,
        userAgent: client.userAgent.slice(0, 512),
      });
      return (await deps.getKeys()).memberTokens.sign({ sub: userId, sid: id }, lifetime);
    },

    async end(sessionId: string): Promise<void> {
      await db.delete(userSessions).where(eq(userSessions.id, sessionId));
    },

    /** A user's live sessions, newest first (user_sessions_user_id_idx). */
    async list(userId: string): Promise<MemberSession[]> {
      return db
        .select({
          id: userSessions.id,
          createdAt: userSessions.createdAt,
          expiresAt: userSessions.expiresAt,
          ip: userSessions.ip,
          userAgent: userSessions.userAgent,
        })
        .from(userSessions)
        .where(and(eq(userSessions.userId, userId), gt(userSessions.expiresAt, now())))
        .orderBy(desc(userSessions.createdAt), desc(userSessions.id));
    },

    /** Ends the sessions of these users (all, or all but `keepId`); answers how many there were. */
    async endAllOf(userIds: readonly string[], executor: Db = db, keepId?: string): Promise<number> {
      if (!userIds.length) return 0;
      const rows = await executor
        .delete(userSessions)
        .where(and(inArray(userSessions.userId, [...userIds]), keepId ? ne(userSessions.id, keepId) : undefined))
        .returning({ id: userSessions.id });
      return rows.length;
    },

    /** Ends one session of the user; false when the user has no such session. */
    async endOne(userId: string, sessionId: string, executor: Db = db): Promise<boolean> {
      const rows = await executor
        .delete(userSessions)
        .where(and(eq(userSessions.userId, userId), eq(userSessions.id, sessionId)))
        .returning({ id: userSessions.id });
      return rows.length > 0;
    },

    /** Marks that this session has just proved the account's current password (or, with null, that the proof is used up). */
    async markPasswordChecked(sessionId: string, at: number | null = now(), executor: Db = db): Promise<void> {
      await executor.update(userSessions).set({ passwordCheckedAt: at }).where(eq(userSessions.id, sessionId));
    },

    async passwordCheckedAt(sessionId: string): Promise<number | null> {
      const [row] = await db.select({ at: userSessions.passwordCheckedAt }).from(userSessions).where(eq(userSessions.id, sessionId));
      return row?.at ?? null;
    },
  };
}
