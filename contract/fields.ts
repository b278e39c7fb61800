import { Type } from '@sinclair/typebox';

/**
 * In an answer, one of a few integers (a permission, a comment type): an `enum` rather than a union
 * of constants, which the server's serializer would try branch by branch with a validator for every
 * value it writes. What a request may send keeps its union (and its validation messages).
 */
export const IntegerOf = <T extends number>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'integer', enum: [...values], ...options });

/** An account name (admins and users alike): no spaces. */
export const LoginId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\s]+$' });

/** An image the screens show (avatar, cover): a site path or an http(s) address; empty means the default. */
export const ImagePath = Type.String({
  maxLength: 512,
  pattern: '^(|/[^/\\\\].*|https?://.+)$',
  description: '站内路径（/static/...）或 http(s) 地址',
});

/** A field holding HTML from a rich editor; the server sanitises it before storing (docs/api.md "HTML content"). */
export const HtmlField = (maxLength: number) => Type.String({ minLength: 1, maxLength, description: 'HTML，保存前按白名单净化' });

/** Chinese labels for field names, so validation messages name the field the way the screens do. */
export const FIELD_LABELS: Record<string, string> = {
  loginId: '账号',
  loginPwd: '密码',
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
  id: 'id',
  current: '页码',
  pageSize: '每页条数',
  mail: '邮箱',
  qq: 'QQ号码',
  wechat: '微信号',
  intro: '自我介绍',
  points: '积分',
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
};
