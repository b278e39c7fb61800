/** What a comment is on: its `commentType` in the API. */
export const COMMENT_TYPES = { issue: 1, book: 2 } as const;
export type CommentType = (typeof COMMENT_TYPES)[keyof typeof COMMENT_TYPES];

export const COMMENT_MESSAGES = {
  notFound: '评论不存在',
} as const;
