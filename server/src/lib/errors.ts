import { AUTH_MESSAGES } from '#contract/auth';
import { ERROR_CODES, errorCodeForStatus, type ErrorCode } from '#contract/envelope';
import { FIELD_LABELS } from '#contract/fields';
import type { VersionConflict } from '#contract/version';

/** The one error type services throw; the error-handler plugin turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly msg: string,
    /** The envelope's machine-readable `errorCode`: the status's unless a case has its own. */
    readonly errorCode: ErrorCode = errorCodeForStatus(statusCode),
    /** More fields of the envelope beside msg (the `conflict` of a 409 VERSION_CONFLICT). */
    readonly extra?: Readonly<{ conflict?: VersionConflict }>,
    /** Seconds until the call may succeed again: sent as Retry-After (a 429 of a limit). */
    readonly retryAfter?: number,
  ) {
    super(msg);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string) => new AppError(400, msg);
/** A field the schema cannot require on its own (one of two, by another field's value), said as the schema's own refusal is. */
export const missingField = (field: string) => badRequest(`缺少必填字段：${FIELD_LABELS[field] ?? field}（${field}）`);
/**
 * 401: by default for no token or one that ran out (errorCode SESSION_EXPIRED, the message 登录过期
 * as clients before errorCode know it); with a message of its own (wrong credentials), UNAUTHORIZED.
 */
export const unauthorized = (msg?: string) =>
  msg === undefined ? new AppError(401, AUTH_MESSAGES.sessionExpired, ERROR_CODES.sessionExpired) : new AppError(401, msg);
/** 401 for a token still good whose session the server ended (ended by someone, password, disabled). */
export const sessionEnded = () => new AppError(401, AUTH_MESSAGES.sessionExpired, ERROR_CODES.sessionEnded);
export const forbidden = (msg: string = AUTH_MESSAGES.forbidden) => new AppError(403, msg);
export const notFound = (msg: string) => new AppError(404, msg);
export const conflict = (msg: string) => new AppError(409, msg);

/** The SQLSTATE of a database error; drizzle wraps the driver's error and keeps it as `cause`. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return typeof code === 'string' ? code : sqlState(cause);
}

/** PostgreSQL's unique_violation, raised when two writers race past a uniqueness check. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** PostgreSQL's foreign_key_violation: a row still refers to (or no longer finds) another. */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503';
}
