/**
 * The in-memory state and envelope helpers shared by the mock handlers (`npm run dev:mock`).
 * .umirc.ts excludes this folder from the mock globs: it holds no handler map of its own.
 * Everything follows docs/api.md: envelopes, real HTTP statuses, 24-hex ids, epoch-ms times.
 */
import type { Request, Response } from '@umijs/bundler-utils/compiled/express';
import { randomBytes } from 'crypto';

/** The text every mock captcha shows; the login accepts it in any case. */
export const CAPTCHA_TEXT = 'TEST';

export const DEFAULT_AVATAR = '/default-avatar.svg';

export interface MockAdmin {
  _id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  permission: 1 | 2;
  enabled: boolean;
  createdAt: number;
  password: string;
}

export interface MockType {
  _id: string;
  typeName: string;
  createdAt: number;
}

export interface StoredUpload {
  bytes: Buffer;
  contentType: string;
}

let sequence = randomBytes(3).readUIntBE(0, 3);
const processBytes = randomBytes(5).toString('hex');

/** Like a Mongo ObjectId: seconds, a per-process random part and a counter, so ids sort by time. */
export function objectId(at: number = Date.now()): string {
  sequence = (sequence + 1) % 0x1000000;
  const seconds = Math.floor(at / 1000).toString(16).padStart(8, '0');
  return `${seconds}${processBytes}${sequence.toString(16).padStart(6, '0')}`;
}

const DAY = 24 * 60 * 60 * 1000;
const seededAt = Date.now() - 90 * DAY;

function seedAdmin(
  offsetDays: number,
  fields: Omit<MockAdmin, '_id' | 'createdAt' | 'password' | 'avatar'>,
): MockAdmin {
  const createdAt = seededAt + offsetDays * DAY;
  return { ...fields, _id: objectId(createdAt), createdAt, avatar: DEFAULT_AVATAR, password: '123456' };
}

function seedType(offsetDays: number, typeName: string): MockType {
  const createdAt = seededAt + offsetDays * DAY;
  return { _id: objectId(createdAt), typeName, createdAt };
}

export const db = {
  admins: [
    seedAdmin(0, { loginId: 'admin', nickname: '超级管理员', permission: 1, enabled: true }),
    seedAdmin(3, { loginId: 'editor', nickname: '内容编辑', permission: 2, enabled: true }),
    seedAdmin(7, { loginId: 'reviewer', nickname: '审核员', permission: 2, enabled: false }),
  ],
  types: ['HTML', 'CSS', 'JavaScript', 'React', 'Vue', 'Node.js', '数据库'].map((name, i) =>
    seedType(i, name),
  ),
  /** Live tokens and the admin each belongs to. */
  tokens: new Map<string, string>(),
  /** Failed logins per loginId, as epoch ms, for the 429 rule. */
  loginFailures: new Map<string, number[]>(),
  uploads: new Map<string, StoredUpload>(),
};

export function ok<T>(res: Response, data: T, status = 200): void {
  res.status(status).json({ success: true, code: 0, msg: '', data });
}

export function fail(res: Response, status: number, msg: string): void {
  res.status(status).json({ success: false, code: status, msg, data: null });
}

/** An admin as the API shows it: never the password. */
export function publicAdmin(admin: MockAdmin) {
  const { password: _neverSent, ...rest } = admin;
  return rest;
}

export function newToken(adminId: string): string {
  const token = randomBytes(24).toString('hex');
  db.tokens.set(token, adminId);
  return token;
}

export function revokeTokensOf(adminId: string): void {
  for (const [token, owner] of db.tokens) if (owner === adminId) db.tokens.delete(token);
}

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

/** The admin behind the request's token, if the token is live and the admin still enabled. */
export function sessionAdmin(req: Request): MockAdmin | undefined {
  const token = bearerToken(req);
  const id = token ? db.tokens.get(token) : undefined;
  const admin = db.admins.find((a) => a._id === id);
  return admin?.enabled ? admin : undefined;
}

/** Answers 401 or 403 itself and gives undefined when the request may not go on. */
export function requireAdmin(
  req: Request,
  res: Response,
  level: 'normal' | 'super',
): MockAdmin | undefined {
  const admin = sessionAdmin(req);
  if (!admin) {
    fail(res, 401, '登录过期，请重新登录');
    return undefined;
  }
  if (level === 'super' && admin.permission !== 1) {
    fail(res, 403, '没有权限进行此操作');
    return undefined;
  }
  return admin;
}

/** The request body as a record, whatever was sent. */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** A trimmed non-empty string, or undefined. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{24}$/.test(value);
}
