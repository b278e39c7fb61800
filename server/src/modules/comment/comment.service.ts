import { BOOK_MESSAGES } from '#contract/book';
import { COMMENT_MESSAGES, type CommentType } from '#contract/comment';
import type { Comment, CommentListQuery, CommentRow, CreateCommentBody } from '#contract/comment';
import { ISSUE_MESSAGES } from '#contract/issue';
import type { Page } from '#contract/paging';
import { USER_MESSAGES } from '#contract/user';
import { AUDIT_ACTIONS, type AuditAction, type BatchResult } from '#contract/audit';
import type { Db } from '../../db/client';
import { comments as commentsTable } from '../../db/schema';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { ENTITIES, type BinLocks } from '../../db/entities';
import { badRequest, missingField, notFound } from '../../lib/errors';
import { plainTitle, requiredHtml } from '../../lib/html';
import { recordHold, screenAdminWrite } from '../moderation/moderation';
import { newId } from '../../lib/ids';
import { mapPage, type PageRequest } from '../../lib/paging';
import { type Actor, type Audit, removalEntries } from '../audit/audit';
import { lockRow, lockRows, uniqueIds } from '../../db/rows';
import type { TrashBin } from '../trash/trash.service';
import type { UserRepository } from '../user/user.repository';
import type { CommentListRow, CommentRepository, CommentRow as StoredComment } from './comment.repository';
import { COMMENT_TYPES } from '#contract/comment';

const PARENT_MISSING: Record<CommentType, string> = {
  [COMMENT_TYPES.issue]: ISSUE_MESSAGES.notFound,
  [COMMENT_TYPES.book]: BOOK_MESSAGES.notFound,
};
// A comment write also moves its parent's commentNumber.
// A comment's write changes its parent's comment count: the same locks as its delete.
const COMMENT_WRITE = ENTITIES.comment.bin.locks;
const PARENT_FIELD: Record<CommentType, 'issueId' | 'bookId'> = { [COMMENT_TYPES.issue]: 'issueId', [COMMENT_TYPES.book]: 'bookId' };

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
  return Object.assign(toComment(row), {
    user: { _id: row.user.id, nickname: row.user.nickname, avatar: row.user.avatar },
    target: { _id: row.target.id, title: row.target.title },
  });
}

export type CommentService = ReturnType<typeof createCommentService>;

export function createCommentService(deps: {
  db: Db;
  comments: CommentRepository;
  users: UserRepository;
  bin: TrashBin;
  audit: Audit;
  now?: () => number;
}) {
  const { db, comments, users, bin, audit } = deps;
  const now = deps.now ?? Date.now;

  /**
   * The one delete path of comments (DELETE and the bulk delete): each comment, locked by the
   * caller, goes to the recycle bin (one bin entry per comment), its parent's count one lower, and
   * gets its audit entry (one insert for all), inside the caller's transaction. A held comment's
   * parent count stays as it is: held comments are not counted.
   */
  async function removeIn(
    tx: Locked<BinLocks<'comment'>>,
    actor: Actor,
    action: AuditAction,
    rows: ReadonlyArray<{ id: string; commentContent: string }>,
    reason?: string,
  ): Promise<number[]> {
    const binned: string[] = [];
    for (const { id } of rows) {
      const trashId = await bin.capture(tx, 'comment', id, actor);
      if (!trashId) throw notFound(COMMENT_MESSAGES.notFound);
      binned.push(trashId);
      const removed = await comments.delete(id, tx);
      const parentId = removed?.issueId ?? removed?.bookId;
      // A held comment was never counted on its parent.
      if (removed && parentId && !removed.held) await comments.countOnParent(removed.issueId ? 1 : 2, parentId, -1, tx);
    }
    const records = rows.map((row) => ({ id: row.id, title: plainTitle(row.commentContent) }));
    return audit.record(tx, actor, removalEntries('comment', action, records, binned, reason));
  }

  return {
    removeIn,

    async list(commentType: CommentType, { current, pageSize, commentContent, typeId }: CommentListQuery): Promise<Page<CommentRow>> {
      return mapPage(await comments.list({ commentType, commentContent, typeId }, { current, pageSize }), toCommentRow);
    },

    /** One issue's (1) or one book's (2) comments. */
    /** One parent's comments; `published`: only those visitors see (none held by a moderation rule). */
    /** A parent's comments; `parentChecked` when the caller has just read the parent itself (one statement fewer). */
    async listUnder(
      commentType: CommentType,
      parentId: string,
      page: PageRequest,
      published = false,
      parentChecked = false,
    ): Promise<Page<CommentRow>> {
      if (!parentChecked && !(await comments.parentExists(commentType, parentId))) throw notFound(PARENT_MISSING[commentType]);
      const filter = { commentType, [PARENT_FIELD[commentType]]: parentId, ...(published && { held: false }) };
      return mapPage(await comments.list(filter, page), toCommentRow);
    },

    async create(actor: Actor, body: CreateCommentBody): Promise<Comment> {
      const { commentType, userId } = body;
      const field = PARENT_FIELD[commentType];
      const parentId = body[field];
      if (!parentId) throw missingField(field);
      const commentContent = requiredHtml('commentContent', body.commentContent);
      const at = now();
      const verdict = await screenAdminWrite(db, 'comment', [{ text: commentContent, html: true }], at);
      const created = await writeTransaction(db, COMMENT_WRITE, async (tx) => {
        if (!(await users.holdForUse(userId, tx))) throw badRequest(USER_MESSAGES.notFound);
        const typeId = await comments.countOnParent(commentType, parentId, 1, tx);
        if (!typeId) throw badRequest(PARENT_MISSING[commentType]);
        const inserted = await comments.insert(
          {
            id: newId(at),
            userId,
            issueId: commentType === COMMENT_TYPES.issue ? parentId : null,
            bookId: commentType === COMMENT_TYPES.book ? parentId : null,
            typeId,
            commentContent,
            commentDate: at,
            held: false,
            commentType,
          },
          tx,
        );
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.create,
          entity: 'comment',
          entityId: inserted.id,
          title: plainTitle(commentContent),
        });
        if (verdict) await recordHold(tx, { kind: 'comment', itemId: inserted.id, verdict }, at);
        return inserted;
      });
      return toComment(created);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await writeTransaction(db, COMMENT_WRITE, async (tx) => {
        const comment = await lockRow(tx, commentsTable, id);
        if (!comment) throw notFound(COMMENT_MESSAGES.notFound);
        await removeIn(tx, actor, AUDIT_ACTIONS.delete, [comment]);
      });
    },

    /** All or nothing: every id must exist, and each comment gets its own audit entry. */
    async batch(actor: Actor, _action: 'delete', given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      await writeTransaction(db, COMMENT_WRITE, async (tx) => {
        await removeIn(tx, actor, AUDIT_ACTIONS.batchDelete, await lockRows(tx, commentsTable, ids));
      });
      return { done: ids.length };
    },
  };
}
