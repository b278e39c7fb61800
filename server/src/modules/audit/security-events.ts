import { count, getTableColumns, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Page } from '#contract/paging';
import type { SecurityEvent } from '#contract/audit';
import type { Db } from '../../db/client';
import { paginate } from '../../db/list';
import { securityEvents } from '../../db/schema';
import { COUNTERS, increment } from '../../lib/counters';
import type { Job } from '../../lib/jobs';
import type { PageRequest } from '../../lib/paging';

/**
 * Refused calls as security events. A flood must not become a flood of rows: calls are counted in
 * memory per (minute, address, method, route, reason, admin) and written in batches, one upsert
 * per key, which adds to a row another process may have written for the same minute.
 */

export interface RefusedCall {
  at: number;
  adminId: string;
  adminLoginId: string;
  address: string;
  method: string;
  route: string;
  status: number;
  reason: string;
}

type Pending = RefusedCall & { windowStart: number; firstAt: number; lastAt: number; count: number };

const WINDOW_MS = 60_000;
/** How often the counts are written. */
export const SECURITY_FLUSH_MS = 5_000;
/** Distinct keys held between writes; past it, calls are counted under one overflow key per minute. */
export const SECURITY_MAX_KEYS = 2_000;
const OVERFLOW = '*';

export type SecurityEvents = ReturnType<typeof createSecurityEvents>;

export function createSecurityEvents(deps: { db: Db; now?: () => number; maxKeys?: number; onError?: (error: unknown) => void }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const maxKeys = deps.maxKeys ?? SECURITY_MAX_KEYS;
  let pending = new Map<string, Pending>();
  let writing: Promise<void> = Promise.resolve();

  const keyOf = (call: RefusedCall, windowStart: number) =>
    JSON.stringify([windowStart, call.address, call.method, call.route, call.reason, call.adminId]);

  async function write(batch: Pending[]) {
    if (!batch.length) return;
    // Key order: two processes writing the same keys take their row locks in the same order.
    batch.sort((a, b) => (keyOf(a, a.windowStart) < keyOf(b, b.windowStart) ? -1 : 1));
    await db
      .insert(securityEvents)
      .values(
        batch.map((event) => ({
          windowStart: event.windowStart,
          firstAt: event.firstAt,
          lastAt: event.lastAt,
          adminId: event.adminId,
          adminLoginId: event.adminLoginId,
          address: event.address,
          method: event.method,
          route: event.route,
          status: event.status,
          reason: event.reason,
          count: event.count,
        })),
      )
      .onConflictDoUpdate({
        target: [
          securityEvents.windowStart,
          securityEvents.address,
          securityEvents.method,
          securityEvents.route,
          securityEvents.reason,
          securityEvents.adminId,
        ],
        set: {
          count: sql`${securityEvents.count} + excluded.count`,
          firstAt: sql`least(${securityEvents.firstAt}, excluded.first_at)`,
          lastAt: sql`greatest(${securityEvents.lastAt}, excluded.last_at)`,
        },
      });
  }

  return {
    /** Counts one refused call; nothing is written until the next flush. */
    note(call: RefusedCall) {
      const windowStart = call.at - (call.at % WINDOW_MS);
      let key = keyOf(call, windowStart);
      let found = pending.get(key);
      if (!found && pending.size >= maxKeys) {
        call = { ...call, address: OVERFLOW, route: OVERFLOW, method: OVERFLOW, adminId: '', adminLoginId: '' };
        key = keyOf(call, windowStart);
        found = pending.get(key);
      }
      if (found) {
        found.count++;
        found.lastAt = Math.max(found.lastAt, call.at);
        return;
      }
      pending.set(key, { ...call, windowStart, firstAt: call.at, lastAt: call.at, count: 1 });
    },

    /** Writes what was counted since the last flush (one statement); flushes never overlap. */
    flush(): Promise<void> {
      const batch = [...pending.values()];
      pending = new Map();
      writing = writing.then(() => write(batch)).catch((error) => deps.onError?.(error));
      return writing;
    },

    /** Keys waiting to be written (the bound's test). */
    pendingKeys: () => pending.size,

    /** Newest first, through security_events_last_at_idx. */
    list(page: PageRequest): Promise<Page<SecurityEvent>> {
      return paginate<SecurityEvent>(page, {
        rows: async (limit, offset) => {
          const rows = await db
            .select({ ...getTableColumns(securityEvents), total: sql<number>`count(*) over ()` })
            .from(securityEvents)
            .orderBy(sql`${securityEvents.lastAt} desc nulls last`, sql`${securityEvents.id} desc nulls last`)
            .limit(limit)
            .offset(offset);
          return rows.map(({ id, windowStart: _window, ...row }) => ({ ...row, _id: String(id) }));
        },
        total: async () => Number((await db.select({ n: count() }).from(securityEvents))[0].n),
      });
    },

    now,
  };
}

const ERROR_CODE = /"errorCode":"([A-Z_0-9]+)"/;

/**
 * Notes every refused call: 401 / 403 on a guarded route (access admin or super) and 429 (the
 * sign-in throttle) anywhere; the reason is the answer's errorCode. Throttled sign-ins are counted
 * for /metrics as well.
 */
export function registerSecurityEventRecording(app: FastifyInstance, events: SecurityEvents) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const status = reply.statusCode;
    if (status !== 401 && status !== 403 && status !== 429) return done(null, payload);
    const access = request.routeOptions.config?.access;
    if (status !== 429 && access !== 'admin' && access !== 'super') return done(null, payload);
    if (status === 429) increment(COUNTERS.throttledSignIns);
    const code = typeof payload === 'string' ? ERROR_CODE.exec(payload)?.[1] : undefined;
    events.note({
      at: events.now(),
      adminId: request.admin?.id ?? '',
      adminLoginId: request.admin?.loginId ?? '',
      address: request.ip,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0],
      status,
      reason: code ?? String(status),
    });
    done(null, payload);
  });
}

/** The background write of the counts (lib/jobs.ts), every SECURITY_FLUSH_MS. */
export function securityEventsJob(events: SecurityEvents): Job {
  return { name: 'security events', intervalMs: SECURITY_FLUSH_MS, run: () => events.flush() };
}
