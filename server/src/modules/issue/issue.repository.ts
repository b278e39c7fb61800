import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptCount } from '../../db/list-counts';
import { issues, users } from '../../db/schema';
import { contains, equalTo } from '../../lib/filters';
import { newestFirst, paginate, type Page, type PageRequest } from '../../lib/paging';

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
  const withUser = (where: SQL | undefined) =>
    db
      .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar } })
      .from(issues)
      .innerJoin(users, eq(users.id, issues.userId))
      .where(where);

  return {
    list(filter: IssueFilter, page: PageRequest): Promise<Page<IssueWithUser>> {
      const where = and(
        contains(issues.issueTitle, filter.issueTitle),
        equalTo(issues.typeId, filter.typeId),
        equalTo(issues.issueStatus, filter.issueStatus),
      );
      const order = newestFirst(issues.issueDate, issues.id);
      return paginate(page, {
        count: () =>
          filter.issueTitle
            ? db.$count(issues, where)
            : keptCount(db, 'issues', { flag: filter.issueStatus, typeId: filter.typeId }),
        rows: (limit, offset) => {
          // The page's ids from an index first, then their rows and authors (see the user list).
          const pageIds = db.select({ id: issues.id }).from(issues).where(where).orderBy(...order).limit(limit).offset(offset).as('page');
          return db
            .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar } })
            .from(issues)
            .innerJoin(pageIds, eq(pageIds.id, issues.id))
            .innerJoin(users, eq(users.id, issues.userId))
            .orderBy(...order);
        },
      });
    },

    async findById(id: string): Promise<IssueWithUser | null> {
      const [row] = await withUser(eq(issues.id, id));
      return row ?? null;
    },

    async insert(row: IssueRow, executor: Db = db): Promise<IssueRow> {
      const [created] = await executor.insert(issues).values(row).returning();
      return created;
    },

    async update(id: string, changes: IssueChanges, executor: Db = db): Promise<IssueRow | null> {
      const [row] = await executor.update(issues).set(changes).where(eq(issues.id, id)).returning();
      return row ?? null;
    },

    async delete(id: string, executor: Db = db): Promise<boolean> {
      const rows = await executor.delete(issues).where(eq(issues.id, id)).returning({ id: issues.id });
      return rows.length > 0;
    },

    async deleteByUser(userId: string, executor: Db): Promise<void> {
      await executor.delete(issues).where(eq(issues.userId, userId));
    },
  };
}
