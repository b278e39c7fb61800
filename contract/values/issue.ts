export const ISSUE_MESSAGES = {
  /** Also for a comment on an issue that does not exist. */
  notFound: '问答不存在',
} as const;
