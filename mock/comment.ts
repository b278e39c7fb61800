/**
 * Comment calls for `npm run dev:mock`, following docs/api.md and server/src/modules/comment
 * (NormalAdmin). commentType 1 is a comment on an issue, 2 on a book; list rows carry their
 * author as `user` and what they are about as `target: { _id, title }`. Adding or removing a
 * comment keeps its parent's commentNumber true.
 *
 * The fixed paths (issuecomment, bookcomment) come before `/api/comment/:commentType`: the first
 * matching key answers.
 */
import type { Request } from '@umijs/bundler-utils/compiled/express';
import { defineMock } from '@umijs/max';
import {
  addComment,
  commentView,
  type CommentType,
  content,
  type MockComment,
  newestFirst,
  removeComment,
  userExists,
} from './lib/content';
import { readFilter } from './lib/crud';
import {
  badRequest,
  guarded,
  html,
  idParam,
  missing,
  notFound,
  oneOf,
  pageOf,
  readFields,
  readPage,
  refId,
  requiredHtml,
} from './lib/input';
import { bodyOf, ok } from './lib/store';

const MISSING = '评论不存在';
const PARENT_MISSING: Record<CommentType, string> = { 1: '问答不存在', 2: '书籍不存在' };
const PARENT_FIELD: Record<CommentType, 'issueId' | 'bookId'> = { 1: 'issueId', 2: 'bookId' };

const commentType = oneOf([1, 2] as const);
/** The server schema's fields, in its order, so the first error reported is the same. */
const createSpec = { userId: refId, commentType, issueId: refId, bookId: refId, commentContent: html(50_000) };

function parentExists(type: CommentType, parentId: string): boolean {
  return type === 1
    ? content.issues.some((i) => i._id === parentId)
    : content.books.some((b) => b._id === parentId);
}

/** One issue's (1) or one book's (2) comments, newest first: 404 when the parent is unknown. */
function commentsUnder(type: CommentType, req: Request) {
  const parentId = idParam(req);
  const page = readPage(req);
  if (!parentExists(type, parentId)) throw notFound(PARENT_MISSING[type]);
  const rows = content.comments
    .filter((c) => c.commentType === type && c[PARENT_FIELD[type]] === parentId)
    .sort(newestFirst((c) => c.commentDate));
  return pageOf(rows, page, commentView);
}

export default defineMock({
  'GET /api/comment/issuecomment/:id': guarded('normal', (req, res) => {
    ok(res, commentsUnder(1, req));
  }),

  'GET /api/comment/bookcomment/:id': guarded('normal', (req, res) => {
    ok(res, commentsUnder(2, req));
  }),

  'GET /api/comment/:commentType': guarded('normal', (req, res) => {
    const type = commentType(req.params.commentType, 'commentType');
    const page = readPage(req);
    const matches = readFilter<MockComment>(req, { commentContent: 'text', typeId: 'id' });
    const rows = content.comments
      .filter((c) => c.commentType === type && matches(c))
      .sort(newestFirst((c) => c.commentDate));
    ok(res, pageOf(rows, page, commentView));
  }),

  /** The comment takes its type from its issue or book, whose commentNumber goes up by one. */
  'POST /api/comment': guarded('normal', (req, res) => {
    const body = readFields(bodyOf(req), createSpec, ['userId', 'commentType', 'commentContent']);
    const type = body.commentType;
    const parentId = body[PARENT_FIELD[type]];
    if (!parentId) throw missing(PARENT_FIELD[type]);
    const commentContent = requiredHtml('commentContent', body.commentContent);
    if (!userExists(body.userId)) throw badRequest('用户不存在');
    if (!parentExists(type, parentId)) throw badRequest(PARENT_MISSING[type]);
    const comment: MockComment = addComment({
      userId: body.userId,
      issueId: type === 1 ? parentId : null,
      bookId: type === 2 ? parentId : null,
      commentContent,
      commentDate: Date.now(),
      commentType: type,
    });
    ok(res, { ...comment }, 201);
  }),

  /** Its issue's or book's commentNumber goes down by one. */
  'DELETE /api/comment/:id': guarded('normal', (req, res) => {
    const id = idParam(req);
    if (!content.comments.some((c) => c._id === id)) throw notFound(MISSING);
    removeComment(id);
    ok(res, null);
  }),
});
