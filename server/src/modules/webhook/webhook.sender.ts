import { createHmac } from 'node:crypto';
import dns, { type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { MODERATION_KINDS, MODERATION_RULES, type ModerationKind, type ModerationRule } from '#contract/moderation';
import { WEBHOOK_MESSAGES, WEBHOOK_TEST_EVENT, type WebhookKind } from '#contract/webhook';

/** One event as queued by enqueueEvent (moderation/webhook.queue.ts) or by 发送测试. */
export interface WebhookEventPayload {
  event: string;
  occurredAt: number;
  data: Record<string, unknown>;
}

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

// ---- Signatures (each vendor's documented form) ----

/** 钉钉 加签: HMAC-SHA256 keyed by the secret over `timestamp\nsecret`, base64; sent as query parameters. */
export function dingtalkSign(secret: string, timestampMs: number): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

/** 飞书 签名校验: HMAC-SHA256 keyed by `timestamp\nsecret` over nothing, base64; timestamp in seconds, both in the body. */
export function feishuSign(secret: string, timestampSeconds: number): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** The generic receiver's check: `sha256=` + hex HMAC-SHA256 of the raw body, keyed by the hook's secret. */
export function jsonSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

// ---- Texts ----

const kindName = (kind: unknown) => MODERATION_KINDS[kind as ModerationKind] ?? '内容';
const ruleNames = (reasons: unknown) =>
  Array.isArray(reasons)
    ? [...new Set(reasons.map((reason) => MODERATION_RULES[(reason as { rule?: ModerationRule })?.rule as ModerationRule] ?? '规则'))].join(
        '、',
      )
    : '';

/** The one-line title and the lines of a robot's message; nothing from the post's text (it may be what was refused). */
export function describe(payload: WebhookEventPayload): { title: string; lines: string[] } {
  const { data } = payload;
  if (payload.event === WEBHOOK_TEST_EVENT) return { title: '测试通知', lines: ['这是一条测试通知：通知设置正确。'] };
  if (payload.event === 'item.waiting') {
    if (data.recheck) {
      return { title: '重新检查完成', lines: [`检查 ${Number(data.checked) || 0} 条，${Number(data.flagged) || 0} 条进入审核台。`] };
    }
    const rules = ruleNames(data.reasons);
    return { title: '新内容待审', lines: [`一条${kindName(data.kind)}等待审核${rules ? `（${rules}）` : ''}。`, '请到审核台处理。'] };
  }
  if (payload.event === 'rule.fired') {
    const rules = ruleNames(data.reasons);
    return { title: '规则触发', lines: [`一条${kindName(data.kind)}被规则拒绝${rules ? `（${rules}）` : ''}。`] };
  }
  return { title: payload.event, lines: [] };
}

/**
 * The HTTP request a delivery makes to a hook of `kind`: body, headers and, for 钉钉, the signed
 * query. `now` is the sending clock (the robots refuse a timestamp an hour off).
 */
export function buildRequest(
  hook: { kind: WebhookKind; url: string; secret: string | null },
  delivery: { id: number; payload: WebhookEventPayload },
  now: number,
): OutgoingRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'coder-station-webhook/1' };
  const { title, lines } = describe(delivery.payload);
  const text = `【${title}】${lines.join('')}`;
  switch (hook.kind) {
    case 'wecom':
      return {
        url: hook.url,
        headers,
        body: JSON.stringify({ msgtype: 'markdown', markdown: { content: `**${title}**\n${lines.join('\n')}` } }),
      };
    case 'dingtalk': {
      const url = new URL(hook.url);
      if (hook.secret) {
        url.searchParams.set('timestamp', String(now));
        url.searchParams.set('sign', dingtalkSign(hook.secret, now));
      }
      const body = JSON.stringify({ msgtype: 'markdown', markdown: { title, text: `#### ${title}\n${lines.join('\n\n')}` } });
      return { url: url.toString(), headers, body };
    }
    case 'feishu': {
      const timestamp = Math.floor(now / 1000);
      const signed = hook.secret ? { timestamp: String(timestamp), sign: feishuSign(hook.secret, timestamp) } : {};
      return { url: hook.url, headers, body: JSON.stringify({ ...signed, msg_type: 'text', content: { text } }) };
    }
    case 'json': {
      const body = JSON.stringify({ id: delivery.id, ...delivery.payload });
      headers['x-webhook-id'] = String(delivery.id);
      headers['x-webhook-timestamp'] = String(now);
      if (hook.secret) headers['x-signature-256'] = jsonSignature(hook.secret, body);
      return { url: hook.url, headers, body };
    }
  }
}

// ---- Addresses (SSRF) ----

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');
PRIVATE.addSubnet('ff00::', 8, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (!family) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The address's form: http(s) only, no credentials in it. Answers the parsed URL or the message to refuse it with. */
export function checkUrlForm(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return WEBHOOK_MESSAGES.badUrl;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname)
    return WEBHOOK_MESSAGES.badUrl;
  return url;
}

/**
 * Whether the host may be sent to: unless private addresses are allowed (tests, an intranet
 * install), none of the addresses its name resolves to may be loopback, private or link-local.
 * Checked when the hook is saved and again before every send (a name can be pointed elsewhere).
 */
export async function hostAllowed(url: URL, allowPrivate: boolean): Promise<boolean> {
  if (allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (isIP(host)) return !isPrivateAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((entry) => !isPrivateAddress(entry.address));
  } catch {
    // A name that does not resolve now is judged at send time (and fails there).
    return true;
  }
}

/** The address as the screens show it: query values and long path pieces (a robot's key or token) cut to their start. */
export function maskUrl(text: string): string {
  try {
    const url = new URL(text);
    const cut = (value: string) => (value.length > 6 ? `${value.slice(0, 4)}…` : value);
    url.pathname = url.pathname
      .split('/')
      .map((piece) => (piece.length > 16 ? cut(piece) : piece))
      .join('/');
    for (const [key, value] of [...url.searchParams]) url.searchParams.set(key, cut(value));
    return decodeURI(url.toString());
  } catch {
    return '';
  }
}

// ---- Sending ----

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** A robot that answers 200 may still refuse: 钉钉 and 企业微信 say `errcode`, 飞书 `code` (or `StatusCode`). */
function robotRefusal(kind: WebhookKind, text: string): string | null {
  if (kind === 'json') return null;
  try {
    const answer = JSON.parse(text) as Record<string, unknown>;
    for (const field of ['errcode', 'code', 'StatusCode']) {
      const value = answer[field];
      if (typeof value === 'number' && value !== 0)
        return `${field} ${value}: ${String(answer.errmsg ?? answer.msg ?? answer.StatusMessage ?? '')}`.slice(0, 300);
    }
  } catch {
    // Not JSON: the status code decides.
  }
  return null;
}

/**
 * A resolver for the connection itself that refuses a private address: the check above runs
 * before the send, but a name may resolve to a public address for it and to 127.0.0.1 a moment
 * later (DNS re-binding). Node connects to what this answers, so what is checked is what is used.
 */
export function publicOnly(resolve: LookupFunction = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = found as unknown as LookupAddress[];
      if (!addresses.length || addresses.some((entry) => isPrivateAddress(entry.address))) {
        return callback(Object.assign(new Error(WEBHOOK_MESSAGES.privateUrl), { code: 'EPRIVATEADDRESS' }), '', 0);
      }
      if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** One POST with Node's client: the answer's status and the start of its body. Never follows a redirect. */
function post(
  url: URL,
  request: OutgoingRequest,
  options: { signal: AbortSignal; lookup: LookupFunction | undefined },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        signal: options.signal,
        lookup: options.lookup,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < 4096) text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: text.slice(0, 4096) }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Sends once, within `timeoutMs`; never follows a redirect (it could lead to a private address). */
export async function send(
  kind: WebhookKind,
  request: OutgoingRequest,
  options: {
    timeoutMs: number;
    allowPrivate: boolean;
    signal?: AbortSignal;
    clock?: () => number;
    /** How names are resolved (dns.lookup); tests stand in a name server that changes its answer. */
    resolve?: LookupFunction;
  },
): Promise<SendResult> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const took = () => Math.max(0, Math.round(clock() - started));
  const url = new URL(request.url);
  if (!(await hostAllowed(url, options.allowPrivate)))
    return { ok: false, status: null, error: WEBHOOK_MESSAGES.privateUrl, durationMs: took() };
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await post(url, request, {
      signal: AbortSignal.any([timeout, ...(options.signal ? [options.signal] : [])]),
      lookup: options.allowPrivate ? options.resolve : publicOnly(options.resolve),
    });
    const { text } = response;
    const durationMs = took();
    if (response.status < 200 || response.status >= 300) {
      return { ok: false, status: response.status, error: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, durationMs };
    }
    const refusal = robotRefusal(kind, text);
    return { ok: !refusal, status: response.status, error: refusal, durationMs };
  } catch (error) {
    const message = timeout.aborted
      ? `超时（${options.timeoutMs} 毫秒）`
      : String((error as { cause?: Error })?.cause?.message ?? (error as Error)?.message ?? error);
    return { ok: false, status: null, error: message.slice(0, 300), durationMs: took() };
  }
}
