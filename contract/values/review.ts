/** The review queue (审核台), sanctions and notes (issue 25): plain values the screens import. */

export const REVIEW_KINDS = ['issue', 'comment', 'user'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const REVIEW_KIND_LABELS: Record<ReviewKind, string> = { issue: '问答', comment: '评论', user: '用户' };

export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
export const REVIEW_DECISION_LABELS: Record<ReviewDecision, string> = { approve: '通过', reject: '拒绝' };

/** Why a question waits when no rule fired: it was posted and awaits approval (审核状态). */
export const AWAITING_APPROVAL_RULE = 'awaiting-approval';
export const AWAITING_APPROVAL_LABEL = '待审核的问答';

/** Items one decision call may name. */
export const REVIEW_DECISION_MAX = 100;

export const REVIEW_MESSAGES = {
  /** Followed by the items, each as 「<kind> <id>：已被 <admin> <通过|拒绝>」. */
  alreadyDecided: '以下内容已被其他管理员处理：',
  decidedBy: (loginId: string, decision: ReviewDecision) => `已被 ${loginId} ${REVIEW_DECISION_LABELS[decision]}`,
  gone: '已不存在',
  notWaiting: '不在审核队列中',
  reasonTaken: '该理由已存在',
  reasonNotFound: '理由不存在',
} as const;

export const SANCTION_KINDS = ['mute', 'suspend'] as const;
export type SanctionKind = (typeof SANCTION_KINDS)[number];
export const SANCTION_LABELS: Record<SanctionKind, string> = { mute: '禁言', suspend: '封禁' };

/** The lengths a sanction may have, in days; null is for good. */
export const SANCTION_DAYS = [1, 3, 7, 30] as const;

export const SANCTION_MESSAGES = {
  notFound: '处罚记录不存在',
  alreadyLifted: '该处罚已解除',
  /** What a sanctioned member's refused call says; `until` is a date and time in TIME_ZONE, or null for good. */
  muted: (until: string | null) => (until ? `你已被禁言，${until} 解除` : '你已被永久禁言'),
  suspended: (until: string | null) => (until ? `账号已被封禁，${until} 解除` : '账号已被永久封禁'),
} as const;

export const NOTE_MESSAGES = {
  notFound: '备注不存在',
} as const;
