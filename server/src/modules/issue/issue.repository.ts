import { and, eq, getTableColumns, ilike, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptTotal } from '../../db/list-counts';
import { issues, users } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import { likePattern } from '../../lib/filters';
import { countedTotal, givenFilters, newestFirst, pageSource, paginate, statementsByFilters, totalOf, type Page, type PageRequest } from '../../lib/paging';

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

type ListValues<T> = { issueTitle?: string | T; typeId?: string | T; issueStatus?: boolean | T };

/** The filter and the total of the issue list, with these values or with placeholders for them. */
function listSql(values: ListValues<Placeholder>) {
  const where = and(
    values.issueTitle === undefined ? undefined : ilike(issues.issueTitle, values.issueTitle),
    values.typeId === undefined ? undefined : eq(issues.typeId, values.typeId),
    values.issueStatus === undefined ? undefined : eq(issues.issueStatus, values.issueStatus),
  );
  const total =
    values.issueTitle === undefined
      ? keptTotal('issues', { flag: values.issueStatus, typeId: values.typeId })
      : countedTotal(issues, where);
  return { where, total };
}

export function createIssueRepository(db: Db) {
  const listStatement = statementsByFilters('issue', (values: ListValues<Placeholder>, name) => {
    const { where, total: kept } = listSql(values);
    const order = newestFirst(issues.issueDate, issues.id);
    // The page's ids from an index (or the title filter's matches) first, then their rows and
    // authors (see the user list).
    const { query, pageIds, total } = pageSource(db, {
      table: issues,
      date: issues.issueDate,
      id: issues.id,
      where,
      textFiltered: values.issueTitle !== undefined,
      kept,
    });
    return query
      .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar }, total })
      .from(issues)
      .innerJoin(pageIds, sql`page.id = ${issues.id}`)
      .innerJoin(users, eq(users.id, issues.userId))
      .orderBy(...order)
      .prepare(name);
  });

  const withUser = (where: SQL | undefined) =>
    db
      .select({ ...getTableColumns(issues), user: { id: users.id, nickname: users.nickname, avatar: users.avatar } })
      .from(issues)
      .innerJoin(users, eq(users.id, issues.userId))
      .where(where);

  return {
    list(filter: IssueFilter, page: PageRequest): Promise<Page<IssueWithUser>> {
      const values = {
        issueTitle: filter.issueTitle ? likePattern(filter.issueTitle) : undefined,
        typeId: filter.typeId || undefined,
        issueStatus: filter.issueStatus,
      };
      return paginate(page, {
        total: () => totalOf(db, listSql(values).total),
        rows: (limit, offset) => listStatement(givenFilters(values)).execute({ ...values, limit, offset }),
      });
    },

    async findById(id: string): Promise<IssueWithUser | null> {
      const [row] = await withUser(eq(issues.id, id));
      return row ?? null;
    },

    async insert(row: IssueRow, tx: Locked<'issues'>): Promise<IssueRow> {
      const [created] = await tx.insert(issues).values(row).returning();
      return created;
    },

    async update(id: string, changes: IssueChanges, tx: Locked<'issues'>): Promise<IssueRow | null> {
      const [row] = await tx.update(issues).set(changes).where(eq(issues.id, id)).returning();
      return row ?? null;
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
