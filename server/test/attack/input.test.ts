import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { moderationWords, auditLog } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import type { CatalogEntry } from '../../src/plugins/auth';
import { contentFixtures } from '../content';
import { bearer, createTestContext, type TestContext } from '../harness';
import { expectRefusal, fillPath } from './support';
import { admittedTypes, buildWorld, routeKey, schemaPart, validBody, worldParams, type World } from './world';

let t: TestContext;
let world: World;
let catalog: CatalogEntry[];
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t);
  catalog = t.app.routeCatalog;
}, 120_000);
afterAll(() => t.close());

const as = () => bearer(world.rootToken);
let serial = 0;
const unique = () => `in${++serial}`;

function bodyRoutes() {
  return catalog.filter((route) => schemaPart(route, 'body'));
}

async function send(route: CatalogEntry, payload: unknown, headers: Record<string, string> = {}) {
  return t.inject({
    method: route.method as 'POST',
    url: fillPath(route.url, worldParams(route.url, world)),
    headers: { ...as(), ...headers },
    ...(typeof payload === 'string' ? { payload } : { payload: payload as object }),
  });
}

describe('input: text filters take SQL and LIKE characters literally', () => {
  // Every free-text filter of every list, found in the route schemas: a new one without a way
  // to seed its column here fails the first test.
  const SEED: Record<string, (tagged: string) => Promise<unknown>> = {};
  const URLS: Record<string, string> = {};
  // An export answers CSV: the column under this header holds the filtered field.
  const CSV_HEADERS: Record<string, string> = {};
  const fixtures = () => contentFixtures(t.database.db);
  const register = (key: string, filter: string, url: string, seed: (value: string) => Promise<unknown>) => {
    SEED[`${key} ${filter}`] = seed;
    URLS[`${key} ${filter}`] = url;
  };
  register('GET /api/user', 'loginId', '/api/user', (v) => fixtures().user({ loginId: v }));
  register('GET /api/user', 'nickname', '/api/user', (v) => fixtures().user({ nickname: v }));
  register('GET /api/book', 'bookTitle', '/api/book', (v) => fixtures().book(world.typeId, { bookTitle: v }));
  register('GET /api/interview', 'interviewTitle', '/api/interview', (v) => fixtures().interview(world.typeId, { interviewTitle: v }));
  register('GET /api/issue', 'issueTitle', '/api/issue', (v) => fixtures().issue(world.userId, world.typeId, { issueTitle: v }));
  register('GET /api/comment/:commentType', 'commentContent', '/api/comment/1', (v) =>
    fixtures().comment({ userId: world.userId, typeId: world.typeId, issueId: world.issueId, commentContent: v }),
  );
  register('GET /api/moderation/words', 'word', '/api/moderation/words', (v) =>
    t.database.db
      .insert(moderationWords)
      .values({ id: newId(), word: v, folded: `${v}-${newId()}`, action: 'flag', createdBy: world.rootId, createdAt: Date.now() }),
  );
  // The audit log's 记录 filter searches entries' titles (a row's `title`).
  const ROW_FIELDS: Record<string, string> = {};
  const auditEntry = (title: string) =>
    t.database.db.insert(auditLog).values({
      at: Date.now(),
      adminId: world.userId,
      adminLoginId: 'input-test',
      action: '修改',
      entity: 'book',
      entityId: world.issueId,
      title,
    });
  register('GET /api/audit', 'record', '/api/audit', auditEntry);
  register('GET /api/audit/export', 'record', '/api/audit/export', auditEntry);
  ROW_FIELDS['GET /api/audit record'] = 'title';
  CSV_HEADERS['GET /api/audit/export record'] = '记录';
  // The exports take the same filters; each is seeded as its list is.
  for (const [list, field, url, header] of [
    ['GET /api/user', 'loginId', '/api/user/export', '登录账号'],
    ['GET /api/user', 'nickname', '/api/user/export', '昵称'],
    ['GET /api/book', 'bookTitle', '/api/book/export', '书籍名称'],
    ['GET /api/interview', 'interviewTitle', '/api/interview/export', '题目名称'],
    ['GET /api/issue', 'issueTitle', '/api/issue/export', '问答标题'],
    ['GET /api/comment/:commentType', 'commentContent', '/api/comment/export?commentType=1', '评论内容'],
  ]) {
    const key = `${url.split('?')[0].replace(/^/, 'GET ')} ${field}`;
    SEED[key] = SEED[`${list} ${field}`];
    URLS[key] = url;
    CSV_HEADERS[key] = header;
  }

  /** The filtered field of every row answered, from a list's JSON or an export's CSV. */
  function fieldValues(filter: string, field: string, body: string): string[] {
    if (!CSV_HEADERS[filter]) {
      return (JSON.parse(body).data.data as Array<Record<string, string>>).map((row) => row[ROW_FIELDS[filter] ?? field]);
    }
    // The seeded values hold no comma, quote or line break, so a line splits on commas.
    const [header, ...lines] = body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(','));
    const column = header.indexOf(CSV_HEADERS[filter]);
    return lines.map((cells) => cells[column]);
  }

  function textFilters(): string[] {
    return catalog
      .filter((route) => route.method === 'GET')
      .flatMap((route) =>
        Object.entries(schemaPart(route, 'querystring')?.properties ?? {})
          .filter(([, prop]) => prop.type === 'string' && !prop.pattern && !prop.anyOf)
          .map(([name]) => `${routeKey(route)} ${name}`),
      );
  }

  // What is stored, and what a needle must find: exactly the values that contain it as written.
  const VALUES = [
    '50%off',
    '50xoff',
    'a_b',
    'axb',
    "O'Brien",
    'OBrien',
    'back\\slash',
    'backslash',
    'semi;colon--',
    'x OR 1=1',
    '[ab]',
    'a*b',
  ];
  const NEEDLES = [
    '%',
    '_',
    '%_',
    '50%',
    'a_b',
    "'",
    "' OR '1'='1",
    "'; drop table users; --",
    '\\',
    '\\%',
    '--',
    ';',
    '[ab]',
    '*',
    '" or ""="',
  ];

  it('every text filter of every list is covered', () => {
    expect(textFilters().sort()).toEqual(Object.keys(SEED).sort());
  });

  it.each(Object.keys(SEED))('%s', async (filter) => {
    const field = filter.split(' ').pop()!;
    const tag = `lit${Object.keys(SEED).indexOf(filter)}`;
    for (const value of VALUES) await SEED[filter](`${tag}${value}`);
    for (const needle of NEEDLES) {
      const response = await t.inject({
        method: 'GET',
        url: `${URLS[filter]}${URLS[filter].includes('?') ? '&' : '?'}pageSize=100&${field}=${encodeURIComponent(needle)}`,
        headers: as(),
      });
      expect(response.statusCode).toBe(200);
      const found = fieldValues(filter, field, response.body)
        .filter((value) => value.startsWith(tag))
        .map((value) => value.slice(tag.length))
        .sort();
      const expected = VALUES.filter((value) => value.toLowerCase().includes(needle.toLowerCase())).sort();
      expect({ needle, found }).toEqual({ needle, found: expected });
    }
    // The statements that looked like SQL were only ever text.
    const [{ n }] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users`);
    expect(n).toBeGreaterThan(0);
  });
});

describe('input: prototype keys', () => {
  const SAMPLES = [
    '{"typeName":"proto-1","__proto__":{"polluted":"yes"}}',
    '{"typeName":"proto-2","constructor":{"prototype":{"polluted":"yes"}}}',
    '{"typeName":"proto-3","nested":{"__proto__":{"polluted":"yes"}}}',
    '{"__proto__":{"typeName":"proto-4"}}',
  ];

  it.each(SAMPLES)('%s: refused with 400, nothing polluted, nothing stored', async (payload) => {
    const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
    expectRefusal(await send(route, payload, { 'content-type': 'application/json' }), 400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('typeName');
    const types = await t.inject({ method: 'GET', url: '/api/type', headers: as() });
    expect(types.json().data.map((type: { typeName: string }) => type.typeName)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^proto-/)]),
    );
  });

  it.each(['__proto__[polluted]=yes', '__proto__=yes', 'constructor[prototype][polluted]=yes', 'constructor=x&hasOwnProperty=x'])(
    'a query string of %s does no harm',
    async (query) => {
      const response = await t.inject({ method: 'GET', url: `/api/user?${query}`, headers: as() });
      expect(response.statusCode).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});

describe('input: shapes no form sends', () => {
  it('deep nesting in a field, or as the whole body, is a 400', async () => {
    const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
    const deep = `{"typeName":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    expectRefusal(await send(route, deep, { 'content-type': 'application/json' }), 400);
    const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    expectRefusal(await send(route, deepObject, { 'content-type': 'application/json' }), 400);
  });

  it.each(['[]', '"text"', '42', 'null', 'true', '{', '{"typeName":"x",}', "{'typeName':'x'}"])(
    'a body of %s is a 400',
    async (payload) => {
      const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
      expectRefusal(await send(route, payload, { 'content-type': 'application/json' }), 400);
    },
  );

  it('a body in another format is a 415', async () => {
    const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
    expectRefusal(await send(route, 'typeName=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    expectRefusal(await send(route, '<typeName>x</typeName>', { 'content-type': 'application/xml' }), 415);
  });

  it('NUL characters in a body, a filter or a path are a 400, not a database error', async () => {
    const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
    expectRefusal(await send(route, { typeName: 'a\u0000b' }), 400);
    expectRefusal(await t.inject({ method: 'GET', url: '/api/user?nickname=%00', headers: as() }), 400);
    expectRefusal(await t.inject({ method: 'GET', url: '/api/user/userIsExist/a%00b', headers: as() }), 400);
    expectRefusal(
      await t.inject({ method: 'POST', url: '/api/admin/login', payload: { loginId: 'x\u0000', loginPwd: 'y', captcha: 'abcd' } }),
      400,
    );
  });
});

describe('input: every field of every body, from the route schemas', () => {
  // The routes are only known once the app is built, after jest has collected its tests: each
  // test below runs every case and reports all that went wrong at once.

  it('every POST and PATCH has a valid body to start from', () => {
    const missing = bodyRoutes()
      .filter((route) => !validBody(routeKey(route), world, 'x'))
      .map(routeKey);
    expect(missing).toEqual([]);
  });

  it('a value of the wrong type is a 400 that names the field', async () => {
    const failures: unknown[] = [];
    let checked = 0;
    for (const route of bodyRoutes()) {
      for (const [field, prop] of Object.entries(schemaPart(route, 'body')!.properties ?? {})) {
        const wrong: unknown[] = [{ nested: 'object' }, [{ in: 'array' }]];
        // A union that admits a string (a secret or null) takes these strings as they are.
        if (prop.type === 'integer' || prop.type === 'number' || (prop.anyOf && !admittedTypes(prop).has('string')))
          wrong.push('not-a-number', 1.5, 'Infinity', '-Infinity', '1e400');
        if (prop.type === 'boolean') wrong.push('maybe', 2);
        for (const value of wrong) {
          checked++;
          const response = await send(route, { ...validBody(routeKey(route), world, unique()), [field]: value });
          const body = response.json();
          if (response.statusCode !== 400 || !body.msg.includes(field) || body.success !== false || body.data !== null) {
            failures.push({ route: routeKey(route), field, value, status: response.statusCode, body });
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('a string one character over its limit is a 400 that names the field', async () => {
    const failures: unknown[] = [];
    let checked = 0;
    for (const route of bodyRoutes()) {
      for (const [field, prop] of Object.entries(schemaPart(route, 'body')!.properties ?? {})) {
        if (prop.type !== 'string' || prop.maxLength === undefined) continue;
        checked++;
        const response = await send(route, { ...validBody(routeKey(route), world, unique()), [field]: 'x'.repeat(prop.maxLength + 1) });
        const body = response.json();
        if (response.statusCode !== 400 || !body.msg.includes(field) || body.data !== null) {
          failures.push({ route: routeKey(route), field, limit: prop.maxLength, status: response.statusCode, body });
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('a text filter longer than 100 characters is a 400', async () => {
    expectRefusal(await t.inject({ method: 'GET', url: `/api/book?bookTitle=${'x'.repeat(101)}`, headers: as() }), 400);
  });

  it('a path parameter longer than its limit is refused: a 400 naming it, a 404 for an id that cannot be one', async () => {
    expectRefusal(await t.inject({ method: 'GET', url: `/api/admin/adminIsExist/${'x'.repeat(65)}`, headers: as() }), 400);
    // No record has such an id: the address names nothing (api.md, conventions).
    expectRefusal(await t.inject({ method: 'GET', url: `/api/user/${'f'.repeat(25)}`, headers: as() }), 404, '记录不存在');
  });

  it('a path the router itself refuses (over-long parameter, broken percent-encoding) still gets the envelope', async () => {
    for (const url of [`/api/book/${'x'.repeat(101)}`, '/api/book/%E0%A4%A', '/api/user/%', '/api/admin/adminIsExist/%zz']) {
      const response = await t.inject({ method: 'GET', url, headers: as() });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expectRefusal(response, 400);
    }
  });
});

describe('input: oversized bodies', () => {
  const big = (bytes: number) => JSON.stringify({ typeName: 'x', filler: 'y'.repeat(bytes) });

  it('a JSON body over 1 MB is a 413 with the envelope, signed in or not', async () => {
    const route = catalog.find((r) => routeKey(r) === 'POST /api/type')!;
    expectRefusal(await send(route, big(1024 * 1024 + 10), { 'content-type': 'application/json' }), 413, '请求内容过大');
    const login = await t.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: big(3 * 1024 * 1024),
    });
    expectRefusal(login, 413, '请求内容过大');
  });

  it('a body larger than its Content-Length says is refused', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/type',
      headers: { ...as(), 'content-type': 'application/json', 'content-length': '5' },
      payload: '{"typeName":"longer-than-five"}',
    });
    expect([400, 413]).toContain(response.statusCode);
    expectRefusal(response, response.statusCode);
  });
});

describe('input: paging parameters out of range', () => {
  function pagedRoutes() {
    return catalog.filter((route) => schemaPart(route, 'querystring')?.properties?.pageSize);
  }

  const OUT_OF_RANGE: Array<[string, string]> = [
    ['pageSize', '0'],
    ['pageSize', '-1'],
    ['pageSize', '101'],
    ['pageSize', '1.5'],
    ['pageSize', 'abc'],
    ['pageSize', '1e9'],
    ['pageSize', '99999999999999999999'],
    ['current', '0'],
    ['current', '-5'],
    ['current', '2.5'],
    ['current', 'first'],
    ['current', '1000001'],
    ['current', 'NaN'],
    ['current', 'Infinity'],
  ];

  it('there are paged lists to check', () => {
    expect(pagedRoutes().length).toBeGreaterThanOrEqual(7);
  });

  it.each(OUT_OF_RANGE)('%s=%s is a 400 naming it, on every paged list', async (name, value) => {
    for (const route of pagedRoutes()) {
      const url = `${fillPath(route.url, worldParams(route.url, world))}?${name}=${value}`;
      const response = await t.inject({ method: 'GET', url, headers: as() });
      expectRefusal(response, 400);
      expect({ url, msg: response.json().msg }).toEqual({ url, msg: expect.stringContaining(name) });
    }
  });

  it('the edges of the range are accepted: pageSize 1 and 100, a page far past the end', async () => {
    for (const route of pagedRoutes()) {
      const base = fillPath(route.url, worldParams(route.url, world));
      for (const query of ['pageSize=1', 'pageSize=100', 'current=1000000']) {
        const response = await t.inject({ method: 'GET', url: `${base}?${query}`, headers: as() });
        expect({ url: `${base}?${query}`, status: response.statusCode }).toEqual({ url: `${base}?${query}`, status: 200 });
      }
    }
  });
});
