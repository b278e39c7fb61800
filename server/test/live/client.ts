import { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA } from './server-process';

/** What a call answered: the HTTP status, the parsed body (null when not JSON) and how long it took. */
export interface Answer {
  status: number;
  // The envelope's payload differs per route; callers read the fields they asked for.
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  body: any;
  ms: number;
  headers: Headers;
}

/** The front end's request time-out (docs/requirements.md): a call must be answered within it. */
export const CLIENT_TIMEOUT_MS = 3000;

export interface CallOptions {
  body?: unknown;
  form?: FormData;
  token?: string | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * One HTTP call over fetch. A network failure (refused, reset, timed out) throws: the caller
 * decides whether that outcome is allowed, and never learns more than "no answer".
 */
export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: BodyInit | undefined;
  if (options.form) payload = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body, ms: performance.now() - started, headers: response.headers };
}

/** A fresh captcha on `baseUrl`: the cookie that ties its answer to this caller. */
export async function captchaCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/res/captcha`, { signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('captcha_id='));
  if (!response.ok || !cookie) throw new Error(`no captcha from ${baseUrl}: ${response.status}`);
  return cookie.split(';')[0];
}

/** POST /api/admin/login with a captcha taken from `captchaFrom` (the same server by default). */
export async function login(baseUrl: string, loginId = ADMIN_LOGIN, loginPwd = ADMIN_PASSWORD, captchaFrom = baseUrl): Promise<Answer> {
  const cookie = await captchaCookie(captchaFrom);
  return call(baseUrl, 'POST', '/api/admin/login', {
    headers: { cookie },
    body: { loginId, loginPwd, captcha: CAPTCHA, remember: false },
  });
}

export async function signIn(baseUrl: string, loginId = ADMIN_LOGIN, loginPwd = ADMIN_PASSWORD): Promise<string> {
  const answer = await login(baseUrl, loginId, loginPwd);
  if (answer.status !== 200) throw new Error(`sign-in as ${loginId} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.token as string;
}

// The smallest valid PNG; uploads are judged by their first bytes, so a unique tail keeps every
// upload different without drawing real images.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b40000000049454e44ae426082',
  'hex',
);

/** A PNG followed by `tail` bytes that depend on `seed`. */
export function pngWithTail(seed: number, tail = 64): Buffer {
  const extra = Buffer.alloc(tail);
  for (let i = 0; i < tail; i++) extra[i] = (seed * 131 + i * 17 + (seed >> 8)) & 0xff;
  return Buffer.concat([PNG, extra]);
}

export function imageForm(bytes: Buffer, name = 'image.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}
