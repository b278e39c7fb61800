import { BOOK_MESSAGES } from '../../../../contract/book';
import { COMMENT_MESSAGES, type CommentType } from '../../../../contract/comment';
import type { Comment, CommentListQuery, CommentRow, CreateCommentBody } from '../../../../contract/comment';
import { FIELD_LABELS } from '../../../../contract/fields';
import { ISSUE_MESSAGES } from '../../../../contract/issue';
import type { Page } from '../../../../contract/paging';
import { USER_MESSAGES } from '../../../../contract/user';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage, type PageRequest } from '../../lib/paging';
import type { Actor, TrashBin } from '../trash/trash.service';
import type { UserRepository } from '../user/user.repository';
import type { CommentListRow, CommentRepository, CommentRow as StoredComment } from './comment.repository';

const PARENT_MISSING: Record<CommentType, string> = { 1: ISSUE_MESSAGES.notFound, 2: BOOK_MESSAGES.notFound };
// A comment write also moves its parent's commentNumber.
const COMMENT_WRITE = ['books', 'issues', 'comments'] as const;
const PARENT_FIELD: Record<CommentType, 'issueId' | 'bookId'> = { 1: 'issueId', 2: 'bookId' };

function toComment(row: StoredComment): Comment {
  return {
    _id: row.id,
    userId: row.userId,
    issueId: row.issueId,
    bookId: row.bookId,
    typeId: row.typeId,
    commentContent: row.commentContent,
    commentDate: row.commentDate,
    commentType: row.commentType as CommentType,
  };
}

function toCommentRow(row: CommentListRow): CommentRow {
  return {
    ...toComment(row),
    user: { _id: row.user.id, nickname: row.user.nickname, avatar: row.user.avatar },
    target: { _id: row.target.id, title: row.target.title },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;

export function createCommentService(deps: { db: Db; comments: CommentRepository; users: UserRepository; bin: TrashBin; now?: () => number }) {
  const { db, comments, users, bin } = deps;
  const now = deps.now ?? Date.now;

  return {
    async list(commentType: CommentType, { current, pageSize, commentContent, typeId }: CommentListQuery): Promise<Page<CommentRow>> {
      return mapPage(await comments.list({ commentType, commentContent, typeId }, { current, pageSize }), toCommentRow);
    },

    /** One issue's (1) or one book's (2) comments. */
    async listUnder(commentType: CommentType, parentId: string, page: PageRequest): Promise<Page<CommentRow>> {
      if (!(await comments.parentExists(commentType, parentId))) throw notFound(PARENT_MISSING[commentType]);
      return mapPage(await comments.list({ commentType, [PARENT_FIELD[commentType]]: parentId }, page), toCommentRow);
    },

    async create(body: CreateCommentBody): Promise<Comment> {
      const { commentType, userId } = body;
      const field = PARENT_FIELD[commentType];
      const parentId = body[field];
      if (!parentId) throw badRequest(`缺少必填字段：${FIELD_LABELS[field]}（${field}）`);
      const commentContent = requiredHtml('commentContent', body.commentContent);
      const at = now();
      const created = await writeTransaction(db, COMMENT_WRITE, async (tx) => {
        if (!(await users.holdForUse(userId, tx))) throw badRequest(USER_MESSAGES.notFound);
        const typeId = await comments.countOnParent(commentType, parentId, 1, tx);
        if (!typeId) throw badRequest(PARENT_MISSING[commentType]);
        return comments.insert(
          {
            id: newId(at),
            userId,
            issueId: commentType === 1 ? parentId : null,
            bookId: commentType === 2 ? parentId : null,
            typeId,
            commentContent,
            commentDate: at,
            commentType,
          },
          tx,
        );
      });
      return toComment(created);
    },

    /** Moves the comment to the recycle bin, inside `tx` (for bulk deletes too). */
    async removeIn(tx: Locked<(typeof COMMENT_WRITE)[number]>, id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      if (!(await bin.capture(tx, 'comment', id, by))) throw notFound(COMMENT_MESSAGES.notFound);
      const removed = await comments.delete(id, tx);
      const parentId = removed?.issueId ?? removed?.bookId;
      if (removed && parentId) await comments.countOnParent(removed.issueId ? 1 : 2, parentId, -1, tx);
    },

    async remove(id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      await writeTransaction(db, COMMENT_WRITE, (tx) => this.removeIn(tx, id, by));
    },
  };
}
