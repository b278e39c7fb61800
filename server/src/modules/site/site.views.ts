import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client';
import { writeTransaction } from '../../db/write-lock';
import type { Job } from '../../lib/jobs';

const HOUR_MS = 60 * 60 * 1000;
/** Views are written at most this often per process. */
export const VIEW_FLUSH_MS = 1000;

export type ViewedTable = 'issues' | 'books';

/**
 * Views of issues and books: counted in memory, one per viewer per item per hour, and written as
 * increments (scan_number + n) in one statement per table at most once a second: exact across
 * processes, since no process ever writes a total, and lost on a crash only for the last second.
 */
export function createViewCounter(deps: { db: Db; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let pending = new Map<string, number>();
  // When each viewer last counted for each item; bounded, so a flood of viewers costs memory only up to it.
  const seen = new LRUCache<string, number>({ max: 200_000 });

  async function writeTable(table: ViewedTable, counts: Array<[string, number]>) {
    const rows = sql.join(
      counts.map(([id, n]) => sql`(${id}::varchar, ${n}::int)`),
      sql`, `,
    );
    const target = sql.identifier(table);
    await writeTransaction(deps.db, [table], (tx) =>
      tx.execute(
        sql`update ${target} set scan_number = ${target}.scan_number + v.n from (values ${rows}) as v(id, n) where ${target}.id = v.id`,
      ),
    );
  }

  const counter = {
    /** One view of an item by a viewer (a member's id or an address); false when it already counted this hour. */
    view(table: ViewedTable, id: string, viewer: string): boolean {
      const key = `${table}:${id}`;
      const at = now();
      const seenKey = `${viewer} ${key}`;
      const last = seen.get(seenKey);
      if (last !== undefined && at - last < HOUR_MS) return false;
      seen.set(seenKey, at);
      pending.set(key, (pending.get(key) ?? 0) + 1);
      return true;
    },

    /** The views counted here and not yet written, for an item. */
    pendingFor(table: ViewedTable, id: string): number {
      return pending.get(`${table}:${id}`) ?? 0;
    },

    /** Writes what was counted; what fails to be written is counted again for the next flush. */
    async flush(): Promise<void> {
      if (!pending.size) return;
      const taken = pending;
      pending = new Map();
      const byTable: Record<ViewedTable, Array<[string, number]>> = { issues: [], books: [] };
      for (const [key, n] of taken) {
        const [table, id] = key.split(':') as [ViewedTable, string];
        byTable[table].push([id, n]);
      }
      try {
        for (const table of ['books', 'issues'] as const) if (byTable[table].length) await writeTable(table, byTable[table]);
      } catch (error) {
        for (const [key, n] of taken) pending.set(key, (pending.get(key) ?? 0) + n);
        throw error;
      }
    },
  };
  return counter;
}
export type ViewCounter = ReturnType<typeof createViewCounter>;

export function viewFlushJob(views: ViewCounter): Job {
  return { name: 'view-flush', intervalMs: VIEW_FLUSH_MS, run: () => views.flush() };
}
