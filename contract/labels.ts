/*
 * The Chinese names the server and the screens give fields and their values: validation messages,
 * the audit log's changes and its CSV. Plain values without TypeBox, so that the front end may
 * import them at run time (every other contract module it imports as types only).
 */

/** Chinese labels for field names, so messages and the audit log name a field the way the screens do. */
export const FIELD_LABELS: Record<string, string> = {
  loginId: '账号',
  loginPwd: '密码',
  password: '密码',
  captcha: '验证码',
  currentPassword: '当前密码',
  newPassword: '新密码',
  code: '动态验证码',
  recoveryCode: '恢复码',
  challenge: '验证凭据',
  require2fa: '两步验证要求',
  sessionId: '会话',
  remember: '7天免登录',
  nickname: '昵称',
  avatar: '头像',
  permission: '权限',
  enabled: '账号状态',
  typeName: '分类名称',
  sanction: '处罚',
  reason: '理由',
  trash: '回收站条目',
  note: '备注',
  id: '编号',
  current: '页码',
  pageSize: '每页条数',
  mail: '邮箱',
  qq: 'QQ号码',
  wechat: '微信号',
  intro: '自我介绍',
  points: '积分',
  reviewFirst: '先审后发',
  bookTitle: '书籍标题',
  bookPic: '书籍封面',
  downloadLink: '下载链接',
  bookIntro: '书籍介绍',
  requirePoints: '所需积分',
  typeId: '分类',
  interviewTitle: '题目标题',
  interviewContent: '题目内容',
  issueTitle: '问答标题',
  issueContent: '问答描述',
  issueStatus: '审核状态',
  userId: '用户',
  issueId: '问答',
  bookId: '书籍',
  commentContent: '评论内容',
  commentType: '评论类型',
  adminId: '管理员',
  entity: '对象',
  action: '操作',
  record: '记录',
  from: '起始时间',
  to: '结束时间',
  sessions: '会话',
  recoveryCodes: '恢复码',
  twoFactor: '两步验证',
  passkeys: '通行密钥',
  scanNumber: '浏览数',
  commentNumber: '评论数',
  issueDate: '提问时间',
  commentDate: '评论日期',
  onShelfDate: '上架日期',
  registerDate: '注册时间',
  lastLoginDate: '最后登录时间',
  version: '版本',
  name: '名称',
  title: '标题',
  text: '内容',
  url: '地址',
  secret: '签名密钥',
  events: '事件',
  kind: '类型',
  mode: '方式',
  decision: '处理结果',
  word: '词语',
  words: '词语',
  days: '天数',
  holdFirstPosts: '新账号先审条数',
  holdLinksDays: '带链接先审天数',
  noteId: '备注',
  sanctionId: '处罚',
  auditId: '操作记录',
  auditIds: '操作记录',
  body: '内容',
  ids: '所选记录',
  items: '处理项',
  kinds: '类型',
  open: '打开状态',
  passkey: '通行密钥验证',
  response: '验证器应答',
  rule: '规则',
  security: '安全事件',
  since: '起始时间',
  state: '状态',
};

/** A field's Chinese name; an unknown one (a field added later) as it is. */
export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field;
}

/** The part of an audit change these functions read (contract/audit.ts AuditChange). */
export interface ChangeText {
  field: string;
  before?: unknown;
  after?: unknown;
  /** The value's name where the value is an id (a type's name, a user's nickname), set by the server. */
  beforeName?: string;
  afterName?: string;
  note?: string;
}

export interface ValueTextOptions {
  /** An epoch-ms value (the `from` and `to` of a filter) as the reader's time. */
  date?: (ms: number) => string;
  /** Rich-editor HTML as its visible text (the screens cut it; the server strips tags). */
  html?: (html: string) => string;
}

const COMMENT_TYPES: Record<string, string> = { '1': '问答评论', '2': '书籍评论' };
/** The fields whose values are rich-editor HTML: only these are read as HTML (a title `Vue <slot>` is text). */
const RICH_TEXT_FIELDS: ReadonlySet<string> = new Set(['bookIntro', 'interviewContent', 'issueContent', 'commentContent']);
const EMPTY = '（空）';

/** A value as a person reads it: flags and codes in words, an id by its name when known. */
export function valueText(field: string, value: unknown, name: string | undefined, options: ValueTextOptions = {}): string {
  if (name) return name;
  if (value === undefined || value === null || value === '') return EMPTY;
  if (field === 'enabled') return value === true || value === 'true' ? '启用' : '禁用';
  if (field === 'reviewFirst') return value === true || value === 'true' ? '是' : '否';
  if (field === 'issueStatus') return value === true || value === 'true' ? '已通过' : '待审核';
  if (field === 'permission') return Number(value) === 1 ? '超级管理员' : '普通管理员';
  if (field === 'require2fa') return value === true || value === 'true' ? '要求' : '不要求';
  if (field === 'commentType') return COMMENT_TYPES[String(value)] ?? String(value);
  if ((field === 'from' || field === 'to') && typeof value === 'number' && options.date) return options.date(value);
  if (typeof value === 'string') return options.html && RICH_TEXT_FIELDS.has(field) ? options.html(value) : value;
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value);
}

/** One changed field: 「昵称：甲 → 乙」, or its note (「密码已修改」). */
export function changeText(change: ChangeText, options: ValueTextOptions = {}): string {
  if (change.note) return change.note;
  // A rejection keeps the bin entry's id, for 撤销此修改 to find it; a person reads where it went.
  if (change.field === 'trash') return '已移入回收站';
  const label = fieldLabel(change.field);
  if (!('before' in change) && 'after' in change) return `${label}：${valueText(change.field, change.after, change.afterName, options)}`;
  return `${label}：${valueText(change.field, change.before, change.beforeName, options)} → ${valueText(change.field, change.after, change.afterName, options)}`;
}

/**
 * An export's entry (导出): its rows and filters, 「导出 30 行（筛选：分类=JavaScript）」. Entries
 * store `{ field: 'rows', after: n }` after the filters (`{ field, after }`).
 */
export function exportText(changes: readonly ChangeText[], options: ValueTextOptions = {}): string {
  const rows = changes.find((change) => change.field === 'rows')?.after;
  const filters = changes
    .filter((change) => change.field !== 'rows')
    .map((change) => `${fieldLabel(change.field)}=${valueText(change.field, change.after, change.afterName, options)}`);
  const head = `导出 ${typeof rows === 'number' ? rows : 0} 行`;
  return filters.length ? `${head}（筛选：${filters.join('，')}）` : `${head}（全部）`;
}

/** What an entry's changes say, one line each (an export's as one sentence). */
export function changeLines(action: string, changes: readonly ChangeText[] | null, options: ValueTextOptions = {}): string[] {
  if (!changes?.length) return [];
  if (action === '导出') return [exportText(changes, options)];
  return changes.map((change) => changeText(change, options));
}
