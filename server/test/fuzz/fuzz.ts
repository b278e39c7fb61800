import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { ERROR_CODES } from '#contract/envelope';
import { admins, books, comments, interviews, issues, loginFailures, settings, types, users } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { hashPassword } from '../../src/lib/passwords';
import type { CatalogEntry } from '../../src/plugins/auth';
import { CJK, UNKNOWN_ID, multipart } from '../attack/support';
import { contentFixtures } from '../content';
import { buildWorld, isWrongType, routeKey, schemaPart, validBody, worldParams, type JsonSchemaLike, type World } from '../attack/world';
import { ROOT_LOGIN, ROOT_PASSWORD, type TestContext } from '../harness';

/** How many cases to run: FUZZ_RUNS if set, else 10,000 for `npm run fuzz` and `short` in `npm test`. */
export function fuzzRuns(short: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  if (Number.isInteger(runs) && runs > 0) return runs;
  return process.env.FUZZ_LONG ? 10_000 : short;
}

/** FUZZ_SEED replays a failing run that fast-check reported. */
export function fuzzSeed(): number | undefined {
  const seed = Number(process.env.FUZZ_SEED);
  return Number.isInteger(seed) ? seed : undefined;
}

export type Role = 'nobody' | 'normal' | 'super' | 'forged';

/**
 * A generated request. Values such as "$typeId" stand for the world's current records and are
 * filled in when the request is sent, because the records may have been replaced by then.
 */
export interface FuzzRequest {
  role: Role;
  method: string;
  route: string;
  path: Record<string, string>;
  query: Array<[string, string]>;
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'valid'; overrides: Record<string, unknown> }
    | { kind: 'raw'; contentType: string; text: string }
    | { kind: 'multipart'; field: string; name: string; type: string; bytes: Uint8Array; fields: Record<string, string> };
  remoteAddress: string;
}

const REFS = ['typeId', 'userId', 'bookId', 'interviewId', 'issueId', 'commentId', 'normalId', 'rootId', 'normalLogin'] as const;
type Ref = (typeof REFS)[number];

function refValue(world: World, ref: Ref): string {
  if (ref === 'normalId') return world.normal.id;
  if (ref === 'rootId') return world.rootId;
  if (ref === 'normalLogin') return world.normal.loginId;
  return world[ref];
}

/** Replaces every "$ref" string in a generated value by the world's current value. */
export function resolve<T>(value: T, world: World): T {
  if (typeof value === 'string' && value.startsWith('$') && (REFS as readonly string[]).includes(value.slice(1))) {
    return refValue(world, value.slice(1) as Ref) as T;
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, world)) as T;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, world)])) as T;
  }
  return value;
}

// Strings that have broken servers before: SQL, LIKE and path characters, markup, numbers in
// disguise, odd Unicode, a NUL, a lone surrogate, and sizes around the limits.
const HOSTILE = fc.constantFrom(
  "' OR '1'='1",
  "'; drop table users; --",
  '%',
  '_',
  '%_%',
  '\\',
  '\u0000',
  'a\u0000b',
  '../../etc/passwd',
  '..%2f..%2f',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '-1',
  '0',
  '0x10',
  '9007199254740993',
  '1.5',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  ' ',
  '',
  '\t\n',
  '\ud800',
  '\uffff',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 中文',
  '\u202e\u0644',
  'x'.repeat(101),
  'x'.repeat(5000),
  '0123456789abcdef0123456',
  UNKNOWN_ID,
  UNKNOWN_ID.toUpperCase(),
);

const anyText = fc.oneof(
  { weight: 3, arbitrary: HOSTILE },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
);

/** Any JSON value at all, hostile strings included. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyText },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308),
    ),
  },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const ID_PATTERNS = new Set(['^[0-9a-f]{24}$', '^(|[0-9a-f]{24})$']);
const REF_FOR_FIELD: Record<string, Ref> = {
  typeId: 'typeId',
  userId: 'userId',
  bookId: 'bookId',
  issueId: 'issueId',
};

/** Values the schema accepts (or nearly: patterns and lengths are kept, semantics are not). */
function fromSchema(schema: JsonSchemaLike, field: string): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => fromSchema(option, field)));
  switch (schema.type) {
    case 'string': {
      const max = Math.min(schema.maxLength ?? 60, 300);
      if (schema.pattern && ID_PATTERNS.has(schema.pattern)) {
        const ref = REF_FOR_FIELD[field];
        return fc.oneof(
          ...(ref ? [fc.constant(`$${ref}`)] : []),
          fc.constantFrom(...REFS.filter((r) => r.endsWith('Id')).map((r) => `$${r}`)),
          fc.stringMatching(/^[0-9a-f]{24}$/),
        );
      }
      if (schema.pattern) {
        let matching: fc.Arbitrary<string>;
        try {
          // Read as the validator reads it (ajv's unicodeRegExp).
          matching = fc.stringMatching(new RegExp(schema.pattern, 'u'));
        } catch {
          matching = fc.string({ maxLength: max });
        }
        return matching.filter((s) => s.length <= max && s.length >= (schema.minLength ?? 0));
      }
      if (field.endsWith('Content') || field === 'bookIntro') {
        return fc.oneof(
          fc.constant('<p>正文</p>'),
          fc.string({ minLength: 1, maxLength: 200 }).map((s) => `<p>${s}</p>`),
          anyText,
        );
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: max });
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31 - 1),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return objectFromSchema(schema);
    default:
      return anyJson;
  }
}

function objectFromSchema(schema: JsonSchemaLike): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const model = Object.fromEntries(props.map(([name, prop]) => [name, fromSchema(prop, name)]));
  return fc.record(model, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A value for one field: usually right, sometimes of any type, sometimes hostile. */
function fieldValue(prop: JsonSchemaLike, name: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: fromSchema(prop, name) }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: HOSTILE });
}

const extraKeys = fc.dictionary(
  fc.oneof(
    fc.constantFrom('_id', 'id', 'createdAt', 'passwordHash', 'permission', 'scanNumber', '__proto__', 'constructor', 'prototype'),
    fc.string({ maxLength: 12 }),
  ),
  anyJson,
  { maxKeys: 3 },
);

function bodyFor(route: CatalogEntry): fc.Arbitrary<FuzzRequest['body']> {
  if (route.url === '/api/upload') {
    return fc.oneof(
      fc.record({
        kind: fc.constant('multipart' as const),
        field: fc.oneof({ weight: 4, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: anyText }),
        name: fc.oneof(fc.constantFrom('a.png', '../../x.png', 'x.svg', ''), anyText),
        type: fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', ''),
        bytes: fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc
            .uint8Array({ maxLength: 300 })
            .map((tail) => new Uint8Array([...Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), ...tail])),
          fc.uint8Array({ maxLength: 300 }).map((tail) => new Uint8Array([0xff, 0xd8, 0xff, ...tail])),
          fc.uint8Array({ maxLength: 300 }).map((tail) => new Uint8Array([...Buffer.from('GIF89a'), ...tail])),
          fc.uint8Array({ maxLength: 300 }).map((tail) => new Uint8Array([...Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8'), ...tail])),
        ),
        fields: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 2 }),
      }),
      fc.constant({ kind: 'none' as const }),
      fc.record({
        kind: fc.constant('raw' as const),
        contentType: fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=x', 'image/png'),
        text: anyText,
      }),
    );
  }
  const schema = schemaPart(route, 'body');
  const shaped = schema
    ? fc
        .tuple(
          fc.record(Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, prop]) => [name, fieldValue(prop, name)])), {
            requiredKeys: [],
          }),
          extraKeys,
        )
        .map(([fields, extra]) => ({ ...extra, ...fields }))
    : extraKeys;
  // A body the route accepts with a few fields changed: what gets past validation into the services.
  const nearlyValid = schema
    ? fc
        .subarray(Object.keys(schema.properties ?? {}), { maxLength: Math.min(2, Object.keys(schema.properties ?? {}).length) })
        .chain((names) => fc.record(Object.fromEntries(names.map((name) => [name, fieldValue(schema.properties![name], name)]))))
        .map((overrides) => ({ kind: 'valid' as const, overrides }))
    : fc.constant({ kind: 'none' as const });
  return fc.oneof(
    { weight: 5, arbitrary: nearlyValid },
    { weight: 4, arbitrary: shaped.map((value) => ({ kind: 'json' as const, value })) },
    { weight: 1, arbitrary: anyJson.map((value) => ({ kind: 'json' as const, value })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        contentType: fc.constantFrom(
          'application/json',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=z',
        ),
        text: fc.oneof(
          anyText,
          fc.json({ maxDepth: 3 }),
          fc.constantFrom('{"a":', '{"__proto__":{"x":1}}', '[[[[[[[[[[', '{"typeName":"\\ud800"}'),
        ),
      }),
    },
  );
}

function queryFor(route: CatalogEntry): fc.Arbitrary<Array<[string, string]>> {
  const props = Object.entries(schemaPart(route, 'querystring')?.properties ?? {});
  const known = props.map(([name, prop]) =>
    fc.option(
      fc.oneof(
        { weight: 3, arbitrary: fromSchema(prop, name).map((v) => [[name, String(v)]] as Array<[string, string]>) },
        { weight: 1, arbitrary: anyText.map((v) => [[name, v]] as Array<[string, string]>) },
        {
          weight: 1,
          arbitrary: fc.tuple(anyText, anyText).map(
            ([a, b]) =>
              [
                [name, a],
                [name, b],
              ] as Array<[string, string]>,
          ),
        },
      ),
      { freq: 2 },
    ),
  );
  const extra = fc.array(fc.tuple(fc.oneof(anyText, fc.constantFrom('__proto__', 'constructor', 'a[b]', 'a[]')), anyText), {
    maxLength: 2,
  });
  return fc.tuple(fc.tuple(...known), extra).map(([chosen, more]) => [...chosen.flatMap((pairs) => pairs ?? []), ...more]);
}

function pathFor(route: CatalogEntry): fc.Arbitrary<Record<string, string>> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const props = schemaPart(route, 'params')?.properties ?? {};
  const value = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(name === 'loginId' ? '$normalLogin' : name === 'commentType' ? '1' : `$world:${name}`) },
      { weight: 2, arbitrary: props[name] ? fromSchema(props[name], name).map(String) : anyText },
      { weight: 2, arbitrary: anyText },
    );
  return fc.record(Object.fromEntries(names.map((name) => [name, value(name)])));
}

/** A scalar, array or object of any JSON type: what a client may send where another type belongs. */
const anyTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  // Text without NUL: a NUL anywhere is refused before validation with its own message (attack/
  // input tests it), which would hide whether the field's type was checked.
  fc.oneof(
    anyText.filter((text) => !text.includes('\u0000')),
    fc.constantFrom('5', '1', '0', 'true', 'false', 'null', '[]'),
  ),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/**
 * A body the route accepts with one of its fields replaced by a value of a JSON type that field's
 * schema does not admit: a super admin's request the server must refuse with a 400 naming the field.
 */
export function wrongTypeArbitrary(catalog: CatalogEntry[]): fc.Arbitrary<{ request: FuzzRequest; field: string }> {
  const typed = catalog.flatMap((route) =>
    Object.entries(schemaPart(route, 'body')?.properties ?? {}).map(([field, schema]) => ({ route, field, schema })),
  );
  return fc.constantFrom(...typed).chain(({ route, field, schema }) =>
    anyTyped
      .filter((value) => isWrongType(schema, value))
      .map((value) => ({
        field,
        request: {
          role: 'super' as const,
          method: route.method,
          route: routeKey(route),
          path: Object.fromEntries(
            [...route.url.matchAll(/:(\w+)/g)].map((m) => [m[1], m[1] === 'loginId' ? '$normalLogin' : `$world:${m[1]}`]),
          ),
          query: [],
          body: { kind: 'valid' as const, overrides: { [field]: value } },
          remoteAddress: '203.0.113.200',
        },
      })),
  );
}

/** Any request to one of the registered routes, as any kind of caller. */
export function requestArbitrary(catalog: CatalogEntry[], { ownMethod = false } = {}): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...catalog).chain((route) =>
    fc.record({
      role: fc.constantFrom<Role>('nobody', 'forged', 'normal', 'normal', 'super', 'super', 'super'),
      // `ownMethod`: always the route's method, for a case that must reach the route itself.
      method: ownMethod
        ? fc.constant(route.method)
        : fc.oneof(
            { weight: 9, arbitrary: fc.constant(route.method) },
            { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS') },
          ),
      route: fc.constant(routeKey(route)),
      path: pathFor(route),
      query: queryFor(route),
      body: bodyFor(route),
      remoteAddress: fc.integer({ min: 1, max: 254 }).map((n) => `203.0.113.${n}`),
    }),
  );
}

/** Requests to paths and methods nobody registered, around the ones that exist. */
export function strayArbitrary(): fc.Arbitrary<{ method: string; url: string }> {
  const segment = fc.oneof(
    fc.constantFrom('admin', 'user', 'book', 'type', 'login', 'docs', '..', '.', '%2e%2e', '', 'static', 'uploads'),
    anyText.map(encodeLoosely),
  );
  return fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'),
    url: fc
      .tuple(fc.constantFrom('/api/', '/res/', '/static/uploads/', '/API/', '/api'), fc.array(segment, { maxLength: 4 }))
      .map(([prefix, parts]) => `${prefix}${parts.join('/')}`),
  });
}

/** Percent-encodes text for a URL; text that encodeURIComponent refuses (lone surrogates) byte by byte. */
export function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

function queryString(pairs: Array<[string, string]>): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v)}`).join('&')}` : '';
}

/**
 * The callers and records the fuzzer works with. Cases may delete, disable, demote or re-key
 * them; `repair` puts back whatever a case broke, so that later cases still reach past the guards.
 */
export class Actors {
  world!: World;
  private generation = 0;

  constructor(private readonly t: TestContext) {}

  async init() {
    this.world = await buildWorld(this.t, `fz${this.generation++}`);
  }

  token(role: Role): string | null {
    if (role === 'nobody') return null;
    if (role === 'forged') return 'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4Iiwic2lkIjoieCJ9.';
    return role === 'super' ? this.world.rootToken : this.world.normal.token;
  }

  private async alive(token: string) {
    const response = await this.t.app.inject({ method: 'GET', url: '/api/admin/whoami', headers: { authorization: `Bearer ${token}` } });
    return response.statusCode === 200;
  }

  async repair() {
    const { db } = this.t.database;
    // A case may have required two-step sign-in of every admin (PATCH /api/settings/security):
    // the fuzz's admins have none, and every later case would meet the same 403.
    await db.delete(settings).where(eq(settings.key, 'require_2fa'));
    if (!(await this.alive(this.world.rootToken))) {
      // The root admin cannot delete, disable or demote itself, but it can change its own password.
      await db
        .update(admins)
        .set({ passwordHash: await hashPassword(ROOT_PASSWORD), enabled: true, permission: 1 })
        .where(eq(admins.loginId, ROOT_LOGIN));
      await db.delete(loginFailures);
      this.world.rootToken = await this.t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD);
    }
    const records: Array<[typeof types | typeof users | typeof books | typeof interviews | typeof issues | typeof comments, string]> = [
      [types, this.world.typeId],
      [users, this.world.userId],
      [books, this.world.bookId],
      [interviews, this.world.interviewId],
      [issues, this.world.issueId],
      [comments, this.world.commentId],
    ];
    let missing = false;
    for (const [table, id] of records) {
      if ((await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length === 0) missing = true;
    }
    const [normal] = await db.select().from(admins).where(eq(admins.id, this.world.normal.id));
    const normalBroken = normal?.permission !== 2 || !normal.enabled || !(await this.alive(this.world.normal.token));
    if (missing || normalBroken) await this.rebuild();
  }

  // Straight into the database: the harness's own helpers sign in with a root token it cached,
  // which a case may have ended.
  private async rebuild() {
    const { db } = this.t.database;
    await db.delete(loginFailures);
    const tag = `fz${this.generation++}`;
    const fixtures = contentFixtures(db);
    const loginId = `${tag}-normal`;
    const password = `${loginId}-password`;
    const id = newId();
    await db.insert(admins).values({
      id,
      loginId,
      passwordHash: await hashPassword(password),
      nickname: loginId,
      avatar: '',
      permission: 2,
      enabled: true,
      createdAt: Date.now(),
    });
    const typeId = await fixtures.type(`${tag}-type`);
    const userId = await fixtures.user({ loginId: `${tag}-user` });
    const bookId = await fixtures.book(typeId);
    const issueId = await fixtures.issue(userId, typeId);
    this.world = {
      ...this.world,
      normal: { id, loginId, token: await this.t.tokenFor(loginId, password) },
      typeId,
      userId,
      bookId,
      interviewId: await fixtures.interview(typeId),
      issueId,
      commentId: await fixtures.comment({ userId, typeId, issueId }),
    };
  }
}

let serial = 0;

export function toInject(request: FuzzRequest, actors: Actors): InjectOptions {
  const world = actors.world;
  const params = worldParams(request.route.split(' ')[1], world);
  const path = Object.fromEntries(
    Object.entries(request.path).map(([name, value]) => [
      name,
      value.startsWith('$world:') ? String(params[value.slice(7)]) : resolve(value, world),
    ]),
  );
  const url = request.route.split(' ')[1].replace(/:(\w+)/g, (_m, name: string) => encodeLoosely(path[name] ?? ''));
  const token = actors.token(request.role);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const options: InjectOptions = {
    method: request.method as InjectOptions['method'],
    url: `${url}${queryString(resolve(request.query, world))}`,
    headers,
    remoteAddress: request.remoteAddress,
  };
  const { body } = request;
  if (body.kind === 'valid') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify({ ...validBody(request.route, world, `fz${++serial}`), ...resolve(body.overrides, world) });
  } else if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(resolve(body.value, world)) ?? 'null';
  } else if (body.kind === 'raw') {
    headers['content-type'] = body.contentType;
    options.payload = body.text;
  } else if (body.kind === 'multipart') {
    const form = multipart(
      [{ field: body.field, name: body.name.replace(/["\r\n]/g, ''), type: body.type, data: Buffer.from(body.bytes) }],
      body.fields,
    );
    headers['content-type'] = form.contentType;
    options.payload = form.payload;
  }
  return options;
}

/** What is wrong with an answer, or null: no 5xx, and every refusal is the envelope in Chinese. */
export function problemWith(method: string, response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 300)}`;
  if (method === 'HEAD' || status === 204 || status === 304) return null;
  const isJson = /^application\/json/.test(String(response.headers['content-type'] ?? ''));
  if (status >= 400) {
    if (!isJson) return `refusal ${status} is not JSON: ${response.headers['content-type']}`;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return `refusal ${status} is not valid JSON: ${response.body.slice(0, 200)}`;
    }
    const envelope = body as { success?: unknown; code?: unknown; msg?: unknown; data?: unknown; errorCode?: unknown };
    // Every refusal carries an errorCode, one of the contract's.
    // A 409 VERSION_CONFLICT adds one documented field, `conflict` (what changed since); nothing else does.
    const extra = status === 409 && envelope.errorCode === ERROR_CODES.versionConflict ? ['conflict'] : [];
    const keys = Object.keys(envelope).sort().join(',');
    const shape = ['code', 'data', 'errorCode', 'msg', 'success', ...extra].sort().join(',');
    const knownCode = (Object.values(ERROR_CODES) as unknown[]).includes(envelope.errorCode);
    if (keys !== shape || !knownCode || envelope.success !== false || envelope.code !== status || envelope.data !== null) {
      return `refusal ${status} is not the envelope: ${response.body.slice(0, 300)}`;
    }
    if (typeof envelope.msg !== 'string' || !CJK.test(envelope.msg))
      return `refusal ${status} has no Chinese message: ${response.body.slice(0, 300)}`;
    return null;
  }
  if (isJson) {
    const body = JSON.parse(response.body) as { success?: unknown; code?: unknown };
    if (body.success !== true || body.code !== 0) return `success ${status} is not the envelope: ${response.body.slice(0, 300)}`;
  }
  return null;
}

export function describeRequest(options: InjectOptions): string {
  const payload =
    typeof options.payload === 'string' ? options.payload : Buffer.isBuffer(options.payload) ? `<${options.payload.length} bytes>` : '';
  return `${options.method} ${options.url} ${JSON.stringify(options.headers)} ${payload.slice(0, 400)}`;
}

/** Uncaught errors anywhere in the process while the fuzzer runs: any at all fails the run. */
export function watchProcess() {
  const crashes: unknown[] = [];
  const record = (error: unknown) => crashes.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    crashes,
    stop() {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}
