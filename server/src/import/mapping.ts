/**
 * One old document to one row of this product, through the same rules as the API (the contract's
 * lengths and formats, HTML sanitised): a record that breaks a rule throws SkipRecord with the
 * reason; a record whose fix is obvious (an empty nickname, a missing last-login date, markup in a
 * plain-text field) is fixed and the fix noted. Field meanings: docs/import.md.
 */
import sanitize from 'sanitize-html';
import { FIELD_LABELS } from '#contract/fields';
import { sanitizeHtmlExplained } from '../lib/html';
import { DEFAULT_ADMIN_NICKNAME, DEFAULT_USER_NICKNAME, DEFAULT_USER_POINTS } from '../lib/defaults';
import { type Doc, ObjectIdValue, type Value } from './values';
import { COMMENT_TYPES } from '#contract/comment';

export class SkipRecord extends Error {}

const label = (field: string) => `${FIELD_LABELS[field] ?? field}（${field}）`;
const ID = /^[0-9a-f]{24}$/;
const MD5 = /^[0-9a-f]{32}$/;
// Plausible epoch milliseconds: 1990 to 2100. A value in seconds (10 digits) is outside and refused.
const MIN_MS = 631_152_000_000;
const MAX_MS = 4_102_444_800_000;

/** The fields of one document, read with the rules of the product. */
export class RecordReader {
  readonly fixes: string[] = [];
  constructor(readonly doc: Doc) {}

  private raw(field: string): Value | undefined {
    return Object.hasOwn(this.doc, field) ? this.doc[field] : undefined;
  }

  skip(reason: string): never {
    throw new SkipRecord(reason);
  }

  id(): string {
    const value = this.raw('_id');
    const hex = value instanceof ObjectIdValue ? value.hex : typeof value === 'string' ? value.toLowerCase() : null;
    if (!hex || !ID.test(hex)) this.skip('_id 不是 24 位十六进制的 ObjectId');
    return hex;
  }

  /** A reference: an ObjectId or its 24-hex string; null when absent and allowed. */
  ref(field: string, required: boolean): string | null {
    const value = this.raw(field);
    if (value === undefined || value === null || value === '') {
      if (required) this.skip(`缺少${label(field)}`);
      return null;
    }
    const hex = value instanceof ObjectIdValue ? value.hex : typeof value === 'string' ? value.toLowerCase() : null;
    if (!hex || !ID.test(hex)) this.skip(`${label(field)}不是有效的 id`);
    return hex;
  }

  /** A string field; numbers are accepted as their text (old data stored some QQ numbers as numbers). */
  text(field: string, rule: { min?: number; max: number; plain?: boolean; pattern?: RegExp; orEmpty?: boolean }): string {
    const value = this.raw(field);
    let text: string;
    if (value === undefined || value === null) text = '';
    else if (typeof value === 'string') text = value;
    else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
    else return this.skip(`${label(field)}应为字符串`);
    if (rule.plain) text = this.plain(field, text);
    text = text.trim();
    if (text.length < (rule.min ?? 0)) this.skip(`${label(field)}不能为空`);
    if (text.length > rule.max) this.skip(`${label(field)}超过 ${rule.max} 个字符`);
    if (rule.pattern && text && !rule.pattern.test(text)) {
      if (!rule.orEmpty) this.skip(`${label(field)}格式不正确`);
      this.fixes.push(`${label(field)}格式不正确，已清空`);
      return '';
    }
    return text;
  }

  /** Markup in a field shown as plain text is taken out (a script with its content), never stored. */
  private plain(field: string, text: string): string {
    if (!/<[a-zA-Z!/?]/.test(text)) return text;
    let out = text;
    for (let i = 0; i < 3 && /<[a-zA-Z!/?]/.test(out); i++) {
      out = sanitize(out, { allowedTags: [], allowedAttributes: {} })
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    }
    out = out.replace(/<(?=[a-zA-Z!/?])/g, '');
    this.fixes.push(`${label(field)}含有 HTML 标记，已去掉`);
    return out;
  }

  html(field: string, max: number): string {
    const value = this.raw(field);
    if (typeof value !== 'string' || !value.trim()) this.skip(`缺少${label(field)}`);
    if (value.length > max) this.skip(`${label(field)}超过 ${max} 个字符`);
    // Text without markup characters comes out of the sanitiser as it went in: spare the parse.
    const { clean, removed } = /[<>&]/.test(value) ? sanitizeHtmlExplained(value) : { clean: value.trim(), removed: [] };
    if (!clean) this.skip(`${label(field)}净化后为空（只含不安全的标记）`);
    // Only what was taken out is a fix; the same HTML written anew (`<br>` → `<br />`) is not.
    if (removed.length) this.fixes.push(`${label(field)}中的不安全 HTML 已净化：去掉了${removed.join('、')}`);
    return clean;
  }

  int(field: string, rule: { min: number; max: number; fallback?: number }): number {
    const value = this.raw(field);
    if (value === undefined || value === null || value === '') {
      if (rule.fallback === undefined) this.skip(`缺少${label(field)}`);
      return rule.fallback;
    }
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n)) this.skip(`${label(field)}应为整数`);
    if (n < rule.min || n > rule.max) this.skip(`${label(field)}应在 ${rule.min} 到 ${rule.max} 之间`);
    return n;
  }

  bool(field: string, fallback: boolean): boolean {
    const value = this.raw(field);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 1) return true;
    if (value === 'false' || value === 0) return false;
    return this.skip(`${label(field)}应为布尔值`);
  }

  /** Epoch milliseconds from a string of digits (the old server's own format), a number or an ISODate. */
  date(field: string, fallback?: () => number): number {
    const value = this.raw(field);
    let ms: number;
    if (value === undefined || value === null || value === '') {
      if (!fallback) this.skip(`缺少${label(field)}`);
      this.fixes.push(`缺少${label(field)}，已补上`);
      return fallback();
    }
    if (value instanceof Date) ms = value.getTime();
    else if (typeof value === 'number') ms = value;
    else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) ms = Number(value);
    else if (typeof value === 'string') ms = Date.parse(value);
    else ms = Number.NaN;
    if (!Number.isInteger(ms) || ms < MIN_MS || ms > MAX_MS) this.skip(`${label(field)}不是有效的日期`);
    return ms;
  }

  /** An image path as the old data has it; the importer brings it over or puts the default. */
  image(field: string): string {
    const value = this.raw(field);
    return typeof value === 'string' ? value.trim() : '';
  }
}

/** The seconds an ObjectId was made at: an admin's creation date, which the old data lacks. */
export const idTime = (id: string) => Number.parseInt(id.slice(0, 8), 16) * 1000;

const LOGIN_ID = /^[^\s]+$/;
const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const QQ = /^[1-9][0-9]{4,11}$/;
const LINK = /^https?:\/\/[^\s]+$/;

function password(r: RecordReader, field: string): { passwordHash: string; passwordLegacy: boolean } {
  const value = r.doc[field];
  if (typeof value === 'string' && MD5.test(value.toLowerCase())) return { passwordHash: value.toLowerCase(), passwordLegacy: true };
  // No usable hash: nobody can sign in with it until an admin sets a password.
  r.fixes.push(`${label(field)}不是 md5 哈希，需由管理员设置新密码`);
  return { passwordHash: '', passwordLegacy: false };
}

export function mapType(r: RecordReader) {
  return { id: r.id(), typeName: r.text('typeName', { min: 1, max: 32, plain: true }), createdAt: idTime(r.id()) };
}

export function mapAdmin(r: RecordReader) {
  const id = r.id();
  const loginId = r.text('loginId', { min: 1, max: 64, pattern: LOGIN_ID });
  const permission = r.int('permission', { min: 1, max: 2 });
  let nickname = r.text('nickname', { max: 32, plain: true });
  if (!nickname) {
    nickname = DEFAULT_ADMIN_NICKNAME;
    r.fixes.push(`${label('nickname')}为空，已设为「${DEFAULT_ADMIN_NICKNAME}」`);
  }
  return {
    id,
    loginId,
    ...password(r, 'loginPwd'),
    nickname,
    avatar: r.image('avatar'),
    permission,
    enabled: r.bool('enabled', true),
    createdAt: idTime(id),
  };
}

export function mapUser(r: RecordReader) {
  const id = r.id();
  const loginId = r.text('loginId', { min: 1, max: 64, pattern: LOGIN_ID });
  const registerDate = r.date('registerDate', () => idTime(id));
  let nickname = r.text('nickname', { max: 32, plain: true });
  if (!nickname) {
    // As the old server named a user without one: a prefix and digits.
    nickname = `${DEFAULT_USER_NICKNAME}${String(registerDate).split('').reverse().join('').slice(0, 6)}`;
    r.fixes.push(`${label('nickname')}为空，已设为「${nickname}」`);
  }
  return {
    id,
    loginId,
    ...password(r, 'loginPwd'),
    nickname,
    avatar: r.image('avatar'),
    mail: r.text('mail', { max: 254, pattern: MAIL, orEmpty: true }),
    qq: r.text('qq', { max: 12, pattern: QQ, orEmpty: true }),
    wechat: r.text('wechat', { max: 64, plain: true }),
    intro: r.text('intro', { max: 500, plain: true }),
    points: r.int('points', { min: 0, max: 100_000_000, fallback: DEFAULT_USER_POINTS }),
    enabled: r.bool('enabled', true),
    registerDate,
    lastLoginDate: r.date('lastLoginDate', () => registerDate),
  };
}

export function mapBook(r: RecordReader) {
  let downloadLink = r.text('downloadLink', { min: 1, max: 2048 });
  if (!LINK.test(downloadLink)) {
    // "pan.baidu.com/s/…" without its scheme is the one fix that is obvious.
    if (/^[\w-]+(\.[\w-]+)+\/\S*$/.test(downloadLink)) {
      downloadLink = `https://${downloadLink}`;
      r.fixes.push(`${label('downloadLink')}缺少 https://，已补上`);
    } else {
      r.skip(`${label('downloadLink')}应为 http 或 https 地址`);
    }
  }
  return {
    id: r.id(),
    bookTitle: r.text('bookTitle', { min: 1, max: 100, plain: true }),
    bookPic: r.image('bookPic'),
    downloadLink,
    bookIntro: r.html('bookIntro', 500_000),
    scanNumber: r.int('scanNumber', { min: 0, max: 2_000_000_000, fallback: 0 }),
    commentNumber: 0,
    onShelfDate: r.date('onShelfDate'),
    requirePoints: r.int('requirePoints', { min: 0, max: 1_000_000 }),
    typeId: r.ref('typeId', true)!,
  };
}

export function mapInterview(r: RecordReader) {
  return {
    id: r.id(),
    interviewTitle: r.text('interviewTitle', { min: 1, max: 200, plain: true }),
    interviewContent: r.html('interviewContent', 500_000),
    onShelfDate: r.date('onShelfDate'),
    typeId: r.ref('typeId', true)!,
  };
}

export function mapIssue(r: RecordReader) {
  return {
    id: r.id(),
    issueTitle: r.text('issueTitle', { min: 1, max: 200, plain: true }),
    issueContent: r.html('issueContent', 500_000),
    scanNumber: r.int('scanNumber', { min: 0, max: 2_000_000_000, fallback: 0 }),
    commentNumber: 0,
    issueStatus: r.bool('issueStatus', false),
    issueDate: r.date('issueDate'),
    userId: r.ref('userId', true)!,
    typeId: r.ref('typeId', true)!,
  };
}

export function mapComment(r: RecordReader) {
  const id = r.id();
  const issueId = r.ref('issueId', false);
  const bookId = r.ref('bookId', false);
  let commentType: number;
  const given = r.doc.commentType;
  if (given === undefined || given === null) {
    if (!issueId === !bookId) r.skip(`缺少${label('commentType')}`);
    commentType = issueId ? COMMENT_TYPES.issue : COMMENT_TYPES.book;
    r.fixes.push(`缺少${label('commentType')}，已按目标补上`);
  } else {
    commentType = r.int('commentType', { min: COMMENT_TYPES.issue, max: COMMENT_TYPES.book });
  }
  // A comment belongs to exactly one target, the one its type names (the old server forced the other to null).
  if (commentType === COMMENT_TYPES.issue && !issueId) r.skip(`问答评论缺少${label('issueId')}`);
  if (commentType === COMMENT_TYPES.book && !bookId) r.skip(`书籍评论缺少${label('bookId')}`);
  return {
    id,
    userId: r.ref('userId', true)!,
    issueId: commentType === COMMENT_TYPES.issue ? issueId : null,
    bookId: commentType === COMMENT_TYPES.book ? bookId : null,
    typeId: r.ref('typeId', false) ?? '',
    commentContent: r.html('commentContent', 50_000),
    commentDate: r.date('commentDate'),
    commentType,
  };
}
