/** What an audit entry can say was done; the values are what the log shows and filters by. */
export const AUDIT_ACTIONS = {
  create: '新增',
  update: '修改',
  delete: '删除',
  revert: '恢复',
  purge: '彻底删除',
  approve: '审核通过',
  unapprove: '取消审核',
  enable: '启用',
  disable: '禁用',
  batchDelete: '批量删除',
  batchEnable: '批量启用',
  batchDisable: '批量禁用',
  batchApprove: '批量审核通过',
  batchUnapprove: '批量取消审核',
  export: '导出',
  import: '导入',
  login: '登录',
  logout: '退出',
  /** A fresh proof of identity (POST /api/admin/me/reauth). */
  reauth: '验证身份',
  // Account security (issue 13): none of them can be put back by 撤销此修改.
  twoFactorSetUp: '设置两步验证',
  twoFactorEnable: '开启两步验证',
  twoFactorDisable: '关闭两步验证',
  twoFactorReset: '重置两步验证',
  recoveryCodesRegenerate: '重新生成恢复码',
  endSessions: '结束会话',
  securitySettings: '修改安全设置',
  /** `npm run admin:reset` on the server's machine: a new password, two-step and passkeys off (docs/operations.md). */
  signInReset: '重置登录',
  // The review queue and sanctions (issue 25): 撤销此修改 puts each back its own way (below).
  reviewReject: '审核拒绝',
  mute: '禁言',
  suspend: '封禁',
  liftSanction: '解除处罚',
  addNote: '添加备注',
  removeNote: '删除备注',
  // Passkeys (issue 26): the account's own, not put back by 撤销此修改 either.
  passkeyAdd: '添加通行密钥',
  passkeyRename: '重命名通行密钥',
  passkeyRemove: '删除通行密钥',
  // Moderation rules and notifications (issue 25).
  recheck: '重新检查',
  testSend: '测试发送',
} as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

/** Entries of these actions put fields back to what they were: the ones 撤销此修改 is offered on. */
export const REVERTIBLE_ACTIONS: readonly AuditAction[] = [
  AUDIT_ACTIONS.update,
  AUDIT_ACTIONS.revert,
  AUDIT_ACTIONS.approve,
  AUDIT_ACTIONS.unapprove,
  AUDIT_ACTIONS.enable,
  AUDIT_ACTIONS.disable,
  AUDIT_ACTIONS.batchEnable,
  AUDIT_ACTIONS.batchDisable,
  AUDIT_ACTIONS.batchApprove,
  AUDIT_ACTIONS.batchUnapprove,
  AUDIT_ACTIONS.reviewReject,
  AUDIT_ACTIONS.mute,
  AUDIT_ACTIONS.suspend,
  AUDIT_ACTIONS.liftSanction,
];

/** Likewise for one entity's entries of an action: a comment held again, a member's flag open again. */
export const REVERTED_BY_ENTITY_ACTION: readonly string[] = [`comment:${AUDIT_ACTIONS.approve}`, `user:${AUDIT_ACTIONS.approve}`];

/**
 * Revertible actions whose entries hold no field values to put back: a rejection is brought back
 * from the recycle bin, a sanction lifted, a lifted sanction put back in force.
 */
export const REVERTED_BY_ACTION: readonly AuditAction[] = [
  AUDIT_ACTIONS.reviewReject,
  AUDIT_ACTIONS.mute,
  AUDIT_ACTIONS.suspend,
  AUDIT_ACTIONS.liftSanction,
];

/** What an entry is about, with the name the screens show. `session` is a sign-in or sign-out. */
export const AUDIT_ENTITIES = {
  admin: '管理员',
  user: '用户',
  book: '书籍',
  interview: '面试题',
  issue: '问答',
  comment: '评论',
  type: '分类',
  upload: '图片',
  session: '登录',
  import: '数据导入',
  setting: '安全设置',
  audit: '操作日志',
  reviewReason: '拒绝理由',
  moderation: '审核规则',
  webhook: '通知',
} as const;

/** The security settings have no record of their own: this id names them in the log (entity `setting`). */
export const SECURITY_SETTINGS_ID = '000000000000000000000001';

/** The moderation rules (word list, account rules, 重新检查) have no record of their own either: entity `moderation`. */
export const MODERATION_SETTINGS_ID = '000000000000000000000002';

export type AuditEntity = keyof typeof AUDIT_ENTITIES;

export const AUDIT_MESSAGES = {
  notFound: '操作记录不存在',
  notRevertible: '只有修改类的记录可以恢复',
  passwordOnly: '密码的修改无法恢复',
  gone: '该记录已被删除，无法恢复',
  inBin: '该记录在回收站中：请先在回收站恢复它，再撤销此修改',
  /** Followed by the fields that changed since. */
  changedSince: '该记录此后又被修改过，无法恢复',
  passwordChanged: '密码已修改',
} as const;

/** Bulk actions: `POST /api/{resource}/batch`. */
export const BATCH_MAX = 200;

export const USER_BATCH_ACTIONS = ['delete', 'enable', 'disable'] as const;

export const ISSUE_BATCH_ACTIONS = ['delete', 'approve', 'unapprove'] as const;

export const DELETE_ONLY = ['delete'] as const;

export type UserBatchAction = (typeof USER_BATCH_ACTIONS)[number];

export type IssueBatchAction = (typeof ISSUE_BATCH_ACTIONS)[number];

export const BATCH_MESSAGES = {
  /** Followed by the ids. */
  unknownIds: '以下记录不存在，未做任何修改：',
} as const;

/** Why `npm run audit:verify` / GET /api/audit/verify says the chain breaks at an entry. */
export const AUDIT_CHAIN_BREAKS = {
  content: '该条记录的内容被改动过',
  link: '该条记录与前一条的链接不符（前面的记录被改动、删除或调换了顺序）',
  missing: '该条记录之前缺少记录（被删除且不是保留期清理）',
  unlinked: '该条记录没有进入日志链',
  tail: '日志链末尾的记录被删除',
} as const;
export type AuditChainBreak = (typeof AUDIT_CHAIN_BREAKS)[keyof typeof AUDIT_CHAIN_BREAKS];

/** Reasons a refused call is recorded as a security event (GET /api/audit?security=true). */
export const SECURITY_REASONS = {
  unauthenticated: '未登录或登录已失效',
  forbidden: '没有权限',
  throttled: '登录尝试过多被限制',
} as const;
