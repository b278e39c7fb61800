import { and, desc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS, type AuditChange } from '#contract/audit';
import { SANCTION_LABELS, SANCTION_MESSAGES, type CreateSanctionBody, type Sanction, type SanctionKind } from '#contract/review';
import { USER_MESSAGES } from '#contract/user';
import type { Db } from '../../db/client';
import { users, userSanctions } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { ERROR_CODES } from '#contract/envelope';
import { zonedDate } from '../../lib/csv';
import { newId } from '../../lib/ids';
import type { Job } from '../../lib/jobs';
import type { Actor, Audit } from '../audit/audit';

const DAY_MS = 24 * 60 * 60 * 1000;

type SanctionRow = typeof userSanctions.$inferSelect;

/** A sanction in force, as the member-facing calls see it (`endsAt` null: for good). */
export interface ActiveSanction {
  kind: SanctionKind;
  endsAt: number | null;
  /** The old 启用/禁用 switch: a disabled account is an indefinite 封禁 with no row of its own. */
  fromSwitch?: true;
}

/**
 * Ends a member's sessions inside the suspension's transaction. The member sign-in (branch wt-site)
 * registers its own with `endSessionsWith`; until then a suspension has no sessions to end.
 */
export type SessionEnder = (tx: Db, userId: string) => Promise<unknown>;

export function toSanction(row: SanctionRow, at: number): Sanction {
  return {
    _id: row.id,
    userId: row.userId,
    kind: row.kind as SanctionKind,
    days: row.days,
    reason: row.reason,
    by: { _id: row.byAdminId, loginId: row.byLoginId },
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    liftedAt: row.liftedAt,
    liftedBy: row.liftedBy ? { _id: row.liftedBy, loginId: row.liftedByLoginId ?? '' } : null,
    active: isActive(row, at),
  };
}

const isActive = (row: SanctionRow, at: number) => row.liftedAt === null && (row.endsAt === null || row.endsAt > at);

/** The note an audit entry of a sanction carries: 「禁言 7 天：理由」. */
function describe(row: Pick<SanctionRow, 'kind' | 'days' | 'reason'>): string {
  const length = row.days === null ? '永久' : `${row.days} 天`;
  return `${SANCTION_LABELS[row.kind as SanctionKind]} ${length}：${row.reason}`;
}

export type SanctionService = ReturnType<typeof createSanctionService>;

export function createSanctionService(deps: { db: Db; audit: Audit; timeZone: string; now?: () => number }) {
  const { db, audit, timeZone } = deps;
  const now = deps.now ?? Date.now;
  const enders: SessionEnder[] = [];

  async function lockUser(tx: Db, userId: string) {
    const [user] = await tx.select({ id: users.id, loginId: users.loginId }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound(USER_MESSAGES.notFound);
    return user;
  }

  async function lockSanction(tx: Db, userId: string, sanctionId: string): Promise<SanctionRow> {
    const [row] = await tx
      .select()
      .from(userSanctions)
      .where(and(eq(userSanctions.id, sanctionId), eq(userSanctions.userId, userId)))
      .for('update');
    if (!row) throw notFound(SANCTION_MESSAGES.notFound);
    return row;
  }

  const changeOf = (row: SanctionRow): AuditChange[] => [{ field: 'sanction', after: row.id, note: describe(row) }];

  /** Lifts sanction `row` by `actor` inside `tx`, with its audit entry. */
  async function liftIn(tx: Db, actor: Actor, loginId: string, row: SanctionRow) {
    const at = now();
    if (!isActive(row, at)) throw conflict(SANCTION_MESSAGES.alreadyLifted);
    await tx
      .update(userSanctions)
      .set({ liftedAt: at, liftedBy: actor.id, liftedByLoginId: actor.loginId })
      .where(eq(userSanctions.id, row.id));
    await audit.record(tx, actor, {
      action: AUDIT_ACTIONS.liftSanction,
      entity: 'user',
      entityId: row.userId,
      title: loginId,
      changes: changeOf(row),
    });
  }

  async function activeOf(userId: string, kind: SanctionKind, at: number): Promise<ActiveSanction | null> {
    // A suspension also silences: a member who cannot sign in cannot post either.
    const kinds = kind === 'mute' ? ['mute', 'suspend'] : ['suspend'];
    // Asked before every member post: the two reads go out together, not one after the other.
    const sanctionsInForce = db
      .select({ kind: userSanctions.kind, endsAt: userSanctions.endsAt })
      .from(userSanctions)
      .where(
        and(
          eq(userSanctions.userId, userId),
          isNull(userSanctions.liftedAt),
          or(isNull(userSanctions.endsAt), gt(userSanctions.endsAt, at)),
          sql`${userSanctions.kind} in ${kinds}`,
        ),
      );
    const [rows, [user]] = await Promise.all([
      sanctionsInForce,
      db.select({ enabled: users.enabled }).from(users).where(eq(users.id, userId)),
    ]);
    if (user && !user.enabled) return { kind: 'suspend', endsAt: null, fromSwitch: true };
    if (!rows.length) return null;
    // The one that lasts longest is the one to tell of.
    const forGood = rows.find((row) => row.endsAt === null);
    const pick = forGood ?? rows.reduce((a, b) => ((a.endsAt ?? 0) >= (b.endsAt ?? 0) ? a : b));
    return { kind: rows.some((r) => r.kind === 'suspend') ? 'suspend' : (pick.kind as SanctionKind), endsAt: pick.endsAt };
  }

  return {
    /**
     * The sanction of `kind` in force on `userId` now, or null. Every member call that posts or
     * comments asks `activeSanction(id, 'mute')`, and the member sign-in and session check ask
     * `activeSanction(id, 'suspend')` (docs/api.md "Sanctions").
     */
    activeSanction: (userId: string, kind: SanctionKind) => activeOf(userId, kind, now()),

    /** Throws the refusal a sanctioned member's call answers (403, saying until when), or returns. */
    async refuseIfSanctioned(userId: string, kind: SanctionKind): Promise<void> {
      const active = await activeOf(userId, kind, now());
      if (!active) return;
      const until = active.endsAt === null ? null : zonedDate(active.endsAt, timeZone);
      const message = active.kind === 'suspend' ? SANCTION_MESSAGES.suspended(until) : SANCTION_MESSAGES.muted(until);
      throw new AppError(403, message, active.kind === 'suspend' ? ERROR_CODES.suspended : ERROR_CODES.muted);
    },

    /** Registers how the member sign-in ends a member's sessions when they are suspended. */
    endSessionsWith(ender: SessionEnder) {
      enders.push(ender);
    },

    async list(userId: string): Promise<Sanction[]> {
      const rows = await db
        .select()
        .from(userSanctions)
        .where(eq(userSanctions.userId, userId))
        .orderBy(desc(userSanctions.startsAt), desc(userSanctions.id));
      const at = now();
      return rows.map((row) => toSanction(row, at));
    },

    async create(actor: Actor, userId: string, body: CreateSanctionBody): Promise<Sanction> {
      return db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const at = now();
        const row: SanctionRow = {
          id: newId(at),
          userId,
          kind: body.kind,
          days: body.days,
          reason: body.reason.trim(),
          byAdminId: actor.id,
          byLoginId: actor.loginId,
          startsAt: at,
          endsAt: body.days === null ? null : at + body.days * DAY_MS,
          liftedBy: null,
          liftedByLoginId: null,
          liftedAt: null,
        };
        await tx.insert(userSanctions).values(row);
        // Their sessions end in the same transaction: no call of theirs is answered after this commits.
        if (body.kind === 'suspend') for (const end of enders) await end(tx, userId);
        await audit.record(tx, actor, {
          action: body.kind === 'mute' ? AUDIT_ACTIONS.mute : AUDIT_ACTIONS.suspend,
          entity: 'user',
          entityId: userId,
          title: user.loginId,
          changes: changeOf(row),
        });
        return toSanction(row, at);
      });
    },

    async lift(actor: Actor, userId: string, sanctionId: string): Promise<Sanction> {
      return db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const row = await lockSanction(tx, userId, sanctionId);
        await liftIn(tx, actor, user.loginId, row);
        const [after] = await tx.select().from(userSanctions).where(eq(userSanctions.id, sanctionId));
        return toSanction(after, now());
      });
    },

    /** 撤销此修改 on a 禁言 or 封禁 entry: the sanction is lifted. */
    async revertImposed(actor: Actor, entry: { entityId: string; changes: AuditChange[] }): Promise<void> {
      const sanctionId = String(entry.changes.find((c) => c.field === 'sanction')?.after ?? '');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, entry.entityId);
        await liftIn(tx, actor, user.loginId, await lockSanction(tx, entry.entityId, sanctionId));
      });
    },

    /** 撤销此修改 on a 解除处罚 entry: the sanction is in force again until its own end. */
    async revertLift(actor: Actor, entry: { entityId: string; changes: AuditChange[] }): Promise<void> {
      const sanctionId = String(entry.changes.find((c) => c.field === 'sanction')?.after ?? '');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, entry.entityId);
        const row = await lockSanction(tx, entry.entityId, sanctionId);
        if (row.liftedAt === null || (row.endsAt !== null && row.endsAt <= now())) throw conflict(SANCTION_MESSAGES.alreadyLifted);
        await tx.update(userSanctions).set({ liftedAt: null, liftedBy: null, liftedByLoginId: null }).where(eq(userSanctions.id, row.id));
        if (row.kind === 'suspend') for (const end of enders) await end(tx, row.userId);
        await audit.record(tx, actor, {
          action: row.kind === 'mute' ? AUDIT_ACTIONS.mute : AUDIT_ACTIONS.suspend,
          entity: 'user',
          entityId: row.userId,
          title: user.loginId,
          changes: changeOf(row),
        });
      });
    },

    /**
     * Marks every sanction whose end has come as lifted by the clock (liftedBy null). A refusal
     * never waits for this (activeSanction compares with the clock); it keeps the record and
     * tells the queue's live events. Answers how many.
     */
    async liftExpired(): Promise<number> {
      const at = now();
      const lifted = await db
        .update(userSanctions)
        .set({ liftedAt: sql`${userSanctions.endsAt}` })
        .where(and(isNull(userSanctions.liftedAt), isNotNull(userSanctions.endsAt), lte(userSanctions.endsAt, at)))
        .returning({ id: userSanctions.id });
      return lifted.length;
    },
  };
}

/** How often a serving server lifts the sanctions that have ended: within a minute of their end. */
export const SANCTION_EXPIRY_INTERVAL_MS = 30_000;

export function sanctionExpiryJob(service: Pick<SanctionService, 'liftExpired'>, intervalMs = SANCTION_EXPIRY_INTERVAL_MS): Job {
  return { name: 'sanction expiry', intervalMs, runAtStart: true, run: () => service.liftExpired() };
}
