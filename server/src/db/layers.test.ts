import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { freshDatabase } from '../../test/harness';
import { createIssueRepository } from '../modules/issue/issue.repository';
import { createUserRepository } from '../modules/user/user.repository';
import { createAuditRepository } from '../modules/audit/audit.repository';
import type { Database, Db } from './client';
import { ALL_LAYERS, LAYERS, parseLayers, PLAIN, setLayers } from './layers';
import * as schema from './schema';

/**
 * Every layer on against every layer off, on one database: a second drizzle handle over the same
 * client, marked plain, so that both read the same rows. Lists, filters, searches and pages must
 * answer the same rows and the same totals. Searches count exactly on both here: the plain
 * implementation always counts a search exactly, the layered one exactly up to 5,000 matches
 * (SEARCH_EXACT_COUNT_UP_TO), and these tables stay under that (its estimate past the cap is
 * search.test.ts's).
 */
let database: Database;
let drop: () => Promise<void>;
let plainDb: Db;

// Past BUCKET_ANCHOR_FROM (2,000) rows, so that deep pages go through the kept buckets.
const USERS = 2600;
const ISSUES = 2300;
const TYPES = 4;
// Few letters, so that random terms match often; mixed case, Chinese and LIKE's own signs.
const LETTERS = ['张', '伟', 'a', 'A', 'b', '%', '_', '\\'];

beforeAll(async () => {
  ({ database, drop } = await freshDatabase(() => undefined, ALL_LAYERS));
  await database.migrate();
  const { db } = database;
  const client = (db as unknown as { $client: unknown }).$client;
  plainDb = (database.kind === 'embedded'
    ? drizzlePglite({ client: client as never, schema })
    : drizzlePg({ client: client as never, schema })) as unknown as Db;
  setLayers(plainDb, PLAIN);

  // Random rows, the same every run (setseed), with many dates shared by several rows (ties go by id).
  const letters = `array[${LETTERS.map((letter) => `'${letter.replace(/'/g, "''")}'`).join(',')}]`;
  const word = (n: number) => Array.from({ length: n }, () => `(${letters})[1 + floor(random() * ${LETTERS.length})::int]`).join(' || ');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.42)`);
    await tx.execute(sql`
      insert into types (id, type_name, created_at)
      select lpad(to_hex(g), 24, 'f'), 'type-' || g, 1700000000000 + g from generate_series(1, ${TYPES}) g`);
    await tx.execute(
      sql.raw(`
      insert into users (id, login_id, password_hash, nickname, avatar, enabled, register_date, last_login_date)
      select lpad(to_hex(g), 24, '0'), 'u' || ${word(2)} || g, 'not-a-real-hash', ${word(3)}, '', random() < 0.8,
             1700000000000 + floor(random() * 200)::bigint * 1800000, 1700000000000
      from generate_series(1, ${USERS}) g`),
    );
    await tx.execute(
      sql.raw(`
      insert into issues (id, issue_title, issue_content, issue_status, issue_date, user_id, type_id)
      select 'c' || lpad(to_hex(g), 23, '0'), ${word(3)}, '', random() < 0.6,
             1700000000000 + floor(random() * 150)::bigint * 3600000,
             lpad(to_hex(1 + floor(random() * ${USERS})::int), 24, '0'),
             lpad(to_hex(1 + floor(random() * ${TYPES})::int), 24, 'f')
      from generate_series(1, ${ISSUES}) g`),
    );
    await tx.execute(sql`
      insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
      select 1000 + floor(random() * 40)::bigint, 'a', 'a', '修改', case when random() < 0.3 then 'book' else 'user' end,
             lpad(to_hex(g), 24, '0'), 't'
      from generate_series(1, 300) g`);
  });
}, 120_000);

afterAll(async () => {
  await database?.close();
  await drop?.();
});

const term = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 4 }).map((letters) => letters.join(''));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
const pageSize = fc.constantFrom(1, 7, 10, 20, 50);
// Where in the list: near its start, anywhere (deep pages included), or just past its end.
const position = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.double({ min: 0, max: 1.05, noNaN: true }));

function pageAt(position: number, size: number, total: number): number {
  if (Number.isInteger(position) && position >= 1) return position;
  return Math.max(1, Math.ceil((position * total) / size));
}

/** A page as both implementations must agree on it: its rows by id, its total, estimated or not. */
const shape = (page: { count: number; countEstimated?: true; totalPage: number; data: Array<{ id: string }> }) => ({
  count: page.count,
  estimated: page.countEstimated ?? false,
  totalPage: page.totalPage,
  ids: page.data.map((row) => row.id),
});

// Each row carries its page's total (paginate reads it; the services copy only the contract's
// fields): a search's comes back from PostgreSQL as a bigint's text, so it is compared as `count`.
const rows = (page: { data: object[] }) => page.data.map(({ total: _total, ...row }: { total?: unknown }) => row);

describe('the layered and the plain database', () => {
  it('answer the same pages of users, filtered, searched and paged anywhere', async () => {
    const fast = createUserRepository(database.db);
    const plain = createUserRepository(plainDb);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ loginId: maybe(term), nickname: maybe(term), enabled: maybe(fc.boolean()) }),
        pageSize,
        position,
        async (filter, size, where) => {
          const first = await plain.list(filter, { current: 1, pageSize: size });
          const current = pageAt(where, size, first.count);
          const [a, b] = await Promise.all([
            fast.list(filter, { current, pageSize: size }),
            plain.list(filter, { current, pageSize: size }),
          ]);
          expect(shape(a)).toEqual(shape(b));
          expect(rows(a)).toEqual(rows(b));
        },
      ),
      { numRuns: 40, seed: 2023 },
    );
  }, 60_000);

  it('answer the same pages of issues, by state, type and title, and the same rows to a scan', async () => {
    const fast = createIssueRepository(database.db);
    const plain = createIssueRepository(plainDb);
    const typeId = fc.integer({ min: 1, max: TYPES }).map((n) => n.toString(16).padStart(24, 'f'));
    const filter = fc.record({ issueTitle: maybe(term), typeId: maybe(typeId), issueStatus: maybe(fc.boolean()) });
    await fc.assert(
      fc.asyncProperty(filter, pageSize, position, async (filter, size, where) => {
        const first = await plain.list(filter, { current: 1, pageSize: size });
        const current = pageAt(where, size, first.count);
        const [a, b] = await Promise.all([fast.list(filter, { current, pageSize: size }), plain.list(filter, { current, pageSize: size })]);
        expect(shape(a)).toEqual(shape(b));
        expect(rows(a)).toEqual(rows(b));
      }),
      { numRuns: 30, seed: 2024 },
    );
    // A scan reads in batches; both must give every row once, newest first.
    await fc.assert(
      fc.asyncProperty(filter, fc.constantFrom(13, 97, 1000), async (filter, batch) => {
        const all = async (repository: typeof fast) => {
          const ids: string[] = [];
          for await (const rows of repository.scan(filter, batch)) ids.push(...rows.map((row) => row.id));
          return ids;
        };
        expect(await all(fast)).toEqual(await all(plain));
      }),
      { numRuns: 10, seed: 2025 },
    );
  }, 60_000);

  it('answer the same pages of the audit log, after writes to it and to the lists', async () => {
    const fast = createAuditRepository(database.db);
    const plain = createAuditRepository(plainDb);
    await fc.assert(
      fc.asyncProperty(maybe(fc.constantFrom('user', 'book')), pageSize, position, async (entity, size, where) => {
        const first = await plain.list({ entity }, { current: 1, pageSize: size });
        const current = pageAt(where, size, first.count);
        const [a, b] = await Promise.all([
          fast.list({ entity }, { current, pageSize: size }),
          plain.list({ entity }, { current, pageSize: size }),
        ]);
        expect({ count: a.count, ids: a.data.map((row) => row.id) }).toEqual({ count: b.count, ids: b.data.map((row) => row.id) });
      }),
      { numRuns: 15, seed: 2026 },
    );
    // A write moves the kept counts and buckets; the plain side counts the rows themselves.
    await database.db.execute(sql`delete from issues where id in (select id from issues order by issue_date, id limit 37)`);
    await database.db.execute(
      sql`update issues set issue_status = not issue_status where id in (select id from issues order by id limit 55)`,
    );
    const fastIssues = createIssueRepository(database.db);
    const plainIssues = createIssueRepository(plainDb);
    for (const filter of [{}, { issueStatus: true }, { issueStatus: false, typeId: (2).toString(16).padStart(24, 'f') }]) {
      for (const current of [1, 45, 230]) {
        const [a, b] = await Promise.all([
          fastIssues.list(filter, { current, pageSize: 10 }),
          plainIssues.list(filter, { current, pageSize: 10 }),
        ]);
        expect(shape(a)).toEqual(shape(b));
      }
    }
  }, 60_000);
});

describe('DB_LAYERS', () => {
  it('names every layer, none, all but some, or only some, and refuses what it does not know', () => {
    expect(parseLayers(undefined)).toEqual(ALL_LAYERS);
    expect(parseLayers('all')).toEqual(ALL_LAYERS);
    expect(parseLayers('plain')).toEqual(PLAIN);
    expect(parseLayers('-search,-buckets')).toEqual({ ...ALL_LAYERS, search: false, buckets: false });
    expect(parseLayers('statements, search')).toEqual({ ...PLAIN, statements: true, search: true });
    expect(() => parseLayers('fast')).toThrow('fast');
    expect(() => parseLayers('search,-buckets')).toThrow();
    expect(LAYERS).toHaveLength(Object.keys(ALL_LAYERS).length);
  });
});
