import type { AxiosRequestConfig, RequestConfig, RequestOptions } from '@umijs/max';
import { message } from '@/utils/feedback';
import { announceMustChangePassword, askForReauth } from '@/utils/trustGate';
import type { VersionConflict } from '#contract/version';
import { expireSession, getToken } from '@/utils/session';
import { announceMustSetUp2fa } from '@/utils/twoFactorGate';
import type { ErrorCode, ErrorEnvelope } from '#contract/envelope';

/** Thrown for a 2xx answer whose envelope says `success: false`. */
export class ApiError extends Error {
  readonly envelope: ErrorEnvelope;

  constructor(envelope: ErrorEnvelope) {
    super(envelope.msg);
    this.name = 'ApiError';
    this.envelope = envelope;
  }
}

export function isApiFailure(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const { success, msg } = value as Partial<Record<keyof ErrorEnvelope, unknown>>;
  return success === false && typeof msg === 'string';
}

/** The parts of an axios error that tell what went wrong. */
interface TransportError {
  code?: string;
  message?: string;
  response?: { status: number; data?: unknown };
}

export type RequestFailure =
  | { kind: 'server'; status: number; msg: string; errorCode?: ErrorCode }
  | { kind: 'timeout' | 'aborted' | 'network' | 'unknown' };

export const TRANSPORT_MESSAGES = {
  timeout: '请求超时，请稍后重试',
  aborted: '请求已取消',
  network: '网络异常，请检查网络连接',
  unknown: '请求失败，请稍后重试',
} as const;

/** For answers that carry no envelope, such as a proxy's own error page. */
export function statusMessage(status: number): string {
  if (status === 401) return '登录过期，请重新登录';
  if (status === 403) return '没有权限进行此操作';
  if (status === 404) return '请求的资源不存在';
  if (status === 413) return '上传的内容过大';
  if (status === 429) return '请求过于频繁，请稍后再试';
  if (status >= 500) return '服务器暂时无法处理请求，请稍后重试';
  return `请求失败（${status}）`;
}

export function classifyRequestError(error: unknown): RequestFailure {
  if (error instanceof ApiError) {
    return { kind: 'server', status: error.envelope.code, msg: error.envelope.msg, errorCode: error.envelope.errorCode };
  }
  if (typeof error !== 'object' || error === null) return { kind: 'unknown' };
  const { code, message: text = '', response } = error as TransportError;
  // Status 0 is no answer at all (the connection failed or was refused by the browser), not a server's.
  if (response?.status) {
    const body = response.data;
    const msg = isApiFailure(body) && body.msg ? body.msg : statusMessage(response.status);
    const errorCode = isApiFailure(body) ? body.errorCode : undefined;
    return { kind: 'server', status: response.status, msg, ...(errorCode && { errorCode }) };
  }
  // axios reports a time-out as ECONNABORTED unless `clarifyTimeoutError` is on, and a browser
  // abort as ECONNABORTED too: only the text tells them apart.
  if (code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(text))) {
    return { kind: 'timeout' };
  }
  if (code === 'ECONNABORTED' || code === 'ERR_CANCELED') return { kind: 'aborted' };
  if (code === 'ERR_NETWORK' || response) return { kind: 'network' };
  return { kind: 'unknown' };
}

/** The text to show an administrator for a failed call. */
export function describeRequestError(error: unknown): string {
  const failure = classifyRequestError(error);
  return failure.kind === 'server' ? failure.msg : TRANSPORT_MESSAGES[failure.kind];
}

/** The machine-readable reason of a server's refusal (`errorCode`), if it gave one. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  const failure = classifyRequestError(error);
  return failure.kind === 'server' ? failure.errorCode : undefined;
}

/** The HTTP status of a server's refusal, or undefined when no answer came. */
export function errorStatus(error: unknown): number | undefined {
  const failure = classifyRequestError(error);
  return failure.kind === 'server' ? failure.status : undefined;
}

export function errorThrower(response: unknown): void {
  if (isApiFailure(response)) throw new ApiError(response);
}

export function errorHandler(error: unknown, opts?: RequestOptions): void {
  // Rethrowing hands the error to the caller untouched: it shows its own messages.
  if (opts?.skipErrorHandler) throw error;
  const failure = classifyRequestError(error);
  if (failure.kind === 'server' && failure.status === 401) {
    expireSession(failure.errorCode);
    return;
  }
  // The edit screen that sent a version shows what changed in its ConflictDialog instead.
  if (failure.kind === 'server' && failure.errorCode === 'VERSION_CONFLICT') return;
  if (failure.kind === 'server' && failure.errorCode === 'PASSWORD_CHANGE_REQUIRED') {
    message.warning({ content: failure.msg, key: 'must-change-password' });
    announceMustChangePassword();
    return;
  }
  if (failure.kind === 'server' && failure.errorCode === 'TWO_FACTOR_SETUP_REQUIRED') {
    // Several calls of a page are refused at once: one warning, and the screen leads to the setup.
    message.warning({ content: failure.msg, key: 'must-set-up-2fa' });
    announceMustSetUp2fa();
    return;
  }
  message.error(failure.kind === 'server' ? failure.msg : TRANSPORT_MESSAGES[failure.kind]);
}

/** The `conflict` of a 409 VERSION_CONFLICT: what changed since the version the edit sent. */
export function conflictOf(error: unknown): VersionConflict | undefined {
  if (errorCodeOf(error) !== 'VERSION_CONFLICT') return undefined;
  const body = error instanceof ApiError ? error.envelope : (error as TransportError).response?.data;
  return (body as { conflict?: VersionConflict } | undefined)?.conflict;
}

/** A refusal's envelope, read out of a blob answer (a download's) when it is one. */
async function envelopeIn(data: unknown): Promise<ErrorEnvelope | undefined> {
  if (isApiFailure(data)) return data;
  if (typeof Blob === 'undefined' || !(data instanceof Blob) || !data.type.includes('json')) return undefined;
  try {
    // FileReader rather than Blob.text(): the same in every browser the back-office supports.
    const text = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsText(data);
    });
    const parsed: unknown = JSON.parse(text);
    return isApiFailure(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

type RepeatableConfig = AxiosRequestConfig & { reauthRepeated?: true };

/**
 * The response interceptor of 403 REAUTH_REQUIRED: asks for a fresh proof (ReauthDialog) and, once
 * given, sends the refused call again, once; its caller gets that answer as if nothing happened.
 * Closed without a proof, the refusal goes on to the error handler as any other.
 */
export function reauthInterceptor(
  repeat: (config: RepeatableConfig) => Promise<unknown>,
  ask: (windowSeconds?: number) => Promise<boolean> = askForReauth,
) {
  return async (error: unknown) => {
    const { response, config } = (error ?? {}) as TransportError & { config?: RepeatableConfig };
    if (response?.status === 403 && config && !config.reauthRepeated) {
      const envelope = await envelopeIn(response.data);
      // A download's refusal arrives as a blob: the handler reads the envelope as any other.
      if (envelope) response.data = envelope;
      if (envelope?.errorCode === 'REAUTH_REQUIRED' && (await ask(envelope.reauthWindowSeconds)))
        return repeat({ ...config, reauthRepeated: true });
    }
    throw error;
  };
}

export function withBearerToken(config: RequestOptions): RequestOptions {
  const token = getToken();
  if (!token) return config;
  return { ...config, headers: { ...config.headers, Authorization: `Bearer ${token}` } };
}

export const requestConfig: RequestConfig = {
  timeout: 3000,
  errorConfig: { errorThrower, errorHandler },
  requestInterceptors: [withBearerToken],
};
