/**
 * mock/ must answer what the server answers (docs/api.md "Where the exact shapes live"): every
 * mock handler is called through realistic calls, success and failure, and each answer is
 * checked against the response schema the server registered for that route and status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import type { CatalogEntry } from '../src/plugins/auth';

type Handler = (req: FakeRequest, res: FakeResponse) => unknown;

interface FakeRequest {
  method: string;
  url: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
  files?: Array<{ fieldname: string; buffer: Buffer; size: number; originalname: string; mimetype: string }>;
  get(name: string): string | undefined;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

interface FakeResponse {
  statusCode: number;
  status(code: number): FakeResponse;
  json(body: unknown): FakeResponse;
  send(body: unknown): FakeResponse;
  end(body?: unknown): FakeResponse;
  setHeader(name: string, value: string): FakeResponse;
  set(name: string, value: string): FakeResponse;
  header(name: string, value: string): FakeResponse;
  type(value: string): FakeResponse;
}

const MOCK_DIR = path.resolve(__dirname, '../../mock');

function loadMocks(): Array<{ key: string; method: string; pattern: string; handler: Handler }> {
  const files = fs.readdirSync(MOCK_DIR).filter((f) => /\.(ts|js)$/.test(f));
  return files.flatMap((file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const handlers = require(path.join(MOCK_DIR, file)).default as Record<string, Handler>;
    return Object.entries(handlers).map(([key, handler]) => {
      const [method, pattern] = key.split(/\s+/);
      return { key, method, pattern, handler };
    });
  });
}

function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(
    `^${pattern.replace(/\/$/, '').replace(/:(\w+)/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    })}/?$`,
  );
  const match = regex.exec(pathname);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}

const normalise = (url: string) => url.replace(/\/$/, '') || '/';

let app: FastifyInstance;
let database: Database;
let mocks: ReturnType<typeof loadMocks>;
const exercised = new Set<string>();
const checkedStatuses: string[] = [];

beforeAll(async () => {
  database = await openDatabase({ kind: 'embedded', dataDir: null });
  app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database });
  await app.ready();
  mocks = loadMocks();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

function serverRoute(method: string, pattern: string): CatalogEntry | undefined {
  return app.routeCatalog.find((r) => r.method === method && normalise(r.url) === normalise(pattern));
}

function responseSchema(route: CatalogEntry, status: number): TSchema | undefined {
  const response = (route.schema?.response ?? {}) as Record<string, TSchema>;
  return response[String(status)] ?? response[`${String(status)[0]}xx`];
}

/** Calls the mock handler for this request as umi's mock middleware would. */
async function call(
  method: string,
  url: string,
  options: { body?: unknown; token?: string; files?: FakeRequest['files'] } = {},
): Promise<Answer> {
  const [pathname, search = ''] = url.split('?');
  const found = mocks
    .map((mock) => ({ mock, params: mock.method === method ? matchPath(mock.pattern, pathname) : null }))
    .find((candidate) => candidate.params !== null);
  if (!found) throw new Error(`no mock handles ${method} ${url}`);
  exercised.add(found.mock.key);

  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const req: FakeRequest = {
    method,
    url,
    path: pathname,
    params: found.params!,
    query: Object.fromEntries(new URLSearchParams(search)),
    body: options.body ?? {},
    headers,
    files: options.files,
    get: (name) => headers[name.toLowerCase()],
  };
  const answer: Answer = { status: 200, body: undefined, headers: {} };
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const res: FakeResponse = {
    statusCode: 200,
    status(code) {
      answer.status = code;
      res.statusCode = code;
      return res;
    },
    json(body) {
      answer.body = JSON.parse(JSON.stringify(body));
      finished();
      return res;
    },
    send(body) {
      answer.body = body;
      finished();
      return res;
    },
    end(body) {
      answer.body = body;
      finished();
      return res;
    },
    setHeader(name, value) {
      answer.headers[name.toLowerCase()] = value;
      return res;
    },
    set: (name, value) => res.setHeader(name, value),
    header: (name, value) => res.setHeader(name, value),
    type: (value) => res.setHeader('content-type', value),
  };
  await found.mock.handler(req, res);
  await done;

  const route = serverRoute(method, found.mock.pattern);
  if (!route) {
    // Uploaded files are served outside the API's catalog, with no JSON schema to check against;
    // the server must still answer the same path (whatever its parameter is called).
    const servedFile = found.mock.pattern.startsWith('/static/') && app.hasRoute({ method: method as HTTPMethods, url: found.mock.pattern });
    if (!servedFile) throw new Error(`the server has no route for mock ${found.mock.key}`);
    return answer;
  }
  const schema = responseSchema(route, answer.status);
  if (schema) {
    const errors = [...Value.Errors(schema, answer.body)].map((e) => `${e.path} ${e.message}`);
    if (errors.length) {
      throw new Error(`mock ${found.mock.key} answered ${answer.status} outside the server's schema: ${errors.join('; ')}\n${JSON.stringify(answer.body)}`);
    }
    checkedStatuses.push(`${found.mock.key} ${answer.status}`);
  }
  return answer;
}

type Envelope<T = unknown> = { success: boolean; code: number; msg: string; data: T };
const data = <T>(answer: Answer) => (answer.body as Envelope<T>).data;

interface Page<T> {
  currentPage: number;
  eachPage: number;
  count: number;
  totalPage: number;
  data: T[];
}
interface User {
  _id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  mail: string;
  qq: string;
  enabled: boolean;
  points: number;
  registerDate: number;
}
interface Book {
  _id: string;
  bookTitle: string;
  bookPic: string;
  bookIntro: string;
  commentNumber: number;
  onShelfDate: number;
  typeId: string;
}
interface Interview {
  _id: string;
  interviewTitle: string;
  interviewContent: string;
  onShelfDate: number;
  typeId: string;
}
interface Issue {
  _id: string;
  issueTitle: string;
  issueStatus: boolean;
  issueDate: number;
  commentNumber: number;
  userId: string;
  typeId: string;
  user: { _id: string; nickname: string; avatar: string };
}
interface CommentRow {
  _id: string;
  userId: string;
  issueId: string | null;
  bookId: string | null;
  typeId: string;
  commentContent: string;
  commentDate: number;
  commentType: 1 | 2;
  user: { _id: string; nickname: string; avatar: string };
  target: { _id: string; title: string };
}
interface Stats {
  counts: Record<'admins' | 'users' | 'books' | 'interviews' | 'issuesWaiting' | 'issuesApproved' | 'comments' | 'types', number>;
  daily: Array<{ date: string; users: number; issues: number; comments: number }>;
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b40000000049454e44ae426082',
  'hex',
);

describe('mock/ answers what the server answers', () => {
  let token: string;
  let captcha: string;

  it('captcha: an SVG that is never cached', async () => {
    const answer = await call('GET', '/res/captcha');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers['cache-control']).toBe('no-store');
    const svg = String(answer.body);
    expect(svg).toMatch(/^<svg/);
    // The mock's captcha text is printed in its SVG.
    captcha = [...svg.matchAll(/>([A-Za-z0-9])<\/text>/g)].map((m) => m[1]).join('');
    expect(captcha).toHaveLength(4);
  });

  it('login: 400, 401, 403, 200 with the token beside the admin', async () => {
    expect((await call('POST', '/api/admin/login', { body: { loginId: 'admin', loginPwd: '123456', captcha: 'zzzz' } })).status).toBe(400);
    expect((await call('POST', '/api/admin/login', { body: { loginId: 'admin', loginPwd: 'wrong', captcha } })).status).toBe(401);
    expect((await call('POST', '/api/admin/login', { body: { loginId: 'reviewer', loginPwd: '123456', captcha } })).status).toBe(403);
    const ok = await call('POST', '/api/admin/login', { body: { loginId: 'admin', loginPwd: '123456', captcha, remember: true } });
    expect(ok.status).toBe(200);
    token = data<{ token: string }>(ok).token;
  });

  it('whoami: 200 signed in, 401 without a token', async () => {
    expect((await call('GET', '/api/admin/whoami', { token })).status).toBe(200);
    expect((await call('GET', '/api/admin/whoami')).status).toBe(401);
  });

  it('admins: list, create, duplicate, read, edit, exists, delete', async () => {
    expect((await call('GET', '/api/admin', { token })).status).toBe(200);
    const created = await call('POST', '/api/admin', { token, body: { loginId: 'contract-admin', permission: 2 } });
    expect(created.status).toBe(201);
    const id = data<{ _id: string }>(created)._id;
    expect((await call('POST', '/api/admin', { token, body: { loginId: 'contract-admin', permission: 2 } })).status).toBe(409);
    expect((await call('GET', `/api/admin/${id}`, { token })).status).toBe(200);
    expect((await call('GET', '/api/admin/0123456789abcdef01234567', { token })).status).toBe(404);
    expect((await call('PATCH', `/api/admin/${id}`, { token, body: { nickname: '契约测试' } })).status).toBe(200);
    expect(data(await call('GET', '/api/admin/adminIsExist/contract-admin', { token }))).toBe(true);
    expect((await call('DELETE', `/api/admin/${id}`, { token })).status).toBe(200);
    expect((await call('GET', '/api/admin')).status).toBe(401);
  });

  it('types: list, create, duplicate, rename, delete, refuse one in use', async () => {
    const list = await call('GET', '/api/type', { token });
    expect(list.status).toBe(200);
    const created = await call('POST', '/api/type', { token, body: { typeName: '契约' } });
    expect(created.status).toBe(201);
    const id = data<{ _id: string }>(created)._id;
    expect((await call('POST', '/api/type', { token, body: { typeName: '契约' } })).status).toBe(409);
    expect((await call('PATCH', `/api/type/${id}`, { token, body: { typeName: '契约2' } })).status).toBe(200);
    expect((await call('DELETE', `/api/type/${id}`, { token })).status).toBe(200);
    const used = data<Array<{ _id: string; typeName: string }>>(list).find((type) => type.typeName === 'JavaScript');
    expect((await call('DELETE', `/api/type/${used!._id}`, { token })).status).toBe(409);
  });

  it('upload: an image is stored and served; anything else is refused', async () => {
    const file = (buffer: Buffer) => [{ fieldname: 'file', buffer, size: buffer.length, originalname: 'x.png', mimetype: 'image/png' }];
    const stored = await call('POST', '/api/upload', { token, files: file(PNG) });
    expect(stored.status).toBe(200);
    const url = data<string>(stored);
    expect(url).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    const served = await call('GET', url);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await call('POST', '/api/upload', { token, files: file(Buffer.from('<svg></svg>')) })).status).toBe(415);
  });

  // ----- content: users, books, interview questions, issues, comments, stats -----

  const ZERO_ID = '0123456789abcdef01234567';
  const msg = (answer: Answer) => (answer.body as Envelope).msg;
  const list = async <T,>(url: string, as = token) => {
    const answer = await call('GET', url, { token: as });
    expect(answer.status).toBe(200);
    return data<Page<T>>(answer);
  };
  /** Every row of a list, page after page, so that checks never depend on the page size. */
  const everyRow = async <T,>(url: string) => {
    const rows: T[] = [];
    for (let current = 1; ; current++) {
      const page = await list<T>(`${url}${url.includes('?') ? '&' : '?'}pageSize=100&current=${current}`);
      rows.push(...page.data);
      if (current >= page.totalPage) return rows;
    }
  };
  const isNewestFirst = <T,>(rows: T[], dateOf: (row: T) => number) =>
    rows.every((row, i) => i === 0 || dateOf(rows[i - 1]) >= dateOf(row));
  let typeIds: Record<string, string>;

  it('content lists need a live token and refuse a page size over 100', async () => {
    typeIds = Object.fromEntries(
      data<Array<{ _id: string; typeName: string }>>(await call('GET', '/api/type', { token })).map((t) => [t.typeName, t._id]),
    );
    for (const url of ['/api/user', '/api/book', '/api/interview', '/api/issue', '/api/comment/1', '/api/stats']) {
      const refused = await call('GET', url);
      expect([url, refused.status, msg(refused)]).toEqual([url, 401, '登录过期，请重新登录']);
    }
    for (const url of ['/api/user', '/api/book', '/api/interview', '/api/issue', '/api/comment/2']) {
      const tooMany = await call('GET', `${url}?pageSize=101`, { token });
      expect([url, tooMany.status]).toEqual([url, 400]);
      expect(msg(tooMany)).toContain('pageSize');
      expect((await call('GET', `${url}?current=0`, { token })).status).toBe(400);
      expect((await call('GET', `${url}?pageSize=abc`, { token })).status).toBe(400);
    }
  });

  it('users: paged newest first, filters, exists, read, impact', async () => {
    const first = await list<User>('/api/user');
    expect(first).toMatchObject({ currentPage: 1, eachPage: 10, totalPage: Math.ceil(first.count / 10) });
    expect(first.count).toBeGreaterThanOrEqual(30);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).not.toHaveProperty('password');
    const all = await everyRow<User>('/api/user');
    expect(all).toHaveLength(first.count);
    expect(isNewestFirst(all, (u) => u.registerDate)).toBe(true);
    expect((await list<User>('/api/user?current=99')).data).toEqual([]);

    // Substring, any case; exact booleans; an empty filter is no filter.
    const coder = await list<User>('/api/user?loginId=CODER_m');
    expect(coder.data.map((u) => u.loginId)).toEqual(['Coder_Ming']);
    const front = await list<User>('/api/user?nickname=前端&pageSize=100');
    expect(front.count).toBeGreaterThan(1);
    expect(front.data.every((u) => u.nickname.includes('前端'))).toBe(true);
    const disabled = await list<User>('/api/user?enabled=false&pageSize=100');
    expect(disabled.count).toBeGreaterThan(0);
    expect(disabled.data.every((u) => !u.enabled)).toBe(true);
    expect((await list<User>('/api/user?enabled=true&pageSize=100')).count).toBe(first.count - disabled.count);
    expect((await list<User>('/api/user?enabled=&loginId=&nickname=')).count).toBe(first.count);
    const maybe = await call('GET', '/api/user?enabled=maybe', { token });
    expect(maybe.status).toBe(400);
    expect(msg(maybe)).toContain('enabled');

    expect(data(await call('GET', '/api/user/userIsExist/Coder_Ming', { token }))).toBe(true);
    expect(data(await call('GET', '/api/user/userIsExist/coder_ming', { token }))).toBe(false);

    const one = all[3];
    expect(data(await call('GET', `/api/user/${one._id}`, { token }))).toEqual(one);
    const unknown = await call('GET', `/api/user/${ZERO_ID}`, { token });
    expect([unknown.status, msg(unknown)]).toEqual([404, '用户不存在']);
    expect((await call('GET', '/api/user/not-an-id', { token })).status).toBe(400);

    // The impact is what a deletion takes along: the user's issues, and the comments they
    // wrote or that sit under their issues.
    const issues = await everyRow<Issue>('/api/issue');
    const comments = [...(await everyRow<CommentRow>('/api/comment/1')), ...(await everyRow<CommentRow>('/api/comment/2'))];
    const author = issues.find((i) => i.commentNumber > 0)!.userId;
    const theirIssues = new Set(issues.filter((i) => i.userId === author).map((i) => i._id));
    expect(data(await call('GET', `/api/user/${author}/impact`, { token }))).toEqual({
      issues: theirIssues.size,
      comments: comments.filter((c) => c.userId === author || theirIssues.has(c.issueId ?? '')).length,
    });
    const noImpact = await call('GET', `/api/user/${ZERO_ID}/impact`, { token });
    expect([noImpact.status, msg(noImpact)]).toEqual([404, '用户不存在']);
  });

  let createdUser: User;

  it('users: create with or without a password, duplicate, edit', async () => {
    const generated = await call('POST', '/api/user', { token, body: { loginId: ' contract-user ' } });
    expect(generated.status).toBe(201);
    createdUser = data<User & { initialPassword?: string }>(generated);
    expect(createdUser).toMatchObject({ loginId: 'contract-user', points: 100, enabled: true, mail: '', avatar: '/default-avatar.svg' });
    expect(createdUser.nickname).toMatch(/^新用户\d+$/);
    expect(data<{ initialPassword: string }>(generated).initialPassword).toMatch(/^[A-Za-z2-9]{16}$/);
    expect((await list<User>('/api/user')).data[0]._id).toBe(createdUser._id);

    const given = await call('POST', '/api/user', {
      token,
      body: { loginId: 'contract-user-2', loginPwd: 'secret123', nickname: '契约用户', qq: '123456', unknown: 'dropped' },
    });
    expect(given.status).toBe(201);
    expect(data(given)).not.toHaveProperty('initialPassword');
    expect(data(given)).not.toHaveProperty('unknown');
    expect(data(given)).toMatchObject({ nickname: '契约用户', qq: '123456' });

    const duplicate = await call('POST', '/api/user', { token, body: { loginId: 'contract-user' } });
    expect([duplicate.status, msg(duplicate)]).toEqual([409, '该用户已存在']);
    const noLoginId = await call('POST', '/api/user', { token, body: { nickname: '无账号' } });
    expect(noLoginId.status).toBe(400);
    expect(msg(noLoginId)).toContain('loginId');
    const shortPassword = await call('POST', '/api/user', { token, body: { loginId: 'short-pwd', loginPwd: '123' } });
    expect(shortPassword.status).toBe(400);
    expect(msg(shortPassword)).toContain('密码');
    const badMail = await call('POST', '/api/user', { token, body: { loginId: 'bad-mail', mail: 'not-a-mail' } });
    expect(badMail.status).toBe(400);
    expect(msg(badMail)).toContain('mail');
    expect(data(await call('GET', '/api/user/userIsExist/short-pwd', { token }))).toBe(false);

    const edited = await call('PATCH', `/api/user/${createdUser._id}`, {
      token,
      body: { nickname: '改过的昵称', points: '300', enabled: false, avatar: '', loginPwd: '' },
    });
    expect(edited.status).toBe(200);
    expect(data(edited)).toMatchObject({ nickname: '改过的昵称', points: 300, enabled: false, avatar: '/default-avatar.svg' });
    const taken = await call('PATCH', `/api/user/${createdUser._id}`, { token, body: { loginId: 'contract-user-2' } });
    expect([taken.status, msg(taken)]).toEqual([409, '该用户已存在']);
    const emptyNickname = await call('PATCH', `/api/user/${createdUser._id}`, { token, body: { nickname: '  ' } });
    expect(emptyNickname.status).toBe(400);
    expect(msg(emptyNickname)).toContain('nickname');
    const missing = await call('PATCH', `/api/user/${ZERO_ID}`, { token, body: { nickname: '谁' } });
    expect([missing.status, msg(missing)]).toEqual([404, '用户不存在']);
  });

  it('books: paged newest first, filters, create, read, edit, refusals', async () => {
    const first = await list<Book>('/api/book');
    expect(first.count).toBeGreaterThanOrEqual(18);
    const all = await everyRow<Book>('/api/book');
    expect(isNewestFirst(all, (b) => b.onShelfDate)).toBe(true);
    expect(all.every((b) => Object.values(typeIds).includes(b.typeId) && b.bookIntro.startsWith('<'))).toBe(true);
    const js = await list<Book>(`/api/book?typeId=${typeIds.JavaScript}&pageSize=100`);
    expect(js.count).toBeGreaterThan(0);
    expect(js.data.every((b) => b.typeId === typeIds.JavaScript)).toBe(true);
    const titled = await list<Book>('/api/book?bookTitle=javascript');
    expect(titled.count).toBeGreaterThan(0);
    expect(titled.data.every((b) => b.bookTitle.toLowerCase().includes('javascript'))).toBe(true);
    expect((await call('GET', '/api/book?typeId=nope', { token })).status).toBe(400);

    const body = {
      bookTitle: '契约测试之书',
      downloadLink: 'https://example.com/book.pdf',
      bookIntro: '<p>简介</p><script>alert(1)</script>',
      requirePoints: '20',
      typeId: typeIds.React,
    };
    const created = await call('POST', '/api/book', { token, body });
    expect(created.status).toBe(201);
    const book = data<Book>(created);
    expect(book).toMatchObject({ bookTitle: '契约测试之书', bookPic: '/default-cover.svg', bookIntro: '<p>简介</p>', requirePoints: 20, scanNumber: 0, commentNumber: 0 });
    expect((await list<Book>('/api/book')).data[0]._id).toBe(book._id);
    expect(data(await call('GET', `/api/book/${book._id}`, { token }))).toEqual(book);

    const { bookTitle: _omitted, ...untitled } = body;
    const noTitle = await call('POST', '/api/book', { token, body: untitled });
    expect(noTitle.status).toBe(400);
    expect(msg(noTitle)).toContain('bookTitle');
    const badLink = await call('POST', '/api/book', { token, body: { ...body, downloadLink: 'ftp://example.com' } });
    expect(badLink.status).toBe(400);
    expect(msg(badLink)).toContain('downloadLink');
    const onlyScript = await call('POST', '/api/book', { token, body: { ...body, bookIntro: '<script>alert(1)</script>' } });
    expect(onlyScript.status).toBe(400);
    expect(msg(onlyScript)).toContain('bookIntro');
    const unknownType = await call('POST', '/api/book', { token, body: { ...body, typeId: ZERO_ID } });
    expect([unknownType.status, msg(unknownType)]).toEqual([400, '分类不存在']);

    const edited = await call('PATCH', `/api/book/${book._id}`, { token, body: { bookTitle: '改名之书', bookPic: '/static/uploads/cover.png' } });
    expect(edited.status).toBe(200);
    expect(data(edited)).toMatchObject({ bookTitle: '改名之书', bookPic: '/static/uploads/cover.png', typeId: typeIds.React });
    const missing = await call('GET', `/api/book/${ZERO_ID}`, { token });
    expect([missing.status, msg(missing)]).toEqual([404, '书籍不存在']);
    expect((await call('PATCH', `/api/book/${ZERO_ID}`, { token, body: { bookTitle: '无' } })).status).toBe(404);
    expect((await call('DELETE', `/api/book/${ZERO_ID}`, { token })).status).toBe(404);
  });

  it('interview questions: paged newest first, filters, create, read, edit, delete', async () => {
    const all = await everyRow<Interview>('/api/interview');
    expect(all.length).toBeGreaterThanOrEqual(18);
    expect(isNewestFirst(all, (i) => i.onShelfDate)).toBe(true);
    expect(all.some((i) => i.interviewContent.includes('<pre><code'))).toBe(true);
    const react = await list<Interview>(`/api/interview?typeId=${typeIds.React}&pageSize=100`);
    expect(react.count).toBeGreaterThan(0);
    expect(react.data.every((i) => i.typeId === typeIds.React)).toBe(true);
    const closure = await list<Interview>('/api/interview?interviewTitle=闭包');
    expect(closure.data.every((i) => i.interviewTitle.includes('闭包'))).toBe(true);
    expect(closure.count).toBeGreaterThan(0);

    const created = await call('POST', '/api/interview', {
      token,
      body: { interviewTitle: '契约测试题', interviewContent: '<p>答案</p><pre><code class="language-js">1 + 1</code></pre>', typeId: typeIds.JavaScript },
    });
    expect(created.status).toBe(201);
    const question = data<Interview>(created);
    expect((await list<Interview>('/api/interview')).data[0]._id).toBe(question._id);
    expect(data(await call('GET', `/api/interview/${question._id}`, { token }))).toEqual(question);
    const noContent = await call('POST', '/api/interview', { token, body: { interviewTitle: '无内容', typeId: typeIds.JavaScript } });
    expect(noContent.status).toBe(400);
    expect(msg(noContent)).toContain('interviewContent');
    const unknownType = await call('POST', '/api/interview', { token, body: { interviewTitle: '题', interviewContent: '<p>答</p>', typeId: ZERO_ID } });
    expect([unknownType.status, msg(unknownType)]).toEqual([400, '分类不存在']);

    const edited = await call('PATCH', `/api/interview/${question._id}`, { token, body: { interviewTitle: '改过的题', typeId: typeIds.React } });
    expect(data(edited)).toMatchObject({ interviewTitle: '改过的题', typeId: typeIds.React });
    const emptyTitle = await call('PATCH', `/api/interview/${question._id}`, { token, body: { interviewTitle: '' } });
    expect(emptyTitle.status).toBe(400);
    expect(msg(emptyTitle)).toContain('interviewTitle');
    expect((await call('DELETE', `/api/interview/${question._id}`, { token })).status).toBe(200);
    const gone = await call('GET', `/api/interview/${question._id}`, { token });
    expect([gone.status, msg(gone)]).toEqual([404, '面试题不存在']);
    expect((await call('PATCH', `/api/interview/${question._id}`, { token, body: { interviewTitle: '无' } })).status).toBe(404);
    expect((await call('DELETE', `/api/interview/${question._id}`, { token })).status).toBe(404);
  });

  it('issues: paged newest first with their authors, review states, create, approve, refusals', async () => {
    const all = await everyRow<Issue>('/api/issue');
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(isNewestFirst(all, (i) => i.issueDate)).toBe(true);
    expect(all.every((i) => i.user._id === i.userId && i.user.nickname && i.user.avatar)).toBe(true);
    const waiting = await list<Issue>('/api/issue?issueStatus=false&pageSize=100');
    const approved = await list<Issue>('/api/issue?issueStatus=true&pageSize=100');
    expect(waiting.count).toBeGreaterThan(0);
    expect(approved.count).toBeGreaterThan(0);
    expect(waiting.count + approved.count).toBe(all.length);
    expect(waiting.data.every((i) => !i.issueStatus)).toBe(true);
    const css = await list<Issue>(`/api/issue?typeId=${typeIds.CSS}&issueTitle=STICKY`);
    expect(css.data.map((i) => i.issueTitle)).toEqual([expect.stringContaining('sticky')]);
    expect((await call('GET', '/api/issue?issueStatus=yes', { token })).status).toBe(400);

    const created = await call('POST', '/api/issue', {
      token,
      body: { issueTitle: '契约测试问答', issueContent: '<p>怎么办？</p>', userId: createdUser._id, typeId: typeIds.Vue },
    });
    expect(created.status).toBe(201);
    const issue = data<Issue>(created);
    expect(issue).toMatchObject({ issueStatus: false, commentNumber: 0, scanNumber: 0, user: { _id: createdUser._id, nickname: '改过的昵称' } });
    expect((await list<Issue>('/api/issue')).data[0]._id).toBe(issue._id);
    expect(data(await call('GET', `/api/issue/${issue._id}`, { token }))).toEqual(issue);
    const unknownUser = await call('POST', '/api/issue', { token, body: { issueTitle: '问', issueContent: '<p>问</p>', userId: ZERO_ID, typeId: typeIds.Vue } });
    expect([unknownUser.status, msg(unknownUser)]).toEqual([400, '用户不存在']);
    const noUser = await call('POST', '/api/issue', { token, body: { issueTitle: '问', issueContent: '<p>问</p>', typeId: typeIds.Vue } });
    expect(noUser.status).toBe(400);
    expect(msg(noUser)).toContain('userId');

    const approve = await call('PATCH', `/api/issue/${issue._id}`, { token, body: { issueStatus: true } });
    expect(approve.status).toBe(200);
    expect(data(approve)).toMatchObject({ issueStatus: true, user: { _id: createdUser._id } });
    const badType = await call('PATCH', `/api/issue/${issue._id}`, { token, body: { typeId: ZERO_ID } });
    expect([badType.status, msg(badType)]).toEqual([400, '分类不存在']);
    const missing = await call('GET', `/api/issue/${ZERO_ID}`, { token });
    expect([missing.status, msg(missing)]).toEqual([404, '问答不存在']);
    expect((await call('PATCH', `/api/issue/${ZERO_ID}`, { token, body: { issueStatus: true } })).status).toBe(404);
    expect((await call('DELETE', `/api/issue/${ZERO_ID}`, { token })).status).toBe(404);
  });

  it('comments: both lists with author and target, filters, one parent\'s comments', async () => {
    const onIssues = await everyRow<CommentRow>('/api/comment/1');
    const onBooks = await everyRow<CommentRow>('/api/comment/2');
    expect(onIssues.length + onBooks.length).toBeGreaterThanOrEqual(70);
    expect(isNewestFirst(onIssues, (c) => c.commentDate)).toBe(true);
    const issues = await everyRow<Issue>('/api/issue');
    const books = await everyRow<Book>('/api/book');
    for (const c of onIssues) {
      const parent = issues.find((i) => i._id === c.issueId)!;
      expect(c).toMatchObject({ commentType: 1, bookId: null, typeId: parent.typeId, target: { _id: parent._id, title: parent.issueTitle } });
      expect(c.user._id).toBe(c.userId);
    }
    for (const c of onBooks) {
      const parent = books.find((b) => b._id === c.bookId)!;
      expect(c).toMatchObject({ commentType: 2, issueId: null, typeId: parent.typeId, target: { _id: parent._id, title: parent.bookTitle } });
    }
    // commentNumber is the true count everywhere.
    for (const issue of issues) expect(issue.commentNumber).toBe(onIssues.filter((c) => c.issueId === issue._id).length);
    for (const book of books) expect(book.commentNumber).toBe(onBooks.filter((c) => c.bookId === book._id).length);

    const filtered = await list<CommentRow>(`/api/comment/1?commentContent=FLEX&typeId=${typeIds.CSS}`);
    expect(filtered.count).toBeGreaterThan(0);
    expect(filtered.data.every((c) => c.commentContent.toLowerCase().includes('flex') && c.typeId === typeIds.CSS)).toBe(true);
    const badType = await call('GET', '/api/comment/3', { token });
    expect(badType.status).toBe(400);
    expect(msg(badType)).toContain('commentType');

    const busiest = [...issues].sort((a, b) => b.commentNumber - a.commentNumber)[0];
    const under = await list<CommentRow>(`/api/comment/issuecomment/${busiest._id}?pageSize=2`);
    expect(under).toMatchObject({ count: busiest.commentNumber, eachPage: 2, totalPage: Math.ceil(busiest.commentNumber / 2) });
    expect(under.data.every((c) => c.issueId === busiest._id)).toBe(true);
    const book = books.find((b) => b.commentNumber > 0)!;
    const underBook = await list<CommentRow>(`/api/comment/bookcomment/${book._id}`);
    expect(underBook.count).toBe(book.commentNumber);
    expect(isNewestFirst(underBook.data, (c) => c.commentDate)).toBe(true);
    const noIssue = await call('GET', `/api/comment/issuecomment/${ZERO_ID}`, { token });
    expect([noIssue.status, msg(noIssue)]).toEqual([404, '问答不存在']);
    const noBook = await call('GET', `/api/comment/bookcomment/${busiest._id}`, { token });
    expect([noBook.status, msg(noBook)]).toEqual([404, '书籍不存在']);
    expect((await call('GET', `/api/comment/bookcomment/${book._id}?pageSize=101`, { token })).status).toBe(400);
  });

  it('comments: adding raises the parent\'s commentNumber, deleting lowers it; a parent takes its comments along', async () => {
    const [issue] = (await list<Issue>('/api/issue?issueTitle=契约测试问答')).data;
    const [book] = (await list<Book>('/api/book?bookTitle=改名之书')).data;
    const added = await call('POST', '/api/comment', {
      token,
      body: { userId: createdUser._id, commentType: 1, issueId: issue._id, commentContent: '<p>契约评论</p>' },
    });
    expect(added.status).toBe(201);
    const comment = data<CommentRow>(added);
    expect(comment).toMatchObject({ commentType: 1, issueId: issue._id, bookId: null, typeId: issue.typeId, userId: createdUser._id });
    expect(data<Issue>(await call('GET', `/api/issue/${issue._id}`, { token })).commentNumber).toBe(1);
    expect((await list<CommentRow>('/api/comment/1')).data[0]).toMatchObject({ _id: comment._id, target: { title: '契约测试问答' } });

    // Moving the issue to another type moves its comments too.
    await call('PATCH', `/api/issue/${issue._id}`, { token, body: { typeId: typeIds.React } });
    expect((await list<CommentRow>(`/api/comment/issuecomment/${issue._id}`)).data[0].typeId).toBe(typeIds.React);

    const onBook = await call('POST', '/api/comment', {
      token,
      body: { userId: createdUser._id, commentType: '2', bookId: book._id, commentContent: '<p>好书</p>' },
    });
    expect(onBook.status).toBe(201);
    expect(data<Book>(await call('GET', `/api/book/${book._id}`, { token })).commentNumber).toBe(1);

    const noParent = await call('POST', '/api/comment', { token, body: { userId: createdUser._id, commentType: 2, issueId: issue._id, commentContent: '<p>哪本？</p>' } });
    expect(noParent.status).toBe(400);
    expect(msg(noParent)).toContain('bookId');
    const unknownParent = await call('POST', '/api/comment', { token, body: { userId: createdUser._id, commentType: 1, issueId: ZERO_ID, commentContent: '<p>嗯</p>' } });
    expect([unknownParent.status, msg(unknownParent)]).toEqual([400, '问答不存在']);
    const unknownUser = await call('POST', '/api/comment', { token, body: { userId: ZERO_ID, commentType: 1, issueId: issue._id, commentContent: '<p>嗯</p>' } });
    expect([unknownUser.status, msg(unknownUser)]).toEqual([400, '用户不存在']);
    const badType = await call('POST', '/api/comment', { token, body: { userId: createdUser._id, commentType: 3, issueId: issue._id, commentContent: '<p>嗯</p>' } });
    expect(badType.status).toBe(400);
    expect(msg(badType)).toContain('commentType');
    const noContent = await call('POST', '/api/comment', { token, body: { userId: createdUser._id, commentType: 1, issueId: issue._id } });
    expect(noContent.status).toBe(400);
    expect(msg(noContent)).toContain('commentContent');

    expect((await call('DELETE', `/api/comment/${comment._id}`, { token })).status).toBe(200);
    expect(data<Issue>(await call('GET', `/api/issue/${issue._id}`, { token })).commentNumber).toBe(0);
    const gone = await call('DELETE', `/api/comment/${comment._id}`, { token });
    expect([gone.status, msg(gone)]).toEqual([404, '评论不存在']);
    expect((await call('DELETE', '/api/comment/xyz', { token })).status).toBe(400);

    // Deleting an issue or a book removes the comments under it.
    await call('POST', '/api/comment', { token, body: { userId: createdUser._id, commentType: 1, issueId: issue._id, commentContent: '<p>又一条</p>' } });
    const before = (await list<CommentRow>('/api/comment/1')).count;
    expect((await call('DELETE', `/api/issue/${issue._id}`, { token })).status).toBe(200);
    expect((await list<CommentRow>('/api/comment/1')).count).toBe(before - 1);
    expect((await call('GET', `/api/issue/${issue._id}`, { token })).status).toBe(404);
    const booksBefore = (await list<CommentRow>('/api/comment/2')).count;
    expect((await call('DELETE', `/api/book/${book._id}`, { token })).status).toBe(200);
    expect((await list<CommentRow>('/api/comment/2')).count).toBe(booksBefore - 1);
    expect((await call('GET', `/api/comment/bookcomment/${book._id}`, { token })).status).toBe(404);
  });

  it('types: one in use by content cannot be deleted until the content is gone', async () => {
    const type = data<{ _id: string }>(await call('POST', '/api/type', { token, body: { typeName: '契约内容' } }));
    const question = data<Interview>(
      await call('POST', '/api/interview', { token, body: { interviewTitle: '用到新分类的题', interviewContent: '<p>答</p>', typeId: type._id } }),
    );
    const refused = await call('DELETE', `/api/type/${type._id}`, { token });
    expect(refused.status).toBe(409);
    expect(msg(refused)).toContain('面试题 1 道');
    expect((await call('DELETE', `/api/interview/${question._id}`, { token })).status).toBe(200);
    expect((await call('DELETE', `/api/type/${type._id}`, { token })).status).toBe(200);
  });

  it('users: only a super admin deletes one, with their issues and comments, and counters stay true', async () => {
    const signIn = await call('POST', '/api/admin/login', { body: { loginId: 'editor', loginPwd: '123456', captcha } });
    expect(signIn.status).toBe(200);
    const editor = data<{ token: string }>(signIn).token;
    // A normal admin may read and edit users, but not delete them.
    expect((await list<User>('/api/user', editor)).count).toBeGreaterThan(0);
    const forbidden = await call('DELETE', `/api/user/${createdUser._id}`, { token: editor });
    expect([forbidden.status, msg(forbidden)]).toEqual([403, '没有权限进行此操作']);
    expect((await call('GET', `/api/user/${createdUser._id}`, { token })).status).toBe(200);

    // A seeded user with issues that others answered, who also commented elsewhere.
    const issues = await everyRow<Issue>('/api/issue');
    const comments = [...(await everyRow<CommentRow>('/api/comment/1')), ...(await everyRow<CommentRow>('/api/comment/2'))];
    const victim = issues
      .map((i) => i.userId)
      .find((id) => issues.some((i) => i.userId === id && i.commentNumber > 0) && comments.some((c) => c.userId === id))!;
    expect(victim).toBeDefined();
    const theirIssues = new Set(issues.filter((i) => i.userId === victim).map((i) => i._id));
    const impact = data<{ issues: number; comments: number }>(await call('GET', `/api/user/${victim}/impact`, { token }));
    expect(impact.issues).toBe(theirIssues.size);
    const commentedOn = comments.filter((c) => c.userId === victim && !theirIssues.has(c.issueId ?? ''));
    const statsBefore = data<Stats>(await call('GET', '/api/stats', { token })).counts;

    expect((await call('DELETE', `/api/user/${victim}`, { token })).status).toBe(200);
    expect((await call('GET', `/api/user/${victim}`, { token })).status).toBe(404);
    for (const id of theirIssues) expect((await call('GET', `/api/issue/${id}`, { token })).status).toBe(404);
    const left = [...(await everyRow<CommentRow>('/api/comment/1')), ...(await everyRow<CommentRow>('/api/comment/2'))];
    expect(left.some((c) => c.userId === victim || theirIssues.has(c.issueId ?? ''))).toBe(false);
    expect(left).toHaveLength(comments.length - impact.comments);
    for (const c of commentedOn) {
      const url = c.issueId ? `/api/issue/${c.issueId}` : `/api/book/${c.bookId}`;
      const parent = data<{ _id: string; commentNumber: number }>(await call('GET', url, { token }));
      expect(parent.commentNumber).toBe(left.filter((l) => l.issueId === parent._id || l.bookId === parent._id).length);
    }
    const statsAfter = data<Stats>(await call('GET', '/api/stats', { token })).counts;
    expect(statsAfter.users).toBe(statsBefore.users - 1);
    expect(statsAfter.comments).toBe(statsBefore.comments - impact.comments);
    expect(statsAfter.issuesWaiting + statsAfter.issuesApproved).toBe(statsBefore.issuesWaiting + statsBefore.issuesApproved - impact.issues);

    const again = await call('DELETE', `/api/user/${victim}`, { token });
    expect([again.status, msg(again)]).toEqual([404, '用户不存在']);
    expect((await call('DELETE', `/api/user/${createdUser._id}`, { token })).status).toBe(200);
  });

  it('stats: the totals of every list and 30 consecutive days ending today', async () => {
    const { counts, daily } = data<Stats>(await call('GET', '/api/stats', { token }));
    const total = async (url: string) => (await list(url)).count;
    expect(counts).toEqual({
      admins: data<unknown[]>(await call('GET', '/api/admin', { token })).length,
      users: await total('/api/user'),
      books: await total('/api/book'),
      interviews: await total('/api/interview'),
      issuesWaiting: await total('/api/issue?issueStatus=false'),
      issuesApproved: await total('/api/issue?issueStatus=true'),
      comments: (await total('/api/comment/1')) + (await total('/api/comment/2')),
      types: data<unknown[]>(await call('GET', '/api/type', { token })).length,
    });
    expect(daily).toHaveLength(30);
    const day = (offset: number) => {
      const now = new Date();
      const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - offset);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    expect(daily.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => day(29 - i)));
    // The demo is dated so that the charts show recent activity in every series.
    for (const series of ['users', 'issues', 'comments'] as const) {
      expect(daily.reduce((sum, d) => sum + d[series], 0)).toBeGreaterThan(0);
    }
  });

  it('logout: the token stops working', async () => {
    expect((await call('POST', '/api/admin/logout', { token })).status).toBe(200);
    expect((await call('GET', '/api/admin/whoami', { token })).status).toBe(401);
  });

  it('every mock handler was exercised, and every server API route has a mock', () => {
    expect(mocks.map((m) => m.key).filter((key) => !exercised.has(key))).toEqual([]);
    const mocked = new Set(mocks.map((m) => `${m.method} ${normalise(m.pattern)}`));
    const unmocked = app.routeCatalog
      .filter((r) => !r.url.startsWith('/api/docs'))
      .map((r) => `${r.method} ${normalise(r.url)}`)
      .filter((key) => !mocked.has(key));
    expect([...new Set(unmocked)]).toEqual([]);
    expect(checkedStatuses.length).toBeGreaterThan(20);
  });
});
