import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentFixtures } from '../content';
import { bearer, createTestContext, type TestContext } from '../harness';
import { CJK, expectRefusal, multipart, png } from './support';
import { buildWorld, type World } from './world';

let t: TestContext;
let world: World;
let webRoot: string;
let origin: string;

beforeAll(async () => {
  // A built front end to serve, so that the page itself is checked as well as the API.
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-headers-web-'));
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script src="/umi.0123abcd.js"></script></body></html>',
  );
  fs.writeFileSync(path.join(webRoot, 'umi.0123abcd.js'), 'console.log(1)');
  t = await createTestContext({ WEB_ROOT: webRoot });
  world = await buildWorld(t);
  // A real socket: what a browser sees, including anything Node itself would add.
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);

afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

async function uploadedUrl() {
  const { payload, contentType } = multipart([{ name: 'a.png', type: 'image/png', data: png(1, 1) }]);
  const response = await t.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...bearer(world.rootToken), 'content-type': contentType },
    payload,
  });
  return response.json().data as string;
}

const PLACES: Array<[string, () => Promise<string>, Record<string, string>?]> = [
  ['the app page', async () => '/'],
  ['a deep link into the app', async () => '/user/userList'],
  ['a script of the app', async () => '/umi.0123abcd.js'],
  ['an API answer', async () => '/api/type', {}],
  ['an API refusal', async () => '/api/admin/whoami'],
  ['an unknown API path', async () => '/api/no-such-thing'],
  ['the captcha image', async () => '/res/captcha'],
  ['an uploaded image', uploadedUrl],
  ['the API description', async () => '/api/docs/json'],
  ['the API description page', async () => '/api/docs/static/index.html'],
];

describe('headers on every kind of answer', () => {
  it.each(PLACES)('%s', async (_label, where) => {
    const url = await where();
    const response = await fetch(`${origin}${url}`, { headers: { ...bearer(world.rootToken), origin: 'https://evil.example' } });
    const headers = response.headers;

    const csp = directives(headers.get('content-security-policy'));
    const scripts = csp['script-src'] ?? csp['default-src'];
    expect(scripts).toBeDefined();
    for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) expect(scripts).not.toContain(unsafe);
    if (url.startsWith('/static/uploads/')) {
      // An uploaded file is never a page: nothing may run in it, and it is sandboxed.
      expect(csp['default-src']).toEqual(["'none'"]);
      expect(csp).toHaveProperty('sandbox');
    } else {
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      // No <base> at all: an injected one cannot send the page's relative URLs anywhere.
      expect(csp['base-uri']).toEqual(["'none'"]);
    }
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('server')).toBeNull();
    expect(headers.get('x-powered-by')).toBeNull();
    expect(headers.get('access-control-allow-origin')).toBeNull();
    await response.arrayBuffer();
  });

  it('the single CSP a page gets allows no inline script: an injected <script> would not run', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toMatch(/script-src[^;]*'(sha\d+|nonce)-/);
    await response.text();
  });
});

describe('5xx answers show nothing of the inside', () => {
  const fixtures = () => contentFixtures(t.database.db);
  const INTERNALS = [
    /refused by test trigger/i,
    /\bat \S+ \(/,
    /\.ts:\d+/,
    /node_modules/,
    /stack/i,
    /insert into|update "|delete from|select /i,
    /Error:/,
    /drizzle|postgres|pglite/i,
  ];

  it.each([
    [
      'creating a book',
      'books',
      'insert',
      () => ({
        method: 'POST',
        url: '/api/book',
        payload: { bookTitle: 'b', downloadLink: 'https://x.example', bookIntro: '<p>x</p>', requirePoints: 0, typeId: world.typeId },
      }),
    ],
    ['editing a user', 'users', 'update', () => ({ method: 'PATCH', url: `/api/user/${world.userId}`, payload: { nickname: 'n' } })],
    ['deleting a comment', 'comments', 'delete', () => ({ method: 'DELETE', url: `/api/comment/${world.commentId}` })],
    [
      'creating an issue',
      'issues',
      'insert',
      () => ({
        method: 'POST',
        url: '/api/issue',
        payload: { issueTitle: 'q', issueContent: '<p>q</p>', userId: world.userId, typeId: world.typeId },
      }),
    ],
  ] as const)(
    'a database failure while %s: 500, the envelope, a Chinese message and nothing else',
    async (_label, table, operation, request) => {
      await fixtures().failOn(table, operation);
      try {
        const { method, url, ...rest } = request();
        const response = await fetch(`${origin}${url}`, {
          method,
          headers: { ...bearer(world.rootToken), ...('payload' in rest && { 'content-type': 'application/json' }) },
          body: 'payload' in rest ? JSON.stringify(rest.payload) : undefined,
        });
        const body = await response.text();
        expect(response.status).toBe(500);
        expect(JSON.parse(body)).toEqual({ success: false, code: 500, msg: expect.stringMatching(CJK), errorCode: 'INTERNAL', data: null });
        for (const internal of INTERNALS) expect({ body, leaks: internal.test(body) }).toEqual({ body, leaks: false });
        // The request id is what ties the answer to the full story in the log.
        expect(response.headers.get('x-request-id')).toBeTruthy();
        expect(response.headers.get('content-security-policy')).toBeTruthy();
      } finally {
        await fixtures().stopFailing(table, operation);
      }
    },
  );

  it('a client error never echoes internals either', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/type',
      headers: { ...bearer(world.rootToken), 'content-type': 'application/json' },
      payload: '{"typeName": tru',
    });
    expectRefusal(response, 400);
    for (const internal of INTERNALS) expect(internal.test(response.body)).toBe(false);
  });
});
