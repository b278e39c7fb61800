/**
 * Reading and checking requests for the content mocks the way the server does, so that a screen
 * developed on `npm run dev:mock` meets the same 400s as on the real server: strings trimmed
 * first, scalar types coerced as the server's validator coerces them (a form may send "20" for a
 * number), the first problem reported with the field's Chinese label and key, unknown fields
 * dropped. The messages repeat server/src/plugins/errors.ts; mock/ does not import server code so
 * that `umi dev` never has to load the server.
 */
import type { Request, Response } from '@umijs/bundler-utils/compiled/express';
import { fail, isObjectId, requireAdmin, type MockAdmin } from './store';

/** A refusal with its HTTP status; `guarded` turns it into the error envelope. */
export class MockError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'MockError';
  }
}

export const badRequest = (msg: string) => new MockError(400, msg);
export const notFound = (msg: string) => new MockError(404, msg);
export const conflict = (msg: string) => new MockError(409, msg);

/**
 * A handler behind the access check: 401/403 come first, as the server checks the token before
 * it validates anything; a thrown MockError becomes its envelope.
 */
export function guarded(
  level: 'normal' | 'super',
  handler: (req: Request, res: Response, admin: MockAdmin) => void,
) {
  return (req: Request, res: Response): void => {
    const admin = requireAdmin(req, res, level);
    if (!admin) return;
    try {
      handler(req, res, admin);
    } catch (error) {
      if (error instanceof MockError) return fail(res, error.status, error.message);
      throw error;
    }
  };
}

/** The server's labels (server/src/lib/http.ts FIELD_LABELS) for the fields these mocks read. */
const LABELS: Record<string, string> = {
  loginId: '账号',
  loginPwd: '密码',
  nickname: '昵称',
  avatar: '头像',
  enabled: '账号状态',
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

/** "书籍标题（bookTitle）", or "字段 id " for a field without a label of its own (as the server). */
export function fieldName(field: string): string {
  const label = LABELS[field];
  return label ? `${label}（${field}）` : `字段 ${field} `;
}

export const missing = (field: string) => badRequest(`缺少必填字段：${fieldName(field).trim()}`);
const wrongType = (field: string) => badRequest(`${fieldName(field)}类型不正确`);
const badFormat = (field: string) => badRequest(`${fieldName(field)}格式不正确`);
const outOfRange = (field: string) => badRequest(`${fieldName(field)}超出允许的范围`);
const badValue = (field: string) => badRequest(`${fieldName(field)}取值不正确`);

/** Reads one field's value (never undefined: absent fields are handled before) or throws a 400. */
export type Parser<T> = (value: unknown, field: string) => T;

/** The server's validator coerces a lone array item and null before checking the type. */
function scalar(value: unknown, field: string): unknown {
  if (Array.isArray(value)) {
    if (value.length !== 1) throw wrongType(field);
    return value[0];
  }
  return value;
}

export function str(rule: { min?: number; max: number; pattern?: RegExp }): Parser<string> {
  return (raw, field) => {
    const value = scalar(raw, field);
    let s: string;
    if (typeof value === 'string') s = value.trim();
    else if (typeof value === 'number' || typeof value === 'boolean') s = String(value);
    else if (value === null) s = '';
    else throw wrongType(field);
    if (rule.min !== undefined && s.length < rule.min) {
      throw badRequest(
        rule.min === 1
          ? `${fieldName(field)}不能为空`
          : `${fieldName(field)}长度至少 ${rule.min} 个字符`,
      );
    }
    if (s.length > rule.max) throw badRequest(`${fieldName(field)}长度不能超过 ${rule.max} 个字符`);
    if (rule.pattern && !rule.pattern.test(s)) throw badFormat(field);
    return s;
  };
}

/** A number as the server's validator coerces one: numeric strings, booleans and null too. */
function toNumber(raw: unknown, field: string): number {
  const value = scalar(raw, field);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null) return 0;
  throw wrongType(field);
}

export function int(rule: { min: number; max: number }): Parser<number> {
  return (raw, field) => {
    const n = toNumber(raw, field);
    if (!Number.isInteger(n)) throw wrongType(field);
    if (n < rule.min || n > rule.max) throw outOfRange(field);
    return n;
  };
}

export const bool: Parser<boolean> = (raw, field) => {
  const value = scalar(raw, field);
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1) return true;
  if (value === 'false' || value === 0 || value === null) return false;
  throw wrongType(field);
};

/**
 * One of a few literal values (the server's unions of literals). A value that cannot even be read
 * as the choices' type is a type error there, any other a wrong value.
 */
export function oneOf<T extends string | number>(choices: readonly T[]): Parser<T> {
  const numeric = typeof choices[0] === 'number';
  return (raw, field) => {
    const value = numeric ? toNumber(raw, field) : str({ max: Infinity })(raw, field);
    const found = choices.find((choice) => choice === value);
    if (found === undefined) throw badValue(field);
    return found;
  };
}

export const refId = str({ max: 24, pattern: /^[0-9a-f]{24}$/ });
export const loginId = str({ min: 1, max: 64, pattern: /^[^\s]+$/ });
/** A site path or an http(s) address; empty means the default image. */
export const imagePath = str({ max: 512, pattern: /^(|\/[^/\\].*|https?:\/\/.+)$/ });
export const html = (max: number) => str({ min: 1, max });

type Spec = Record<string, Parser<unknown>>;
/** What readFields gives: the required fields surely, the others if they were sent. */
export type Fields<S extends Spec, R extends keyof S = never> = { [K in keyof S]?: ReturnType<S[K]> } & {
  [K in R]: ReturnType<S[K]>;
};

/**
 * The fields of `spec` found in `source`, checked in the server's order: every required field
 * first, then each field in turn. Anything not in `spec` is ignored, as the server drops it.
 */
export function readFields<S extends Spec, R extends keyof S & string = never>(
  source: Record<string, unknown>,
  spec: S,
  required: readonly R[] = [],
): Fields<S, R> {
  for (const field of required) if (source[field] === undefined) throw missing(field);
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(spec)) {
    if (source[field] !== undefined) out[field] = spec[field](source[field], field);
  }
  // Every required field was present, and each value came from its own field's parser.
  return out as Fields<S, R>;
}

/** The query string as one record (express parses it; the fake request of the tests too). */
export function queryOf(req: Request): Record<string, unknown> {
  return req.query as Record<string, unknown>;
}

export interface PageRequest {
  current: number;
  pageSize: number;
}

const pageSpec = { current: int({ min: 1, max: 1_000_000 }), pageSize: int({ min: 1, max: 100 }) };

/** `current` (default 1) and `pageSize` (default 10, at most 100) from the query. */
export function readPage(req: Request): PageRequest {
  const { current = 1, pageSize = 10 } = readFields(queryOf(req), pageSpec);
  return { current, pageSize };
}

/** List filters: an empty value means "no filter", as on the server. */
export const textFilter = str({ max: 100 });
export const idFilter = str({ max: 24, pattern: /^(|[0-9a-f]{24})$/ });
export const boolFilter = oneOf(['true', 'false', ''] as const);

/** The `:id` of a path, which the server refuses with a 400 unless it is a 24-hex id. */
export function idParam(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isObjectId(id)) throw badFormat('id');
  return id;
}

export interface Page<T> {
  currentPage: number;
  eachPage: number;
  count: number;
  totalPage: number;
  data: T[];
}

/**
 * One page of rows already filtered and sorted, each shown through `show` (which leaves out what
 * never leaves the server); a page past the end has no rows but the true count.
 */
export function pageOf<T, U>(rows: T[], page: PageRequest, show: (row: T) => U): Page<U> {
  const start = (page.current - 1) * page.pageSize;
  const slice = rows.slice(start, start + page.pageSize);
  return {
    currentPage: page.current,
    eachPage: page.pageSize,
    count: rows.length,
    totalPage: Math.ceil(rows.length / page.pageSize),
    data: slice.map(show),
  };
}

/** Case-insensitive substring match; an empty or missing filter matches everything. */
export function containsText(value: string, filter: string | undefined): boolean {
  return !filter || value.toLowerCase().includes(filter.toLowerCase());
}

const ALLOWED_TAGS = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
  'ul', 'ol', 'li', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'a', 'img', 'b', 'i', 'u', 's', 'del', 'strong', 'em', 'span',
]);
const IMAGE_SRC = /\ssrc\s*=\s*["']?\s*(https?:\/\/|\/static\/|data:image\/(png|jpeg|gif|webp);base64,)/i;

/**
 * Stands in for the server's allow-list sanitiser (sanitize-html), close enough for what a
 * developer meets on the mocks: the server's tags only (others dropped, their text kept), no
 * script or style content, no event attributes, no `javascript:` links, no image from elsewhere.
 * Markup that was nothing but such content is refused, as on the server. The front end
 * sanitises again wherever it renders HTML, so this never has to be a security boundary.
 */
export function requiredHtml(field: string, value: string): string {
  const clean = value
    .replace(/<(script|style|iframe|object|embed|textarea|noscript)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?([a-z][a-z0-9]*)\b[^>]*>/gi, (tag, name: string) => {
      const lower = name.toLowerCase();
      if (!ALLOWED_TAGS.has(lower)) return '';
      if (lower === 'img' && !IMAGE_SRC.test(tag)) return '';
      return tag
        .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
        .replace(/\s(href|src)\s*=\s*("\s*javascript:[^"]*"|'\s*javascript:[^']*'|javascript:[^\s>]*)/gi, '');
    })
    .trim();
  if (!clean) throw badRequest(`${fieldName(field)}不能为空`);
  return clean;
}
