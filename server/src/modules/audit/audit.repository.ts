import { and, count, eq, getTableColumns, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../../../contract/paging';
import type { Db } from '../../db/client';
import { nearestEndPage, newestFirst, paginate } from '../../db/list';
import { auditLog } from '../../db/schema';
import type { PageRequest } from '../../lib/paging';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditRepository = ReturnType<typeof createAuditRepository>;

export interface AuditFilter {
  adminId?: string;
  entity?: string;
  action?: string;
  from?: number;
  to?: number;
}

/** How many entries one retention statement removes: short statements, short row locks. */
export const PURGE_BATCH = 1000;

/** At most this many entries in one record's history (a record changed more often shows its latest). */
export const HISTORY_LIMIT = 200;

// Newest first, said exactly as the indexes are built (`desc nulls last`, see db/list.ts newestFirst).
const NEWEST_FIRST = newestFirst(auditLog.at, auditLog.id);

export function createAuditRepository(db: Db) {
  return {
    /**
     * One page, newest first, and the total. Each filter has an index that leads with it and ends
     * in the order (admin, entity, action; a time range alone walks the date index). The total is
     * counted on each call (no kept counts here: every write of every table writes this log, and
     * counter rows would make them all queue on one another), through the same index; the page
     * is read from the nearer end, so a deep page costs about what page 1 does
     * (nearestEndPage).
     */
    list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>> {
      const conditions: SQL[] = [];
      if (filter.adminId) conditions.push(eq(auditLog.adminId, filter.adminId));
      if (filter.entity) conditions.push(eq(auditLog.entity, filter.entity));
      if (filter.action) conditions.push(eq(auditLog.action, filter.action));
      if (filter.from !== undefined) conditions.push(gte(auditLog.at, filter.from));
      if (filter.to !== undefined) conditions.push(lte(auditLog.at, filter.to));
      const where = and(...conditions);
      return paginate<AuditRow>(page, {
        rows: (limit, offset) => {
          const { pageIds, total } = nearestEndPage({ db, table: auditLog, where, date: auditLog.at, id: auditLog.id, limit, offset });
          return db
            .select({ ...getTableColumns(auditLog), total })
            .from(auditLog)
            .innerJoin(pageIds, sql`page.id = ${auditLog.id}`)
            .orderBy(...NEWEST_FIRST);
        },
        total: async () => {
          const [{ n }] = await db.select({ n: count() }).from(auditLog).where(where);
          return Number(n);
        },
      });
    },

    /** One record's history, newest first (audit_log_record_idx). */
    history(entity: string, entityId: string): Promise<AuditRow[]> {
      return db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
        .orderBy(...NEWEST_FIRST)
        .limit(HISTORY_LIMIT);
    },

    async findById(id: number): Promise<AuditRow | null> {
      const [row] = await db.select().from(auditLog).where(eq(auditLog.id, id));
      return row ?? null;
    },

    /**
     * Removes up to PURGE_BATCH entries older than `before` (found through the date index) and
     * answers how many went.
     */
    async purgeBatch(before: number): Promise<number> {
      const oldest = db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, before)).limit(PURGE_BATCH);
      const removed = await db.delete(auditLog).where(inArray(auditLog.id, oldest)).returning({ id: auditLog.id });
      return removed.length;
    },
  };
}
