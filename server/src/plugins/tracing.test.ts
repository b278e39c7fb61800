import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { type ProxyTracerProvider, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD } from '../../test/harness';
import { scratchDatabase } from '../../test/live/postgres';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, type Database, type StatementHook } from '../db/client';
import { tracingFor, type Tracing } from '../lib/tracing';
import { createAdminRepository } from '../modules/admin/admin.repository';
import { ensureFirstSuperAdmin } from '../modules/admin/first-admin';
import { createLogging } from './logging';

// The SQL spans on the database the suite runs on: PGlite, or PostgreSQL when TEST_DATABASE_URL is
// set. The pool has two connections there, so that concurrent requests queue for one.

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** An OTLP/HTTP receiver (JSON): what POST /v1/traces is sent, decoded. */
function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const services: unknown[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
        response.writeHead(404).end();
        return;
      }
      for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
        services.push(attribute({ attributes: resourceSpans.resource.attributes } as OtlpSpan, 'service.name'));
        for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    spans,
    services,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The exporter keeps its connection alive.
        server.closeAllConnections();
      }),
  };
}

/** An attribute's value, whatever its OTLP type (intValue may come as a string). */
function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  const [[type, given]] = Object.entries(value);
  return type === 'intValue' ? Number(given) : given;
}

const receiver = otlpReceiver();
let database: Database;
let drop: () => Promise<void> = async () => undefined;
// The database is opened once; each test's tracing (or none) is put behind its statement hook.
let hook: StatementHook | null = null;
let receiverUrl: string;

beforeAll(async () => {
  const onStatement: StatementHook = (text) => hook?.(text) ?? null;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = await scratchDatabase(adminUrl, 'cs_tracing');
    drop = scratch.drop;
    database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2, memo: true, onStatement });
  } else {
    database = await openDatabase({ kind: 'embedded', dataDir: null, onStatement });
  }
  await database.migrate();
  receiverUrl = await receiver.start();
}, 120_000);
afterAll(async () => {
  await receiver.stop();
  await database.close();
  await drop();
});

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return {
    stream,
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}

async function serve(env: Record<string, string>, tracing: Tracing | null) {
  const config = loadConfig({
    NODE_ENV: 'test',
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    ADMIN_LOGIN_ID: ROOT_LOGIN,
    ADMIN_PASSWORD: ROOT_PASSWORD,
    ...env,
  });
  await ensureFirstSuperAdmin(database.db, createAdminRepository(database.db), config);
  const log = capture();
  hook = tracing?.onStatement ?? null;
  const app = await buildApp({
    config,
    database,
    tracing,
    logging: await createLogging({ logLevel: 'info' }, { terminal: false, destination: log.stream }),
  });
  // Through a socket, as in production: a body is read from the connection's stream events.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, log, base };
}

async function signIn(base: string, requestId: string): Promise<string> {
  const captcha = await fetch(`${base}/res/captcha`);
  const cookie =
    captcha.headers
      .getSetCookie()
      .find((c) => c.startsWith('captcha_id='))
      ?.split(';')[0] ?? '';
  const response = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-request-id': requestId },
    body: JSON.stringify({ loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA, remember: false }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).data.token;
}

/** The request log's line of the request with this X-Request-Id. */
const lineOf = (log: ReturnType<typeof capture>, requestId: string) =>
  log.lines().find((line) => line.reqId === requestId && line.msg === 'request completed');

describe('tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset)', () => {
  it('starts no provider, and the request log names no trace', async () => {
    const delegate = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
    expect(delegate()).not.toBeInstanceOf(NodeTracerProvider);
    const tracing = tracingFor(loadConfig({ OTEL_SERVICE_NAME: 'cs-test' }));
    expect(tracing).toBeNull();
    const { app, log, base } = await serve({}, tracing);
    try {
      await fetch(`${base}/api/admin`, { headers: { 'x-request-id': 'untraced-list-1' } });
    } finally {
      await app.close();
    }
    expect(lineOf(log, 'untraced-list-1')).toMatchObject({ res: { statusCode: 401 } });
    expect(lineOf(log, 'untraced-list-1')).not.toHaveProperty('trace_id');
    expect(delegate()).not.toBeInstanceOf(NodeTracerProvider);
    expect(receiver.spans).toHaveLength(0);
  });
});

describe('tracing on', () => {
  let served: Awaited<ReturnType<typeof serve>>;
  let tracing: Tracing;
  let token: string;
  const remoteTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const remoteParent = '00f067aa0ba902b7';

  beforeAll(async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_SERVICE_NAME: 'cs-test' };
    tracing = tracingFor(loadConfig(env)) as Tracing;
    served = await serve(env, tracing);
    const { base } = served;
    token = await signIn(base, 'traced-login-1');
    const list = (requestId: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/admin`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId, ...headers } });
    expect((await list('traced-list-1')).status).toBe(200);
    expect((await fetch(`${base}/api/admin`, { headers: { 'x-request-id': 'traced-denied-1' } })).status).toBe(401);
    expect((await list('traced-continued-1', { traceparent: `00-${remoteTrace}-${remoteParent}-01` })).status).toBe(200);
    // More requests at once than the PostgreSQL pool has connections: each statement stays with its own request.
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => list(`traced-many-${i}`)));
    expect(many.map((r) => r.status)).toEqual(Array(6).fill(200));
    await tracing.flush();
  }, 60_000);
  afterAll(async () => {
    hook = null;
    // Closed by the last test unless an earlier one failed.
    if (served.app.server.listening) await served.app.close();
  });

  const spans = () => receiver.spans;
  const serverSpanOf = (requestId: string) => {
    const traceId = lineOf(served.log, requestId)?.trace_id;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const found = spans().filter((span) => span.traceId === traceId && span.kind === 2);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const childrenOf = (parent: OtlpSpan) => spans().filter((span) => span.parentSpanId === parent.spanId);

  it('a server span per request, named by its route, with method, route and status', () => {
    expect(receiver.services).toContain('cs-test');
    const list = serverSpanOf('traced-list-1');
    expect(list.name).toBe('GET /api/admin');
    expect(attribute(list, 'http.request.method')).toBe('GET');
    expect(attribute(list, 'http.route')).toBe('/api/admin');
    expect(attribute(list, 'http.response.status_code')).toBe(200);
    expect(list.parentSpanId || undefined).toBeUndefined();
    const denied = serverSpanOf('traced-denied-1');
    expect(denied.name).toBe('GET /api/admin');
    expect(attribute(denied, 'http.response.status_code')).toBe(401);
    expect(attribute(serverSpanOf('traced-login-1'), 'http.route')).toBe('/api/admin/login');
  });

  it('a child span per SQL statement, with its text and never its parameters', () => {
    const list = serverSpanOf('traced-list-1');
    const statements = childrenOf(list);
    expect(statements.length).toBeGreaterThan(0);
    for (const span of statements) {
      expect(span.traceId).toBe(list.traceId);
      expect(span.kind).toBe(3);
      expect(attribute(span, 'db.system')).toBe('postgresql');
      expect(String(attribute(span, 'db.query.text'))).toMatch(/^\s*(select|insert|update|delete|with|begin|commit)/i);
    }
    expect(statements.some((span) => /"admins"/.test(String(attribute(span, 'db.query.text'))))).toBe(true);
    // The sign-in's statements, run after its body was read, belong to it; its password is in none.
    const login = childrenOf(serverSpanOf('traced-login-1'));
    expect(login.length).toBeGreaterThan(0);
    expect(JSON.stringify(login)).not.toContain(ROOT_PASSWORD);
    expect(JSON.stringify(spans())).not.toContain(token);
  });

  it('each of several requests at once keeps its own statements', () => {
    for (let i = 0; i < 6; i++) {
      const request = serverSpanOf(`traced-many-${i}`);
      expect(childrenOf(request).length).toBeGreaterThan(0);
    }
    const serverIds = new Set(
      spans()
        .filter((span) => span.kind === 2)
        .map((span) => span.spanId),
    );
    for (const span of spans().filter((s) => s.kind === 3)) {
      expect(serverIds.has(span.parentSpanId ?? '')).toBe(true);
      expect(spans().find((s) => s.spanId === span.parentSpanId)?.traceId).toBe(span.traceId);
    }
  });

  it("continues a caller's trace from its traceparent header", () => {
    const continued = serverSpanOf('traced-continued-1');
    expect(continued.traceId).toBe(remoteTrace);
    expect(continued.parentSpanId).toBe(remoteParent);
    expect(childrenOf(continued).length).toBeGreaterThan(0);
  });

  it('the close sends what is left and gives the OpenTelemetry API back', async () => {
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate()).toBeInstanceOf(NodeTracerProvider);
    const before = spans().length;
    await fetch(`${served.base}/healthz`, { headers: { 'x-request-id': 'traced-last-1' } });
    await served.app.close();
    expect(spans().length).toBeGreaterThan(before);
    expect(serverSpanOf('traced-last-1').name).toBe('GET /healthz');
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate()).not.toBeInstanceOf(NodeTracerProvider);
  });
});

describe('a collector that cannot be reached', () => {
  it('is said in the server log, once for a run of failed exports, and the calls are answered as ever', async () => {
    // A port nobody listens on: every export is refused.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'cs-test' };
    // The SDK's own settings, read from the environment when it starts: a batch every 200 ms
    // (5 s by default), each export given up after 1 s of retries (10 s).
    Object.assign(process.env, { OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    const tracing = tracingFor(loadConfig(env)) as Tracing;
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
    const { app, log, base } = await serve(env, tracing);
    try {
      // Spread over several batches, each export refused.
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      const problems = () => log.lines().filter((line) => String(line.msg).startsWith('OpenTelemetry: '));
      expect(problems().length).toBeGreaterThan(0);
      expect(problems()[0].level).toBeGreaterThanOrEqual(40);
      expect(problems()[0].msg).toBe(`OpenTelemetry: connect ECONNREFUSED 127.0.0.1:${port}`);
      // Three failed exports, one line per distinct message within the minute.
      expect(new Set(problems().map((line) => line.msg)).size).toBe(problems().length);
    } finally {
      await app.close();
    }
  });
});
