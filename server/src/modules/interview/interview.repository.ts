import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptTotal } from '../../db/list-counts';
import { interviews } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import { contains, equalTo } from '../../lib/filters';
import { countedTotal, newestFirst, pageSource, paginate, totalOf, type Page, type PageRequest } from '../../lib/paging';

export type InterviewRow = typeof interviews.$inferSelect;
export type InterviewChanges = Partial<Pick<InterviewRow, 'interviewTitle' | 'interviewContent' | 'typeId'>>;
export type InterviewRepository = ReturnType<typeof createInterviewRepository>;

export interface InterviewFilter {
  interviewTitle?: string;
  typeId?: string;
}

export function createInterviewRepository(db: Db) {
  return {
    list(filter: InterviewFilter, page: PageRequest): Promise<Page<InterviewRow>> {
      const where = and(contains(interviews.interviewTitle, filter.interviewTitle), equalTo(interviews.typeId, filter.typeId));
      const order = newestFirst(interviews.onShelfDate, interviews.id);
      const kept = keptTotal('interviews', { typeId: filter.typeId });
      return paginate(page, {
        total: () => totalOf(db, filter.interviewTitle ? countedTotal(interviews, where) : kept),
        rows: (limit, offset) => {
          // The page's ids from an index (or the title filter's matches) first, then their rows
          // (see the user list).
          const { query, pageIds, total } = pageSource(db, {
            table: interviews,
            date: interviews.onShelfDate,
            id: interviews.id,
            where,
            textFiltered: Boolean(filter.interviewTitle),
            kept,
            limit,
            offset,
          });
          return query
            .select({ ...getTableColumns(interviews), total })
            .from(interviews)
            .innerJoin(pageIds, sql`page.id = ${interviews.id}`)
            .orderBy(...order);
        },
      });
    },

    async findById(id: string): Promise<InterviewRow | null> {
      const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
      return row ?? null;
    },

    async insert(row: InterviewRow, tx: Locked<'interviews'>): Promise<InterviewRow> {
      const [created] = await tx.insert(interviews).values(row).returning();
      return created;
    },

    async update(id: string, changes: InterviewChanges, tx: Locked<'interviews'>): Promise<InterviewRow | null> {
      const [row] = await tx.update(interviews).set(changes).where(eq(interviews.id, id)).returning();
      return row ?? null;
    },

    async delete(id: string, tx: Locked<'interviews'>): Promise<boolean> {
      const rows = await tx.delete(interviews).where(eq(interviews.id, id)).returning({ id: interviews.id });
      return rows.length > 0;
    },
  };
}
