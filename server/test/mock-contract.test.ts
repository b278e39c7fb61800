/**
 * `npm run dev:mock` answers through the real server (mock/server.ts). mock/ is loaded here by
 * Umi's own mock loader (getMockData: its esbuild require hook and key parsing) and served by
 * Umi's own middleware (createMockMiddleware: path-to-regexp matching, body-parser and multer),
 * on a plain HTTP server, so that what a browser gets from `max dev` is what these calls get.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMockMiddleware } from '@umijs/preset-umi/dist/features/mock/createMockMiddleware';
import { getMockData } from '@umijs/preset-umi/dist/features/mock/getMockData';
import { createForward, mockServer } from '../../mock/server';

const ROOT = path.resolve(__dirname, '../..');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b40000000049454e44ae426082',
  'hex',
);

interface Envelope<T = unknown> {
  success: boolean;
  code: number;
  msg: string;
  data: T;
}

let server: http.Server;
let base: string;
/** Calls sent while the in-process server was still starting, with when each was sent. */
let early: Array<{ url: string; sentAt: number; response: Promise<Response> }>;
let readyAt: number;

/** What `max dev` answers a GET no middleware took: the app's index.html (history fallback). */
const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';

beforeAll(async () => {
  // Loading mock/ starts the in-process server (PGlite, migrations, demo data), as `max dev` does.
  const mockData = getMockData({ cwd: ROOT, mockConfig: {} });
  void mockServer().then(() => {
    readyAt = performance.now();
  });
  const middleware = createMockMiddleware({ context: { mockData } });
  server = http.createServer((req, res) => {
    // What express adds and the middleware reads.
    Object.assign(req, { path: new URL(req.url!, 'http://localhost').pathname, originalUrl: req.url });
    middleware(req as never, res as never, () => {
      res.setHeader('content-type', 'text/html');
      res.end(INDEX_HTML);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  early = ['/api/admin/whoami', '/res/captcha', '/api/type'].map((url) => ({
    url,
    sentAt: performance.now(),
    response: fetch(`${base}${url}`),
  }));
  await Promise.all(early.map((call) => call.response));
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await (await mockServer()).close();
});

async function call<T = unknown>(method: string, url: string, options: { token?: string; body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${base}${url}`, { method, headers, body });
  const type = response.headers.get('content-type') ?? '';
  const payload = type.startsWith('application/json') ? ((await response.json()) as Envelope<T>) : null;
  return { status: response.status, headers: response.headers, body: payload };
}

/** A captcha cookie from the server, then a sign-in with the fixed answer as typed. */
async function login(loginId: string, captcha: string) {
  const image = await fetch(`${base}/res/captcha`);
  const cookie = image.headers.get('set-cookie')!.split(';')[0];
  return call<{ token: string; data: { loginId: string; permission: number } }>('POST', '/api/admin/login', {
    cookie,
    body: { loginId, loginPwd: '123456', captcha },
  });
}

test('Umi finds one handler per method and prefix, all in mock/server.ts', () => {
  const mockData = getMockData({ cwd: ROOT, mockConfig: {} });
  expect(Object.keys(mockData).sort()).toEqual([
    'DELETE /api/*',
    'GET /api/*',
    'GET /res/captcha',
    'GET /static/uploads/*',
    'PATCH /api/*',
    'POST /api/*',
    'PUT /api/*',
  ]);
  expect(new Set(Object.values(mockData).map((m) => path.relative(ROOT, m.file!)))).toEqual(new Set(['mock/server.ts']));
});

test('a call made while the in-process server starts waits for it and gets its answer, not index.html', async () => {
  for (const call of early) expect(call.sentAt).toBeLessThan(readyAt);
  const [whoami, captcha, types] = await Promise.all(early.map((call) => call.response));
  expect(whoami.status).toBe(401);
  expect(whoami.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await whoami.json()).toMatchObject({ success: false, code: 401, data: null });
  expect(captcha.status).toBe(200);
  expect(captcha.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  // A visitor's read of the public site (issue 24): the types, answered by the server.
  expect(types.status).toBe(200);
  expect(await types.text()).not.toContain(INDEX_HTML);
});

test('a call waits for the in-process server only so long, then answers the 503 envelope', async () => {
  const forward = createForward({ server: () => new Promise(() => undefined), waitMs: 100 });
  const waiting = http.createServer((req, res) => void forward(req, res));
  await new Promise<void>((resolve) => waiting.listen(0, '127.0.0.1', resolve));
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${(waiting.address() as AddressInfo).port}/api/admin/whoami`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      success: false,
      code: 503,
      msg: '服务暂时不可用，请稍后重试',
      errorCode: 'UNAVAILABLE',
      data: null,
    });
  } finally {
    error.mockRestore();
    await new Promise((resolve) => waiting.close(resolve));
  }
});

test('the captcha is the server’s: an uncached SVG and its cookie', async () => {
  const image = await fetch(`${base}/res/captcha`);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  expect(image.headers.get('cache-control')).toBe('no-store');
  expect(image.headers.get('set-cookie')).toMatch(/^captcha_id=[0-9a-f]{32}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
  expect(await image.text()).toMatch(/^<svg /);
});

test('admin and editor sign in with 123456 and the captcha TEST in any case; a wrong captcha is refused', async () => {
  const admin = await login('admin', 'TEST');
  expect(admin.status).toBe(200);
  expect(admin.body!.data.data).toMatchObject({ loginId: 'admin', permission: 1 });
  const whoami = await call('GET', '/api/admin/whoami', { token: admin.body!.data.token });
  expect(whoami.body).toMatchObject({ success: true, data: { loginId: 'admin', permission: 1 } });

  const editor = await login('editor', 'tEsT');
  expect(editor.status).toBe(200);
  expect(editor.body!.data.data).toMatchObject({ loginId: 'editor', permission: 2 });

  const wrong = await login('admin', 'ABCD');
  expect(wrong.status).toBe(400);
  expect(wrong.body).toEqual({ success: false, code: 400, msg: '验证码错误', errorCode: 'BAD_REQUEST', data: null });
});

test('an editor is refused the admins’ list with 403 and the server’s message', async () => {
  const { token } = (await login('editor', 'TEST')).body!.data;
  const refused = await call('GET', '/api/admin', { token });
  expect(refused.status).toBe(403);
  expect(refused.body).toEqual({ success: false, code: 403, msg: '没有权限进行此操作', errorCode: 'FORBIDDEN', data: null });
  expect((await call('GET', '/api/admin/whoami')).status).toBe(401);
});

test('lists come in the paging envelope over the demo data; an oversized page is a 400', async () => {
  const { token } = (await login('admin', 'TEST')).body!.data;
  const page = await call<{ currentPage: number; eachPage: number; count: number; totalPage: number; data: unknown[] }>(
    'GET',
    '/api/user?current=2&pageSize=5',
    { token },
  );
  expect(page.status).toBe(200);
  expect(page.body!.data).toMatchObject({ currentPage: 2, eachPage: 5, count: 30, totalPage: 6 });
  expect(page.body!.data.data).toHaveLength(5);
  const tooBig = await call('GET', '/api/user?pageSize=500', { token });
  expect(tooBig.status).toBe(400);
  expect(tooBig.body).toEqual({
    success: false,
    code: 400,
    msg: '每页条数（pageSize）超出允许的范围',
    errorCode: 'VALIDATION_FAILED',
    data: null,
  });
});

test('a book created with a JSON body reads back as stored, its HTML cleaned; a missing field is a 400 in Chinese', async () => {
  const { token } = (await login('admin', 'TEST')).body!.data;
  const [type] = (await call<{ _id: string }[]>('GET', '/api/type', { token })).body!.data;
  const created = await call<{ _id: string }>('POST', '/api/book', {
    token,
    body: {
      bookTitle: '模拟数据之书',
      downloadLink: 'https://example.com/book',
      bookIntro: '<p>简介</p><script>x()</script>',
      requirePoints: 20,
      typeId: type._id,
    },
  });
  expect(created.status).toBe(201);
  const read = await call('GET', `/api/book/${created.body!.data._id}`, { token });
  expect(read.status).toBe(200);
  expect(read.body!.data).toEqual(created.body!.data);
  expect(read.body!.data).toMatchObject({ bookTitle: '模拟数据之书', bookIntro: '<p>简介</p>', typeId: type._id });

  const missing = await call('POST', '/api/book', { token, body: { bookTitle: '缺字段' } });
  expect(missing.status).toBe(400);
  expect(missing.body).toMatchObject({ success: false, code: 400, data: null });
  expect(missing.body!.msg).toMatch(/[\u4e00-\u9fff]/);
});

test('an upload read by Umi’s multer reaches the server whole and is served back with its headers', async () => {
  const { token } = (await login('editor', 'TEST')).body!.data;
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
  const uploaded = await call<string>('POST', '/api/upload', { token, body: form });
  expect(uploaded.status).toBe(200);
  expect(uploaded.body!.data).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);

  const image = await fetch(`${base}${uploaded.body!.data}`);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/png');
  expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

  const notImage = new FormData();
  notImage.append('file', new Blob(['plain text'], { type: 'image/png' }), 'fake.png');
  const refused = await call('POST', '/api/upload', { token, body: notImage });
  expect(refused.status).toBe(415);
  expect(refused.body).toEqual({
    success: false,
    code: 415,
    msg: '只能上传 PNG、JPEG、GIF 或 WebP 图片',
    errorCode: 'UNSUPPORTED_MEDIA_TYPE',
    data: null,
  });
});
