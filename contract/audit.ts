import { Type, type Static } from '@sinclair/typebox';
import { ID_PATTERN, Id } from './ids';
import { IdFilter, PageQuery } from './paging';
import { AUDIT_ACTIONS, AUDIT_CHAIN_BREAKS, AUDIT_ENTITIES, BATCH_MAX, type AuditEntity } from './values/audit';

export * from './values/audit';

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

export const AuditListQuery = Type.Object(
  {
    ...PageQuery,
    ...AuditFilters,
    security: Type.Optional(Type.Boolean({ description: 'true：列出安全事件（被拒绝的调用，只限超级管理员），其他筛选条件不适用' })),
  },
  { additionalProperties: false },
);
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

/** GET /api/audit/verify: the hash chain checked from its start (or the last purge) to its end. */
export const AuditChainReport = Type.Object(
  {
    ok: Type.Boolean({ description: '日志链完整' }),
    count: Type.Integer({ description: '核对通过的记录数（到断开处为止）' }),
    purged: Type.Integer({ description: '保留期清理掉的记录数（链在清理处记录了衔接，仍可核对）' }),
    broken: Type.Optional(
      Type.Object({
        id: Type.String({ description: '第一条断开的记录的日志编号（链尾被删时为空）' }),
        seq: Type.Union([Type.Integer(), Type.Null()], { description: '它在链中的位置' }),
        at: Type.Integer({ description: 'epoch 毫秒（链尾被删时为 0）' }),
        reason: Type.Union(Object.values(AUDIT_CHAIN_BREAKS).map((text) => Type.Literal(text))),
      }),
    ),
  },
  { title: 'AuditChainReport' },
);
export type AuditChainReport = Static<typeof AuditChainReport>;

/** One security event: refused calls of one kind from one address to one route within one minute. */
export const SecurityEvent = Type.Object(
  {
    _id: Type.String(),
    firstAt: Type.Integer({ description: '这一分钟内第一次，epoch 毫秒' }),
    lastAt: Type.Integer({ description: '这一分钟内最后一次，epoch 毫秒' }),
    adminId: Type.String({ description: '已知时是管理员 id，否则为空' }),
    adminLoginId: Type.String({ description: '已知时是管理员账号，否则为空' }),
    address: Type.String({ description: '来源地址' }),
    method: Type.String(),
    route: Type.String({ description: '路由（模式，例如 /api/user/:id）' }),
    status: Type.Integer({ description: '回答的状态码（401、403、429…）' }),
    reason: Type.String({ description: '原因：errorCode 或说明' }),
    count: Type.Integer({ description: '次数' }),
  },
  { title: 'SecurityEvent' },
);
export type SecurityEvent = Static<typeof SecurityEvent>;
