import { Type, type Static } from '@sinclair/typebox';
import { HtmlField, IntegerOf } from './fields';
import { Id, NullableRefId, RefId } from './ids';
import { IdFilter, PageQuery, TextFilter } from './paging';
import { UserSummary } from './user';

import { COMMENT_TYPES, type CommentType as CommentTypeValue } from './values/comment';

export * from './values/comment';

export const CommentType = Type.Union([Type.Literal(COMMENT_TYPES.issue), Type.Literal(COMMENT_TYPES.book)], {
  description: '1 问答评论，2 书籍评论',
});
export type CommentType = CommentTypeValue;

export const Comment = Type.Object(
  {
    _id: Id,
    userId: RefId,
    issueId: NullableRefId,
    bookId: NullableRefId,
    typeId: RefId,
    commentContent: Type.String({ description: '已净化的 HTML' }),
    commentDate: Type.Integer({ description: 'epoch 毫秒' }),
    // As answers carry it (see IntegerOf); requests keep the union above.
    commentType: IntegerOf<CommentType>([COMMENT_TYPES.issue, COMMENT_TYPES.book], { description: CommentType.description }),
  },
  { title: 'Comment' },
);
export type Comment = Static<typeof Comment>;

export const CommentTarget = Type.Object(
  { _id: RefId, title: Type.String({ description: '问答标题或书籍标题' }) },
  { title: 'CommentTarget' },
);

/** A comment as the lists show it: with its author and what it is about. */
export const CommentRow = Type.Composite([Comment, Type.Object({ user: UserSummary, target: CommentTarget })], {
  title: 'CommentRow',
});
export type CommentRow = Static<typeof CommentRow>;

export const CommentTypeParams = Type.Object({ commentType: CommentType });
export type CommentTypeParams = Static<typeof CommentTypeParams>;

export const CommentListQuery = Type.Object(
  { ...PageQuery, commentContent: TextFilter('评论内容'), typeId: IdFilter('分类 id') },
  { additionalProperties: false },
);
export type CommentListQuery = Static<typeof CommentListQuery>;

export const ParentCommentsQuery = Type.Object(PageQuery, { additionalProperties: false });
export type ParentCommentsQuery = Static<typeof ParentCommentsQuery>;

export const CreateCommentBody = Type.Object(
  {
    userId: RefId,
    commentType: CommentType,
    issueId: Type.Optional(RefId),
    bookId: Type.Optional(RefId),
    commentContent: HtmlField(50_000),
  },
  { additionalProperties: false, description: 'commentType 为 1 时需要 issueId，为 2 时需要 bookId；分类取自评论对象' },
);
export type CreateCommentBody = Static<typeof CreateCommentBody>;
