import { eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { defineList, exactFilter, textFilter } from '../../db/list';
import { issues, users } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import type { PageRequest } from '../../lib/paging';

export type IssueRow = typeof issues.$inferSelect;
export type IssueChanges = Partial<Pick<IssueRow, 'issueTitle' | 'issueContent' | 'typeId' | 'issueStatus'>>;
export type IssueRepository = ReturnType<typeof createIssueRepository>;

/** An issue with its author, from one query. */
export interface IssueWithUser extends IssueRow {
  user: { id: string; nickname: string; avatar: string };
}

export interface IssueFilter {
  issueTitle?: string;
  typeId?: string;
  issueStatus?: boolean;
}

export function createIssueRepository(db: Db) {
  const issueList = defineList(db, {
    name: 'issue',
    table: issues,
    date: issues.issueDate,
    id: issues.id,
    filters: {
      issueTitle: textFilter(issues.issueTitle),
      typeId: exactFilter(issues.typeId, 'typeId'),
      issueStatus: exactFilter(issues.issueStatus, 'flag'),
    },
    counted: 'issues',
    buckets: [[], ['issueStatus'], ['typeId'], ['issueStatus', 'typeId']],
    // The page's ids from an index (or the title filter's matches) first, then their rows and authors.
    rows: ({ query, pageIds, total }) =>
      query
        .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar }, total })
        .from(issues)
        .innerJoin(pageIds, sql`page.id = ${issues.id}`)
        .innerJoin(users, eq(users.id, issues.userId)),
  });

  const withUser = (where: SQL | undefined) =>
    db
      .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar } })
      .from(issues)
      .innerJoin(users, eq(users.id, issues.userId))
      .where(where);
  // The public site's hottest reads (one issue, and the check before its comments): prepared once
  // per connection, as the book by id and the session lookup are, so neither is built per request.
  const byId = withUser(eq(issues.id, sql.placeholder('id'))).prepare('issue_by_id');
  const statusById = db
    .select({ issueStatus: issues.issueStatus })
    .from(issues)
    .where(eq(issues.id, sql.placeholder('id')))
    .prepare('issue_status_by_id');

  return {
    list(filter: IssueFilter, page: PageRequest): Promise<Page<IssueWithUser>> {
      return issueList.list(filter, page);
    },

    /** Every row the list's filters let through, newest first, in batches (for the CSV export). */
    scan(filter: IssueFilter, batchSize?: number): AsyncGenerator<IssueWithUser[]> {
      return issueList.scan(filter, batchSize);
    },

    async findById(id: string): Promise<IssueWithUser | null> {
      const [row] = await byId.execute({ id });
      return row ?? null;
    },

    /** Whether the issue is approved (true) or waits (false); null when there is no such issue. */
    async statusOf(id: string): Promise<boolean | null> {
      const [row] = await statusById.execute({ id });
      return row ? row.issueStatus : null;
    },

    async insert(row: typeof issues.$inferInsert, tx: Locked<'issues'>): Promise<IssueRow> {
      const [created] = await tx.insert(issues).values(row).returning();
      return created;
    },

    async update(id: string, changes: IssueChanges, tx: Locked<'issues'>): Promise<IssueRow | null> {
      const [row] = await tx.update(issues).set(changes).where(eq(issues.id, id)).returning();
      return row ?? null;
    },

    async setStatus(ids: readonly string[], issueStatus: boolean, tx: Locked<'issues'>): Promise<void> {
      await tx
        .update(issues)
        .set({ issueStatus })
        .where(inArray(issues.id, [...ids]));
    },

    async delete(id: string, tx: Locked<'issues'>): Promise<boolean> {
      const rows = await tx.delete(issues).where(eq(issues.id, id)).returning({ id: issues.id });
      return rows.length > 0;
    },

    async deleteByUser(userId: string, tx: Locked<'issues'>): Promise<void> {
      await tx.delete(issues).where(eq(issues.userId, userId));
    },
  };
}
