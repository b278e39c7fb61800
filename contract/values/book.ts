export const BOOK_MESSAGES = {
  /** Also for a comment on a book that does not exist. */
  notFound: '书籍不存在',
} as const;
