import { and, count, eq, getTableColumns, gte, ilike, inArray, like, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Page } from '#contract/paging';
import { queryRows, type Db } from '../../db/client';
import { gramIsMatch, nearestEndPage, termHasNoCase, newestFirst, paginate } from '../../db/list';
import { ENTITIES, type EntityName, type Naming } from '../../db/entities';
import { auditLog } from '../../db/schema';
import { likePattern } from '../../lib/filters';
import type { PageRequest } from '../../lib/paging';
import { recordGaps, verifyChain } from './audit.chain';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditRepository = ReturnType<typeof createAuditRepository>;

export interface AuditFilter {
  adminId?: string;
  entity?: string;
  action?: string;
  from?: number;
  to?: number;
  /** A record: its id exactly (any entity), or a substring of its title. */
  record?: string;
}

/** Names of the records an entry refers to, by id, per entity (lookup; ENTITIES' naming). */
export type RecordNames = {
  [K in EntityName]: Map<string, (typeof ENTITIES)[K]['naming'] extends Naming<infer N> ? N : never>;
};
export type NamedTable = EntityName;

const ID = /^[0-9a-f]{24}$/;

/**
 * The filters as one condition, each served by an index that leads with it: admin, entity,
 * action and a record's id by their (…, at, id) indexes, a title by its search_grams index, a time
 * range alone by the date index.
 */
function whereOf(filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.adminId) conditions.push(eq(auditLog.adminId, filter.adminId));
  if (filter.entity) conditions.push(eq(auditLog.entity, filter.entity));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.from !== undefined) conditions.push(gte(auditLog.at, filter.from));
  if (filter.to !== undefined) conditions.push(lte(auditLog.at, filter.to));
  const record = filter.record?.trim();
  if (record && ID.test(record.toLowerCase())) conditions.push(eq(auditLog.entityId, record.toLowerCase()));
  else if (record) {
    conditions.push(sql`search_grams(${auditLog.title}) @> search_term_grams(${record})`);
    // A term of up to three characters is its own gram: the index's match is the answer. One with
    // no letter case is matched without lower-casing every title (termHasNoCase).
    if (!gramIsMatch(record)) conditions.push((termHasNoCase(record) ? like : ilike)(auditLog.title, likePattern(record)));
  }
  return and(...conditions);
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
      const where = whereOf(filter);
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

    /**
     * Every entry the filters let through, newest first, in batches read by keyset on (at, id):
     * one short statement each, so an export's memory stays flat and a client that goes away
     * stops the reading.
     */
    async *scan(filter: AuditFilter, batchSize = 1000): AsyncGenerator<AuditRow[]> {
      const where = whereOf(filter);
      let after: { at: number; id: number } | null = null;
      for (;;) {
        const rows: AuditRow[] = await db
          .select()
          .from(auditLog)
          .where(and(where, after ? sql`(${auditLog.at}, ${auditLog.id}) < (${after.at}, ${after.id})` : undefined))
          .orderBy(...NEWEST_FIRST)
          .limit(batchSize);
        if (rows.length) yield rows;
        if (rows.length < batchSize) return;
        const last = rows[rows.length - 1];
        after = { at: last.at, id: last.id };
      }
    },

    /**
     * The names of the records entries refer to (their own records and the ids in their
     * changes), one query per entity by primary key (the registry's naming); a record not found is gone or in the bin.
     */
    async lookup(ids: { [K in NamedTable]?: Set<string> }): Promise<RecordNames> {
      const names = Object.fromEntries(Object.keys(ENTITIES).map((name) => [name, new Map()])) as RecordNames;
      await Promise.all(
        (Object.keys(ENTITIES) as EntityName[]).map(async (name) => {
          const list = [...(ids[name] ?? [])];
          if (!list.length) return;
          const map = names[name] as Map<string, unknown>;
          for (const [id, named] of await ENTITIES[name].naming.load(db, list)) map.set(id, named);
        }),
      );
      return names;
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

    /** Whether the recycle bin holds the record: deleted itself, or taken along by another's delete. */
    async inBin(entityId: string): Promise<boolean> {
      const [row] = await queryRows<{ held: boolean }>(
        db,
        sql`select exists (select 1 from trash e where e.entity_id = ${entityId}
          or jsonb_path_exists(e.rows, '$[*].rows[*] ? (@.id == $id)', jsonb_build_object('id', ${entityId}::text))) as held`,
      );
      return row?.held === true;
    },

    /**
     * Removes up to PURGE_BATCH entries older than `before` (found through the date index) and
     * answers how many went. The removed ranges of the hash chain are recorded in the same
     * transaction, under the chain head's lock, so that what remains still verifies.
     */
    purgeBatch(before: number): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from audit_chain where id = 1 for update`);
        const oldest = tx.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, before)).limit(PURGE_BATCH);
        const removed = await tx.delete(auditLog).where(inArray(auditLog.id, oldest)).returning({ seq: auditLog.seq, hash: auditLog.hash });
        const linked = removed.filter((row): row is { seq: number; hash: string } => row.seq !== null && row.hash !== null);
        await recordGaps(tx, linked);
        return removed.length;
      });
    },

    /** The hash chain checked from its start to its end (audit.chain.ts). */
    verify: () => verifyChain(db),
  };
}
