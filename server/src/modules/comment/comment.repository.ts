import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { CommentType } from '#contract/comment';
import type { Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { defineList, exactFilter, textFilter } from '../../db/list';
import { books, comments, issues, users } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import type { PageRequest } from '../../lib/paging';
import { COMMENT_TYPES } from '#contract/comment';

export type CommentRow = typeof comments.$inferSelect;
export type CommentRepository = ReturnType<typeof createCommentRepository>;

/** A list row: the comment with its author and what it is about, from one query. */
export interface CommentListRow extends CommentRow {
  user: { id: string; nickname: string; avatar: string };
  target: { id: string; title: string };
}

export interface CommentFilter {
  commentType?: CommentType;
  issueId?: string;
  bookId?: string;
  typeId?: string;
  commentContent?: string;
  /** false: only the comments visitors see (not held by a moderation rule). */
  held?: boolean;
}

/** The issues and books whose comments changed, so that their counters can be put right. */
export interface CommentTargets {
  issueIds: string[];
  bookIds: string[];
}

const parentOf = (commentType: CommentType) => (commentType === COMMENT_TYPES.issue ? issues : books);

export function createCommentRepository(db: Db) {
  const commentList = defineList(db, {
    name: 'comment',
    table: comments,
    date: comments.commentDate,
    id: comments.id,
    // The kept counts are by comment type and type; one parent's comments, or a text filter, are
    // counted through their own index.
    filters: {
      commentType: exactFilter(comments.commentType, 'kind'),
      issueId: exactFilter(comments.issueId),
      bookId: exactFilter(comments.bookId),
      typeId: exactFilter(comments.typeId, 'typeId'),
      commentContent: textFilter(comments.commentContent),
      held: exactFilter(comments.held),
    },
    counted: 'comments',
    // The list always has its comment type; one parent's comments are counted, and paged, through their own index.
    buckets: [['commentType'], ['commentType', 'typeId']],
    // The page's ids from an index (or the content filter's matches) first, then their rows,
    // authors and targets.
    rows: ({ query, pageIds, total }) =>
      query
        .select({
          ...getTableColumns(comments),
          user: { id: users.id, nickname: users.nickname, avatar: users.avatar },
          target: {
            id: sql<string>`coalesce(${comments.issueId}, ${comments.bookId})`,
            title: sql<string>`coalesce(${issues.issueTitle}, ${books.bookTitle}, '')`,
          },
          total,
        })
        .from(comments)
        .innerJoin(pageIds, sql`page.id = ${comments.id}`)
        .innerJoin(users, eq(users.id, comments.userId))
        .leftJoin(issues, eq(issues.id, comments.issueId))
        .leftJoin(books, eq(books.id, comments.bookId)),
  });

  return {
    list(filter: CommentFilter, page: PageRequest): Promise<Page<CommentListRow>> {
      return commentList.list(filter, page);
    },

    /** Every row the list's filters let through, newest first, in batches (for the CSV export). */
    scan(filter: CommentFilter, batchSize?: number): AsyncGenerator<CommentListRow[]> {
      return commentList.scan(filter, batchSize);
    },

    async parentExists(commentType: CommentType, parentId: string): Promise<boolean> {
      const parent = parentOf(commentType);
      const rows = await db.select({ id: parent.id }).from(parent).where(eq(parent.id, parentId));
      return rows.length > 0;
    },

    async insert(row: CommentRow, tx: Locked<'comments'>): Promise<CommentRow> {
      const [created] = await tx.insert(comments).values(row).returning();
      return created;
    },

    async delete(id: string, tx: Locked<'comments'>): Promise<CommentRow | null> {
      const [row] = await tx.delete(comments).where(eq(comments.id, id)).returning();
      return row ?? null;
    },

    /**
     * Moves the parent's commentNumber by `delta` and answers the parent's typeId, or null when
     * there is no such parent. The update also locks the parent until the transaction ends; a held
     * comment is not counted (delta 0), but its parent is locked and checked all the same.
     */
    async countOnParent(
      commentType: CommentType,
      parentId: string,
      delta: 1 | 0 | -1,
      tx: Locked<'issues' | 'books'>,
    ): Promise<string | null> {
      const parent = parentOf(commentType);
      const [row] = await tx
        .update(parent)
        .set({ commentNumber: sql`${parent.commentNumber} + ${delta}` })
        .where(eq(parent.id, parentId))
        .returning({ typeId: parent.typeId });
      return row?.typeId ?? null;
    },

    /** Sets commentNumber of these issues and books to their true count (held comments are not counted). */
    async recount(targets: CommentTargets, tx: Locked<'issues' | 'books'>): Promise<void> {
      for (const [parent, ids, column] of [
        [issues, targets.issueIds, comments.issueId],
        [books, targets.bookIds, comments.bookId],
      ] as const) {
        if (!ids.length) continue;
        // Exact without locking the parents first: the caller holds the comments write lock, so
        // no comment comes or goes until it commits.
        await tx
          .update(parent)
          .set({ commentNumber: sql`(select count(*)::int from ${comments} where ${column} = ${parent.id} and not ${comments.held})` })
          .where(inArray(parent.id, ids));
      }
    },

    /** Deletes every comment the user wrote and answers where they were. */
    async deleteByUser(userId: string, tx: Locked<'comments'>): Promise<CommentTargets> {
      const rows = await tx
        .delete(comments)
        .where(eq(comments.userId, userId))
        .returning({ issueId: comments.issueId, bookId: comments.bookId });
      const distinct = (ids: Array<string | null>) => [...new Set(ids.filter((id): id is string => id !== null))];
      return { issueIds: distinct(rows.map((r) => r.issueId)), bookIds: distinct(rows.map((r) => r.bookId)) };
    },

    /** Deletes the comments under the user's issues, whoever wrote them. */
    async deleteUnderIssuesOf(userId: string, tx: Locked<'comments'>): Promise<void> {
      await tx
        .delete(comments)
        .where(inArray(comments.issueId, tx.select({ id: issues.id }).from(issues).where(eq(issues.userId, userId))));
    },

    async deleteUnder(commentType: CommentType, parentId: string, tx: Locked<'comments'>): Promise<void> {
      await tx.delete(comments).where(eq(commentType === COMMENT_TYPES.issue ? comments.issueId : comments.bookId, parentId));
    },

    /** A comment's typeId is its parent's: when the parent changes type, its comments follow. */
    async retypeUnder(commentType: CommentType, parentId: string, typeId: string, tx: Locked<'comments'>): Promise<void> {
      await tx
        .update(comments)
        .set({ typeId })
        .where(eq(commentType === COMMENT_TYPES.issue ? comments.issueId : comments.bookId, parentId));
    },
  };
}
