import { createHash } from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { SITE_MESSAGES } from '#contract/site';
import type { Db } from '../../db/client';
import { rateEvents } from '../../db/schema';
import { AppError } from '../../lib/errors';

export const LIMIT_WINDOW_MS = 60 * 60 * 1000;
export type LimitedAction = 'signup' | 'issue' | 'comment' | 'upload';
export type SiteLimits = Record<LimitedAction, { member: number; address: number }>;

// Advisory locks of the limits: apart from the write locks and the login throttle by their first key.
const LIMIT_LOCK_SPACE = 7003;
const lockId = (key: string) => createHash('sha256').update(key).digest().readInt32BE(0);

/**
 * The public site's limits per rolling hour, per member and per address, kept in rate_events so
 * that every process counts alike; each key is counted under its own advisory lock, so concurrent
 * calls never get past a limit together.
 */
export function createLimits(deps: { db: Db; limits: SiteLimits; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    /** Counts one `action` of the member (if any) from the address, or refuses it with 429 and Retry-After. */
    async take(action: LimitedAction, who: { memberId?: string; ip: string }): Promise<void> {
      const at = now();
      const since = at - LIMIT_WINDOW_MS;
      const keys: Array<[string, number]> = [[`${action}:ip:${who.ip}`, deps.limits[action].address]];
      if (who.memberId) keys.push([`${action}:member:${who.memberId}`, deps.limits[action].member]);
      keys.sort(([a], [b]) => (a < b ? -1 : 1));
      await deps.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`select ${keys.map(([key]) => `pg_advisory_xact_lock(${LIMIT_LOCK_SPACE}, ${lockId(key)})`).join(', ')}`));
        for (const [key, limit] of keys) {
          await tx.delete(rateEvents).where(and(eq(rateEvents.key, key), lte(rateEvents.at, since)));
          const [row] = await tx
            .select({ n: sql<number>`count(*)::int`, first: sql<number | null>`min(${rateEvents.at})` })
            .from(rateEvents)
            .where(and(eq(rateEvents.key, key), gt(rateEvents.at, since)));
          if (row.n >= limit) {
            const wait = Math.max(1, Math.ceil((Number(row.first) + LIMIT_WINDOW_MS - at) / 1000));
            throw new AppError(429, SITE_MESSAGES.tooMany, ERROR_CODES.rateLimited, undefined, wait);
          }
        }
        await tx.insert(rateEvents).values(keys.map(([key]) => ({ key, at })));
      });
    },
  };
}
export type Limits = ReturnType<typeof createLimits>;
