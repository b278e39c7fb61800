import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { defineList, exactFilter, textFilter } from '../../db/list';
import { interviews } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import type { PageRequest } from '../../lib/paging';

export type InterviewRow = typeof interviews.$inferSelect;
export type InterviewChanges = Partial<Pick<InterviewRow, 'interviewTitle' | 'interviewContent' | 'typeId'>>;
export type InterviewRepository = ReturnType<typeof createInterviewRepository>;

export interface InterviewFilter {
  interviewTitle?: string;
  typeId?: string;
}

export function createInterviewRepository(db: Db) {
  const interviewList = defineList(db, {
    name: 'interview',
    table: interviews,
    date: interviews.onShelfDate,
    id: interviews.id,
    filters: { interviewTitle: textFilter(interviews.interviewTitle), typeId: exactFilter(interviews.typeId, 'typeId') },
    counted: 'interviews',
    buckets: [[], ['typeId']],
    // The page's ids from an index (or the title filter's matches) first, then their rows.
    rows: ({ query, pageIds, total }) =>
      query
        .select({ ...getTableColumns(interviews), total })
        .from(interviews)
        .innerJoin(pageIds, sql`page.id = ${interviews.id}`),
  });
  return {
    list(filter: InterviewFilter, page: PageRequest): Promise<Page<InterviewRow>> {
      return interviewList.list(filter, page);
    },

    /** Every row the list's filters let through, newest first, in batches (for the CSV export). */
    scan(filter: InterviewFilter, batchSize?: number): AsyncGenerator<InterviewRow[]> {
      return interviewList.scan(filter, batchSize);
    },

    async findById(id: string): Promise<InterviewRow | null> {
      const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
      return row ?? null;
    },

    async insert(row: typeof interviews.$inferInsert, tx: Locked<'interviews'>): Promise<InterviewRow> {
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
