/**
 * `npm run dev:mock`: no server process and no database to run, yet every call under /api,
 * /res/captcha and /static/uploads is answered by the real server (server/src/app.ts), built in
 * this process on an in-memory PGlite and reached through `app.inject`. Rules, messages, status
 * codes, headers and shapes are the server's own, so the two cannot drift (docs/architecture.md,
 * "One contract").
 *
 * The server starts as soon as Umi loads this file, when `max dev` starts (about 20 seconds:
 * PGlite, migrations, the `--demo` data set), and lives as long as `max dev`; its data is lost when
 * `max dev` stops. A call made while it starts waits for it (up to READY_WAIT_MS, then a 503
 * envelope): it gets the server's answer, never whatever the dev server would answer instead.
 * Sign in as `admin` / `123456` (super admin) or `editor` / `123456` (normal admin); the captcha
 * always reads 「TEST」, in any case (the server's CAPTCHA_TEST_ANSWER, which it refuses under
 * NODE_ENV=production; `max dev` sets development).
 *
 * How Umi 4's mock middleware hands a call over (@umijs/preset-umi/dist/features/mock): keys are
 * path-to-regexp 1.x patterns tested against `req.path`, so `/api/*` covers every API path; the
 * handler's return value is ignored, so it may be async; before a non-GET handler runs, body-parser
 * has read a JSON or urlencoded body into `req.body` and multer a multipart one into `req.body`
 * and `req.files` (in memory). Those bodies are written out again for `inject`; any other body is
 * still unread and is passed on as the request stream itself. The one difference left: a body
 * body-parser cannot read (malformed JSON, JSON over its 5 MB) it leaves as `{}` and Umi calls the
 * handler anyway, so the server answers for an empty object instead.
 */
import type { IncomingMessage, IncomingHttpHeaders, ServerResponse } from 'node:http';
import { defineMock } from '@umijs/max';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { writeTransaction } from '../server/src/db/write-lock';
import { createAdminRepository } from '../server/src/modules/admin/admin.repository';
import { DEFAULT_AVATAR } from '../server/src/lib/defaults';
import { newId } from '../server/src/lib/ids';
import { fail } from '../server/src/lib/http';
import { silentLogging } from '../server/src/plugins/logging';
import { hashPassword } from '../server/src/lib/passwords';
import { DEMO_SIZES, seed } from '../server/src/seed/seed';

export const MOCK_CAPTCHA = 'TEST';
export const MOCK_PASSWORD = '123456';

async function startServer(): Promise<FastifyInstance> {
  // No ADMIN_PASSWORD: the administrators' password rules (8 characters, not a common password)
  // refuse the documented 123456, so loadConfig would too.
  const config = loadConfig({
    NODE_ENV: process.env.NODE_ENV,
    CAPTCHA_TEST_ANSWER: MOCK_CAPTCHA,
  });
  const database = await openDatabase({ kind: 'embedded', dataDir: null });
  await database.migrate();
  // The two documented sign-ins are written through the repository, past the password rules
  // (which hold for every password set through the API or at first start), for development only;
  // the hashing and everything else are the server's own.
  const admins = createAdminRepository(database.db);
  const passwordHash = await hashPassword(MOCK_PASSWORD);
  for (const [loginId, nickname, permission] of [
    ['admin', '超级管理员', 1],
    ['editor', '编辑', 2],
  ] as const) {
    await writeTransaction(database.db, ['admins'], (tx) =>
      admins.insert(
        { id: newId(), loginId, passwordHash, nickname, avatar: DEFAULT_AVATAR, permission, enabled: true, createdAt: Date.now() },
        tx,
      ),
    );
  }
  await seed(database.db, DEMO_SIZES);
  // Errors only: a 500's details show in the terminal running `max dev`.
  const app = await buildApp({ config, database, logging: { ...silentLogging(), logger: { level: 'error' } } });
  app.addHook('onClose', () => database.close());
  return app;
}

// Kept on globalThis: Umi loads mock/ again after each edit in it, and one server (one PGlite)
// serves the whole `max dev` session.
const shared = globalThis as typeof globalThis & { coderStationMockServer?: Promise<FastifyInstance> };

export function mockServer(): Promise<FastifyInstance> {
  if (!shared.coderStationMockServer) {
    console.log('[mock] 正在进程内启动服务端（内存 PGlite + 演示数据）…');
    shared.coderStationMockServer = startServer().catch((error: unknown) => {
      shared.coderStationMockServer = undefined;
      throw error;
    });
  }
  return shared.coderStationMockServer;
}

/** What Umi's mock middleware (express, body-parser, multer) leaves on the request. */
export type MockRequest = IncomingMessage & {
  originalUrl?: string;
  body?: unknown;
  _body?: boolean;
  files?: { fieldname: string; originalname: string; mimetype: string; buffer: Buffer }[];
};

/** The request's body as the client sent it (or the same content), with its content-type. */
async function payloadOf(req: MockRequest, headers: IncomingHttpHeaders): Promise<InjectOptions['payload']> {
  if (req.files) {
    const form = new FormData();
    for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, string | string[]>)) {
      for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
    }
    for (const file of req.files)
      form.append(file.fieldname, new Blob([new Uint8Array(file.buffer)], { type: file.mimetype }), file.originalname);
    const encoded = new Response(form);
    headers['content-type'] = encoded.headers.get('content-type')!;
    return Buffer.from(await encoded.arrayBuffer());
  }
  if (req._body) {
    const json = /json/i.test(headers['content-type'] ?? '');
    return json ? JSON.stringify(req.body) : new URLSearchParams(req.body as Record<string, string>).toString();
  }
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  return req;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * How long a call waits for the in-process server to be ready: its start takes about 20 s, more on
 * a busy machine. (The front end gives up sooner, after its own 3 s time-out, and says so.)
 */
export const READY_WAIT_MS = 60_000;

function unavailable(res: ServerResponse, msg: string) {
  res.statusCode = 503;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(fail(503, msg)));
}

/** The server once ready, or null when it was not ready within `waitMs`. */
async function ready(server: () => Promise<FastifyInstance>, waitMs: number): Promise<FastifyInstance | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, waitMs, null);
  });
  try {
    return await Promise.race([server(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each call answered by `server()`'s app, waiting for it up to `waitMs` (tests give their own). */
export function createForward({ server = mockServer, waitMs = READY_WAIT_MS } = {}) {
  return async function forward(req: MockRequest, res: ServerResponse): Promise<void> {
    try {
      const headers: IncomingHttpHeaders = { ...req.headers };
      const payload = await payloadOf(req, headers);
      if (payload !== req) {
        delete headers['content-length'];
        delete headers['transfer-encoding'];
      }
      const app = await ready(server, waitMs);
      if (!app) {
        console.error(`[mock] 进程内服务端 ${waitMs / 1000} 秒内没有启动完成`);
        return unavailable(res, '服务暂时不可用，请稍后重试');
      }
      const answer = await app.inject({
        method: req.method as InjectOptions['method'],
        url: req.originalUrl ?? req.url!,
        headers,
        payload,
        remoteAddress: req.socket?.remoteAddress,
      });
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
      }
      res.statusCode = answer.statusCode;
      res.end(answer.rawPayload);
    } catch (error) {
      console.error('[mock] 进程内服务端出错：', error);
      if (res.headersSent) return void res.end();
      unavailable(res, '模拟服务暂不可用，请查看 max dev 的输出');
    }
  };
}

export const forward = createForward();

// Started while webpack builds the front end, so that it is usually ready before the first page asks.
mockServer().catch((error: unknown) => console.error('[mock] 进程内服务端启动失败：', error));

const handler = (req: IncomingMessage, res: ServerResponse) => void forward(req, res);

export default defineMock({
  'GET /res/captcha': handler,
  'GET /static/uploads/*': handler,
  'GET /api/*': handler,
  'POST /api/*': handler,
  'PATCH /api/*': handler,
  'PUT /api/*': handler,
  'DELETE /api/*': handler,
});
