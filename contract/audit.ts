import { Type, type Static } from '@sinclair/typebox';
import { ID_PATTERN, Id } from './ids';
import { IdFilter, PageQuery } from './paging';

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
  // Account security (issue 13): none of them can be put back by 撤销此修改.
  twoFactorSetUp: '设置两步验证',
  twoFactorEnable: '开启两步验证',
  twoFactorDisable: '关闭两步验证',
  twoFactorReset: '重置两步验证',
  recoveryCodesRegenerate: '重新生成恢复码',
  endSessions: '结束会话',
  securitySettings: '修改安全设置',
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
} as const;

/** The security settings have no record of their own: this id names them in the log (entity `setting`). */
export const SECURITY_SETTINGS_ID = '000000000000000000000001';
export type AuditEntity = keyof typeof AUDIT_ENTITIES;

const entityNames = Object.keys(AUDIT_ENTITIES) as AuditEntity[];
const EntitySchema = Type.Union(entityNames.map((name) => Type.Literal(name)));
const ActionSchema = Type.Union(Object.values(AUDIT_ACTIONS).map((name) => Type.Literal(name)));

/**
 * One changed field. A password is never shown: its change is `{ field: 'password', note: '密码已修改' }`
 * with neither value.
 */
export const AuditChange = Type.Object(
  {
    field: Type.String(),
    before: Type.Optional(Type.Unknown()),
    after: Type.Optional(Type.Unknown()),
    note: Type.Optional(Type.String()),
    beforeName: Type.Optional(Type.String({ description: '值是 id 时它的名称（分类名、用户昵称…），读取时由服务器查出' })),
    afterName: Type.Optional(Type.String({ description: '同上，修改后的值' })),
  },
  { title: 'AuditChange' },
);
export type AuditChange = Static<typeof AuditChange>;

export const AuditEntry = Type.Object(
  {
    _id: Type.String({ description: '日志编号' }),
    at: Type.Integer({ description: 'epoch 毫秒' }),
    adminId: Id,
    adminLoginId: Type.String({ description: '操作时管理员的账号' }),
    action: ActionSchema,
    entity: EntitySchema,
    entityId: Id,
    title: Type.String(),
    changes: Type.Union([Type.Array(AuditChange), Type.Null()]),
    revertible: Type.Boolean({ description: '可以「撤销此修改」' }),
    recordExists: Type.Optional(
      Type.Boolean({ description: '记录现在是否还在（已删除或在回收站中为 false）；导出、登录等不是记录的条目没有此字段' }),
    ),
    parentId: Type.Optional(Id),
    parentEntity: Type.Optional(Type.Union([Type.Literal('issue'), Type.Literal('book')])),
  },
  { title: 'AuditEntry', description: 'parentId / parentEntity：现存评论所属的问答或书籍（评论的记录页面是它的问答或书籍）' },
);
export type AuditEntry = Static<typeof AuditEntry>;

/** The audit log's filters, for its list and its export. */
const AuditFilters = {
  adminId: IdFilter('管理员 id（普通管理员只能看自己的）'),
  entity: Type.Optional(Type.Union([EntitySchema, Type.Literal('')], { description: '对象' })),
  action: Type.Optional(Type.Union([ActionSchema, Type.Literal('')], { description: '操作' })),
  from: Type.Optional(Type.Integer({ minimum: 0, description: '起始时间（含），epoch 毫秒' })),
  to: Type.Optional(Type.Integer({ minimum: 0, description: '结束时间（含），epoch 毫秒' })),
  record: Type.Optional(Type.String({ maxLength: 120, description: '记录：24 位 id（精确）或标题的一部分（不区分大小写）' })),
};

export const AuditListQuery = Type.Object({ ...PageQuery, ...AuditFilters }, { additionalProperties: false });
export type AuditListQuery = Static<typeof AuditListQuery>;

/** GET /api/audit/export: the list's filters, every page. */
export const AuditExportQuery = Type.Object(AuditFilters, { additionalProperties: false });
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const AuditRecordParams = Type.Object({
  entity: EntitySchema,
  id: Type.String({ pattern: ID_PATTERN, description: '24 位十六进制 id' }),
});
export type AuditRecordParams = Static<typeof AuditRecordParams>;

export const AuditIdParams = Type.Object({
  auditId: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: '日志编号' }),
});

export const AUDIT_MESSAGES = {
  notFound: '操作记录不存在',
  notRevertible: '只有修改类的记录可以恢复',
  passwordOnly: '密码的修改无法恢复',
  gone: '该记录已被删除，无法恢复',
  /** Followed by the fields that changed since. */
  changedSince: '该记录此后又被修改过，无法恢复',
  passwordChanged: '密码已修改',
} as const;

/** Bulk actions: `POST /api/{resource}/batch`. */
export const BATCH_MAX = 200;

export const BatchBody = <A extends string>(actions: readonly A[]) =>
  Type.Object(
    {
      action: Type.Union(
        actions.map((action) => Type.Literal(action)),
        { description: actions.join(' / ') },
      ),
      ids: Type.Array(Type.String({ pattern: ID_PATTERN }), { minItems: 1, maxItems: BATCH_MAX, description: `最多 ${BATCH_MAX} 个 id` }),
    },
    { additionalProperties: false },
  );
export type BatchBody<A extends string> = { action: A; ids: string[] };

export const BatchResult = Type.Object({ done: Type.Integer({ description: '处理的记录数' }) }, { title: 'BatchResult' });
export type BatchResult = Static<typeof BatchResult>;

export const USER_BATCH_ACTIONS = ['delete', 'enable', 'disable'] as const;
export const ISSUE_BATCH_ACTIONS = ['delete', 'approve', 'unapprove'] as const;
export const DELETE_ONLY = ['delete'] as const;
export type UserBatchAction = (typeof USER_BATCH_ACTIONS)[number];
export type IssueBatchAction = (typeof ISSUE_BATCH_ACTIONS)[number];

export const BATCH_MESSAGES = {
  /** Followed by the ids. */
  unknownIds: '以下记录不存在，未做任何修改：',
} as const;
