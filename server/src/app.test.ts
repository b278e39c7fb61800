import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { bearer, createTestContext, type TestContext } from '../test/harness';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('configuration', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ ADMIN_PASSWORD: '123' }, 'ADMIN_PASSWORD'],
    [{ CAPTCHA_TEST_ANSWER: 'abcd', NODE_ENV: 'production' }, 'CAPTCHA_TEST_ANSWER'],
    [{ CAPTCHA_TEST_ANSWER: 'abcd', NODE_ENV: 'Production' }, 'CAPTCHA_TEST_ANSWER'],
    [{ CAPTCHA_TEST_ANSWER: 'abcd', NODE_ENV: 'PRODUCTION' }, 'CAPTCHA_TEST_ANSWER'],
    [{ CAPTCHA_TEST_ANSWER: 'abcd', NODE_ENV: ' production\t' }, 'CAPTCHA_TEST_ANSWER'],
  ])('refuses %j, naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 7001, host: '127.0.0.1', databaseUrl: null, adminLoginId: 'admin', trustProxy: false });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseTimeouts).toEqual({ acquireMs: 2000, lockMs: 2000, statementMs: 2000 });
  });

  it('reads the database time-outs, and refuses what is not a sane number of milliseconds', () => {
    const env = { DB_ACQUIRE_TIMEOUT_MS: '1500', DB_LOCK_TIMEOUT_MS: '800', DB_STATEMENT_TIMEOUT_MS: '30000' };
    expect(loadConfig(env).databaseTimeouts).toEqual({ acquireMs: 1500, lockMs: 800, statementMs: 30000 });
    for (const name of ['DB_ACQUIRE_TIMEOUT_MS', 'DB_LOCK_TIMEOUT_MS', 'DB_STATEMENT_TIMEOUT_MS']) {
      for (const value of ['0', '99', '-5', '2s', '1e4', '600001']) {
        expect(() => loadConfig({ [name]: value })).toThrow(name);
      }
    }
  });
});

describe('HTTP behaviour', () => {
  it('sends security headers: a CSP without inline scripts, no framing, nosniff, no server version', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/admin/whoami' });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.server).toBeUndefined();
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('answers an unknown API path with the 404 envelope', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, code: 404, msg: '接口不存在', errorCode: 'NOT_FOUND', data: null });
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"loginId":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 400, data: null });
  });

  it('answers an oversized body with 413', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ loginId: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().success).toBe(false);
  });

  it('reports health at /healthz', async () => {
    const response = await t.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('publishes the OpenAPI document with every API route', async () => {
    // The document names request fields such as loginPwd, so it skips the harness's leak check.
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of ['/api/admin/login', '/api/admin/whoami', '/api/admin/{id}', '/api/type/{id}', '/api/upload/']) {
      expect(Object.keys(doc.paths)).toContain(route);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it("documents each route's security and tag from its access rule and path", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown; tags?: string[] }>>).flatMap(
      ([url, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          route: `${method.toUpperCase()} ${url.replace(/\/$/, '')}`,
          ...operation,
        })),
    );
    for (const { method, url, access } of t.app.routeCatalog) {
      // Both spellings of a prefix's root route (/api/admin and /api/admin/) are one operation.
      const documented = operations.find((o) => o.route === `${method} ${url.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '')}`);
      expect([`${method} ${url}`, documented !== undefined]).toEqual([`${method} ${url}`, true]);
      expect([`${method} ${url}`, Boolean(documented!.security)]).toEqual([`${method} ${url}`, access !== 'public']);
      expect(documented!.tags?.length).toBe(1);
    }
    expect(operations.find((o) => o.route === 'GET /api/book')?.tags).toEqual(['book']);
    expect(operations.find((o) => o.route === 'POST /api/admin/login')?.tags).toEqual(['auth']);
  });

  it('refuses to start with a route that declares no access rule', async () => {
    const database = await openDatabase({ kind: 'embedded', dataDir: null });
    let app: FastifyInstance | null = null;
    try {
      app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database });
      expect(() => app!.get('/api/forgotten', async () => 'open')).toThrow(/declares no access rule/);
    } finally {
      await app?.close();
      await database.close();
    }
  });
});

describe('serving the built front end', () => {
  let dir: string;
  let web: TestContext;
  // What `max build` writes (hash: true) and config/bundle.ts compresses.
  const hashed = [
    'umi.0123abcd.js',
    'umi.0123abcd.css',
    'preload_helper.89abcdef.js',
    'p__User__UserList.a1b2c3d4.async.js',
    '5193.0f0f0f0f.async.js',
    't__plugin-layout__Layout.fedcba98.chunk.css',
    'static/logo.12345678.png',
  ];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-web-'));
    fs.mkdirSync(path.join(dir, 'static'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    for (const name of [...hashed, 'logo.svg', 'umi.js']) fs.writeFileSync(path.join(dir, name), `/* ${name} */`);
    fs.writeFileSync(path.join(dir, 'umi.0123abcd.js.br'), zlib.brotliCompressSync('/* umi.0123abcd.js */'));
    web = await createTestContext({ WEB_ROOT: dir });
  });
  afterAll(async () => {
    await web.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers index.html for any page route (history fallback), never cached', async () => {
    for (const url of ['/', '/login', '/user/userList', '/issue/0123456789abcdef01234567']) {
      const response = await web.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it.each(hashed)('lets a browser keep %s for a year without asking again', async (name) => {
    const response = await web.inject({ method: 'GET', url: `/${name}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`/* ${name} */`);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the brotli copy of a hashed script to a browser that takes it, kept just as long', async () => {
    const response = await web.inject({ method: 'GET', url: '/umi.0123abcd.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe('/* umi.0123abcd.js */');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has a browser ask again for files whose names carry no content hash', async () => {
    for (const url of ['/logo.svg', '/umi.js']) {
      const response = await web.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('marks every API answer as not to be stored, refusals and unknown paths included', async () => {
    const token = await web.rootToken();
    const answers = [
      await web.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) }),
      await web.inject({ method: 'GET', url: '/api/user?current=1&pageSize=10', headers: bearer(token) }),
      await web.inject({ method: 'GET', url: '/api/admin/whoami' }),
      await web.inject({ method: 'GET', url: '/api/unknown' }),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 401, 404]);
    for (const response of answers) expect(response.headers['cache-control']).toBe('no-store');
    expect(answers[3].json().msg).toBe('接口不存在');
  });
});
