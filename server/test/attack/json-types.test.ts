import { eq } from 'drizzle-orm';
import { admins, books, issues, types, users } from '../../src/db/schema';
import { FIELD_LABELS } from '#contract/fields';
import type { CatalogEntry } from '../../src/plugins/auth';
import { bearer, createTestContext, type TestContext } from '../harness';
import { CJK, expectRefusal, fillPath } from './support';
import { buildWorld, isWrongType, routeKey, schemaPart, validBody, worldParams, type JsonSchemaLike, type World } from './world';

let t: TestContext;
let world: World;
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t, 'jt');
}, 120_000);
afterAll(() => t.close());

// One value of each JSON type, in the disguises that were converted before: a number for a text,
// a text for a number or a flag, null for a flag.
const WRONG_VALUES: unknown[] = [95851336, 1.5, true, false, null, '5', 'true', ['arr'], { a: 1 }];

function wrongValuesFor(schema: JsonSchemaLike): unknown[] {
  return WRONG_VALUES.filter((value) => isWrongType(schema, value));
}

const bodyRoutes = () =>
  t.app.routeCatalog.filter((route: CatalogEntry) => Object.keys(schemaPart(route, 'body')?.properties ?? {}).length > 0);

describe('a JSON body is typed: a value of the wrong type is refused, never converted', () => {
  it('every body field of every registered route refuses every wrong JSON type with a 400 naming the field', async () => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const accepted: string[] = [];
    let cases = 0;
    for (const route of routes) {
      const key = routeKey(route);
      const base = validBody(key, world, `jt${cases}`);
      if (!base) throw new Error(`no valid body for ${key} in attack/world.ts`);
      const url = fillPath(route.url, worldParams(route.url, world));
      for (const [field, schema] of Object.entries(schemaPart(route, 'body')!.properties!)) {
        for (const wrong of wrongValuesFor(schema)) {
          cases++;
          const response = await t.inject({
            method: route.method as 'POST',
            url,
            headers: bearer(world.rootToken),
            payload: { ...base, [field]: wrong },
          });
          const body = response.json();
          const named = typeof body.msg === 'string' && body.msg.includes(field) && CJK.test(body.msg);
          if (response.statusCode !== 400 || !named || body.success !== false) {
            accepted.push(`${key} ${field}=${JSON.stringify(wrong)} → ${response.statusCode} ${body.msg}`);
          }
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(cases).toBeGreaterThan(100);
  });

  it('every field a route reads (body, query, path) has a Chinese label, so its refusals name it as the screens do', () => {
    const unlabelled = new Set<string>();
    for (const route of t.app.routeCatalog as CatalogEntry[]) {
      for (const part of ['body', 'querystring', 'params'] as const) {
        for (const field of Object.keys(schemaPart(route, part)?.properties ?? {})) {
          if (!FIELD_LABELS[field] || FIELD_LABELS[field] === field) unlabelled.add(`${field} (${routeKey(route)} ${part})`);
        }
      }
    }
    expect([...unlabelled].sort()).toEqual([]);
  });

  it('a body that is not an object is refused as such', async () => {
    const route = (t.app.routeCatalog as CatalogEntry[]).find((r) => r.method === 'POST' && r.url === '/api/type')!;
    for (const payload of ['[1]', '"text"', 'null', '42']) {
      const response = await t.inject({
        method: 'POST',
        url: route.url,
        headers: { ...bearer(world.rootToken), 'content-type': 'application/json' },
        payload,
      });
      expectRefusal(response, 400, '请求内容应为 JSON 对象');
    }
  });

  it('the values the probe found converted are refused and change nothing', async () => {
    const auth = bearer(world.rootToken);
    const send = (method: 'POST' | 'PATCH', url: string, payload: object) => t.inject({ method, url, headers: auth, payload });

    for (const typeName of [95851336, ['arr'], true]) {
      expectRefusal(await send('POST', '/api/type', { typeName }), 400);
    }
    expect(await t.database.db.select().from(types).where(eq(types.typeName, '95851336'))).toEqual([]);

    const book = {
      bookTitle: 'jt-book',
      downloadLink: 'https://example.com/b',
      bookIntro: '<p>x</p>',
      requirePoints: '5',
      typeId: world.typeId,
    };
    const refusedBook = await send('POST', '/api/book', book);
    expectRefusal(refusedBook, 400);
    expect(refusedBook.json().msg).toContain('requirePoints');
    expect(await t.database.db.select().from(books).where(eq(books.bookTitle, 'jt-book'))).toEqual([]);

    for (const issueStatus of [1, 'true']) {
      expectRefusal(await send('PATCH', `/api/issue/${world.issueId}`, { issueStatus }), 400);
    }
    const [issue] = await t.database.db.select().from(issues).where(eq(issues.id, world.issueId));
    expect(issue.issueStatus).toBe(false);

    const disabled = await send('PATCH', `/api/user/${world.userId}`, { enabled: null });
    expectRefusal(disabled, 400);
    expect(disabled.json().msg).toContain('enabled');
    expectRefusal(await send('PATCH', `/api/user/${world.userId}`, { points: '99' }), 400);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, world.userId));
    expect(user.enabled).toBe(true);
    expect(user.points).not.toBe(99);

    expectRefusal(await send('POST', '/api/admin', { loginId: 'jt-admin', loginPwd: 'password-123', permission: '2' }), 400);
    expect(await t.database.db.select().from(admins).where(eq(admins.loginId, 'jt-admin'))).toEqual([]);
  });

  it('query strings are text and are still parsed by their schema', async () => {
    const response = await t.inject({
      method: 'GET',
      url: '/api/issue?current=1&pageSize=5&issueStatus=false',
      headers: bearer(world.rootToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.eachPage).toBe(5);
  });
});
