/**
 * Machine-readable reasons beside an error's `msg`, for a client to act on without reading the
 * Chinese text. Every error envelope carries one; where a status has several reasons a client must
 * tell apart, each has its own code (the 401s, the two-step sign-in), else it names the status.
 */
export const ERROR_CODES = {
  /** 400: the request breaks a rule of the service (an unknown type, a wrong captcha, …). */
  badRequest: 'BAD_REQUEST',
  /** 400: the request does not match the route's schema (a field missing, too long, of the wrong type). */
  validationFailed: 'VALIDATION_FAILED',
  /** 401: wrong credentials. */
  unauthorized: 'UNAUTHORIZED',
  /** 401: no token, or one that ran out. */
  sessionExpired: 'SESSION_EXPIRED',
  /** 401: a token still good whose session the server ended (by another admin, a password change, a disabled account). */
  sessionEnded: 'SESSION_ENDED',
  forbidden: 'FORBIDDEN',
  /** 403: a member under 禁言 posting or commenting (the message says until when). */
  muted: 'MUTED',
  /** 403: a member under 封禁 signing in or calling (the message says until when). */
  suspended: 'SUSPENDED',
  /** 403: two-step sign-in is required and this admin has not set it up. */
  twoFactorSetupRequired: 'TWO_FACTOR_SETUP_REQUIRED',
  /** 403: the action needs a fresh proof of identity (POST /api/admin/me/reauth) within REAUTH_WINDOW_SECONDS. */
  reauthRequired: 'REAUTH_REQUIRED',
  /** 403: the admin signed in with a generated password and must change it first (POST /api/admin/me/password). */
  passwordChangeRequired: 'PASSWORD_CHANGE_REQUIRED',
  /** 409: a PATCH sent a version older than the record's; nothing was changed (the answer's `conflict` says what changed). */
  versionConflict: 'VERSION_CONFLICT',
  /** 400: the sign-in's second step has expired, been used up or is unknown. */
  challengeExpired: 'CHALLENGE_EXPIRED',
  notFound: 'NOT_FOUND',
  /** 400: a question, comment, nickname or intro refused by a 拒绝 word of the moderation rules (the message names no word). */
  contentRejected: 'CONTENT_REJECTED',
  timeout: 'REQUEST_TIMEOUT',
  /** 409: a duplicate, a record in use, or a concurrent change that won. */
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  headersTooLarge: 'HEADERS_TOO_LARGE',
  rateLimited: 'RATE_LIMITED',
  internal: 'INTERNAL',
  /** 503: the database cannot answer now, or the server is stopping. */
  unavailable: 'UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** What each code means, in the words the screens use where they show one (安全事件's 原因). */
export const ERROR_CODE_LABELS: Record<ErrorCode, string> = {
  BAD_REQUEST: '请求不符合规则',
  VALIDATION_FAILED: '参数不正确',
  UNAUTHORIZED: '账号或密码不正确',
  SESSION_EXPIRED: '未登录或登录已过期',
  SESSION_ENDED: '登录已在其他地方被结束',
  FORBIDDEN: '没有权限',
  MUTED: '禁言中',
  SUSPENDED: '封禁中',
  TWO_FACTOR_SETUP_REQUIRED: '未按要求开启两步验证',
  REAUTH_REQUIRED: '需要重新验证身份',
  PASSWORD_CHANGE_REQUIRED: '需要先修改初始密码',
  VERSION_CONFLICT: '记录已被他人修改',
  CHALLENGE_EXPIRED: '登录验证已过期',
  NOT_FOUND: '不存在',
  CONTENT_REJECTED: '内容被审核规则拒绝',
  REQUEST_TIMEOUT: '请求超时',
  CONFLICT: '冲突',
  PAYLOAD_TOO_LARGE: '内容过大',
  UNSUPPORTED_MEDIA_TYPE: '内容类型不支持',
  HEADERS_TOO_LARGE: '请求头过大',
  RATE_LIMITED: '操作过于频繁',
  INTERNAL: '服务器内部错误',
  UNAVAILABLE: '服务暂不可用',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  408: ERROR_CODES.timeout,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.payloadTooLarge,
  415: ERROR_CODES.unsupportedMediaType,
  429: ERROR_CODES.rateLimited,
  431: ERROR_CODES.headersTooLarge,
  503: ERROR_CODES.unavailable,
};

/** The code of an error that has no more specific one: its status's. */
export function errorCodeForStatus(status: number): ErrorCode {
  return BY_STATUS[status] ?? (status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badRequest);
}
