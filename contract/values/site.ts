/** Texts of the public site's calls (docs/api.md "Public calls"). */
export const SITE_MESSAGES = {
  /** 429 of a limit per member or per address; the seconds to wait are in Retry-After. */
  tooMany: '操作过于频繁，请稍后再试',
  notEnoughPoints: '积分不足',
  /** passwordcheck for another account than the caller's. */
  notOwnAccount: '只能验证自己的账号',
  /** A new password sent without a passwordcheck of the current one by this session shortly before. */
  checkPasswordFirst: '请先验证当前密码',
  sessionNotFound: '会话不存在或已结束',
} as const;

/** Why a user's points changed (points_ledger.reason). */
export const POINTS_REASONS = {
  issueComment: 'issue_comment',
  bookComment: 'book_comment',
  bookUnlock: 'book_unlock',
  /** 撤销 of a held comment's approval: what the comment earned is taken back (down to 0). */
  commentHeldAgain: 'comment_held_again',
} as const;
export type PointsReason = (typeof POINTS_REASONS)[keyof typeof POINTS_REASONS];

/** The server's points rules (the reference's): what each reason adds; a book's unlock costs its requirePoints. */
export const POINTS_RULES = { issueComment: 4, bookComment: 2 } as const;

export const POINTS_REASON_LABELS: Record<PointsReason, string> = {
  issue_comment: '评论问答',
  book_comment: '评论书籍',
  book_unlock: '下载书籍',
  comment_held_again: '评论撤销通过',
};
