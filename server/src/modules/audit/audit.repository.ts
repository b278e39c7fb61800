import { and, count, eq, gte, inArray, lt, lte, type SQL } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '../../../../contract/paging';
import type { Db } from '../../db/client';
import { newestFirst } from '../../db/list';
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
     * One page, newest first. Each filter has an index that leads with it and ends in the order
     * (admin, entity, action; a time range alone walks the date index), so a page reads a page of
     * index entries; the count reads the matching entries of the same index.
     */
    async list(filter: AuditFilter, { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest): Promise<Page<AuditRow>> {
      const conditions: SQL[] = [];
      if (filter.adminId) conditions.push(eq(auditLog.adminId, filter.adminId));
      if (filter.entity) conditions.push(eq(auditLog.entity, filter.entity));
      if (filter.action) conditions.push(eq(auditLog.action, filter.action));
      if (filter.from !== undefined) conditions.push(gte(auditLog.at, filter.from));
      if (filter.to !== undefined) conditions.push(lte(auditLog.at, filter.to));
      const where = and(...conditions);
      const [data, [{ n }]] = await Promise.all([
        db
          .select()
          .from(auditLog)
          .where(where)
          .orderBy(...NEWEST_FIRST)
          .limit(pageSize)
          .offset((current - 1) * pageSize),
        db.select({ n: count() }).from(auditLog).where(where),
      ]);
      const total = Number(n);
      return { currentPage: current, eachPage: pageSize, count: total, totalPage: Math.ceil(total / pageSize), data };
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
