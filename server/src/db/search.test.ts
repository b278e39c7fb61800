import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { SEARCH_EXACT_COUNT_UP_TO } from '#contract/paging';
import { bearer, createTestContext, type TestContext } from '../../test/harness';
import { likePattern } from '../lib/filters';
import { queryRows } from './client';
import { configuredLayers } from './configured';
import { gramIsMatch, roundEstimate, termHasNoCase } from './list';

let t: TestContext;
let root: string;
beforeAll(async () => {
  // These are the `search` layer's own cases (the cap, the estimate, the three ways to a page):
  // on with whatever else DB_LAYERS says. The plain path is compared with it in layers.test.ts.
  t = await createTestContext({}, { layers: { ...configuredLayers(), search: true } });
  root = await t.rootToken();
});
afterAll(() => t.close());

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.database.db, query);

describe('search_grams and search_term_grams (migration 0008)', () => {
  it('piece a text into its lower-cased pieces of one, two and three characters', async () => {
    const [row] = await rows<{ grams: string[]; empty: string[] }>(sql`select search_grams('Ab张伟x') as grams, search_grams('') as empty`);
    expect(row.grams).toEqual(['a', 'b', '张', '伟', 'x', 'ab', 'b张', '张伟', '伟x', 'ab张', 'b张伟', '张伟x']);
    expect(row.empty).toEqual([]);
  });

  it('ask for the lower-cased term itself up to three characters, for its pieces of three beyond', async () => {
    const [row] = await rows<{ one: string[]; three: string[]; long: string[]; empty: string[] }>(
      sql`select search_term_grams('张') as one, search_term_grams('JsX') as three, search_term_grams('JavaS') as long, search_term_grams('') as empty`,
    );
    expect(row).toEqual({ one: ['张'], three: ['jsx'], long: ['jav', 'ava', 'vas'], empty: [] });
  });

  it('let through every text ILIKE matches, and for terms of up to three characters nothing else', async () => {
    // Upper and lower case, Chinese, LIKE's own characters, a space and letters whose lower case
    // depends on the locale: whatever lower() does, both sides of the match do the same.
    const char = fc.constantFrom('a', 'A', 'b', 'B', '张', '伟', '好', '%', '_', '\\', ' ', 'İ', 'Σ', 'ß', '1');
    const text = fc.array(char, { maxLength: 12 }).map((c) => c.join(''));
    const term = fc.array(char, { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, term), { minLength: 1, maxLength: 200 }), async (pairs) => {
        const found = await rows<{ hit: boolean; indexed: boolean; short: boolean; text: string; term: string }>(sql`
          select p.text, p.term, p.text ilike p.pattern as hit,
                 search_grams(p.text) @> search_term_grams(p.term) as indexed, length(lower(p.term)) <= 3 as short
          from (select e->>0 as text, e->>1 as term, e->>2 as pattern
                from jsonb_array_elements(${JSON.stringify(pairs.map(([x, y]) => [x, y, likePattern(y)]))}::jsonb) e) p`);
        for (const row of found) {
          if (row.hit) expect(row).toMatchObject({ indexed: true });
          if (row.short) expect(row).toMatchObject({ indexed: row.hit });
        }
      }),
      { numRuns: 30 },
    );
  });

  it('match a term that has no case with LIKE exactly where ILIKE matches it', async () => {
    // Cased letters whose lower case is another length or leaves ASCII (İ, the Kelvin sign K,
    // full-width Ａ), beside the caseless kinds termHasNoCase lets through.
    const char = fc.constantFrom(
      'a',
      'A',
      'İ',
      'i',
      'K',
      'k',
      'Σ',
      'ß',
      'Ａ',
      'ａ',
      '张',
      '伟',
      'の',
      '한',
      '，',
      '１',
      '1',
      ' ',
      '%',
      '_',
      '\\',
      '@',
    );
    const text = fc.array(char, { maxLength: 12 }).map((c) => c.join(''));
    const term = fc.array(char, { minLength: 1, maxLength: 4 }).map((c) => c.join(''));
    expect(['张伟', '１，%', 'の한 1', '张a', 'Ａ', 'K', '\t'].map(termHasNoCase)).toEqual([true, true, true, false, false, false, false]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, term), { minLength: 1, maxLength: 200 }), async (pairs) => {
        const found = await rows<{ ilike: boolean; like: boolean; text: string; term: string }>(sql`
          select p.text, p.term, p.text ilike p.pattern as ilike, p.text like p.pattern as like
          from (select e->>0 as text, e->>1 as term, e->>2 as pattern
                from jsonb_array_elements(${JSON.stringify(pairs.map(([x, y]) => [x, y, likePattern(y)]))}::jsonb) e) p`);
        for (const row of found) if (termHasNoCase(row.term)) expect(row).toMatchObject({ like: row.ilike });
      }),
      { numRuns: 30 },
    );
  });

  it.each([
    ['users', 'login_id'],
    ['users', 'nickname'],
    ['books', 'book_title'],
    ['interviews', 'interview_title'],
    ['issues', 'issue_title'],
    ['comments', 'comment_content'],
  ])('serve the text filter of %s.%s through its gram index', async (table, column) => {
    const plan = await t.database.db.transaction(async (tx) => {
      // An empty table is read whole most cheaply: only the index's usability is in question here.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      await tx.execute(sql`set local enable_indexonlyscan = off`);
      return queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select 1 from ${sql.identifier(table)} where search_grams(${sql.identifier(column)}) @> search_term_grams('张伟') and ${sql.identifier(column)} ilike '%张伟%'`,
      );
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain(`${table}_${column}_grams_idx`);
  });
});

describe('a search of a list', () => {
  const CAP = SEARCH_EXACT_COUNT_UP_TO;
  // 20 × (CAP + 1) + 1,000 users, newest last: every one has 「张」, every second 「张伟」, CAP exactly
  // 「王」 and CAP + 1 「赵」; each tenth is disabled. So many that the first matches of 「张」 are
  // counted by reading the table (share² × rows ≥ 20 × (CAP + 1), list.ts), those of the others
  // through the gram index.
  const USERS = 20 * (CAP + 1) + 1000;
  const list = async (query: string) => {
    const response = await t.inject({ method: 'GET', url: `/api/user?${query}`, headers: bearer(root) });
    expect(response.statusCode).toBe(200);
    return response.json().data as { count: number; countEstimated?: true; totalPage: number; data: Array<{ loginId: string }> };
  };
  /** The page as a plain ILIKE and ORDER BY would answer it. */
  const expected = async (term: string, current: number, pageSize = 10, extra = sql`true`) =>
    (
      await rows<{ login_id: string }>(sql`
        select login_id from users where nickname ilike ${likePattern(term)} and ${extra}
        order by register_date desc, id desc limit ${pageSize} offset ${(current - 1) * pageSize}`)
    ).map((row) => row.login_id);
  const loginIds = (page: { data: Array<{ loginId: string }> }) => page.data.map((user) => user.loginId);

  beforeAll(async () => {
    // In slices: on PostgreSQL each statement has the server's 2 s statement time-out.
    for (let from = 1; from <= USERS; from += 2000) {
      await t.database.db.execute(sql`
        insert into users (id, login_id, password_hash, nickname, avatar, enabled, register_date, last_login_date)
        select lpad(to_hex(g), 24, '0'), 'searched-' || g, 'not-a-real-hash',
               case when g <= ${CAP} then '王' when g <= ${2 * CAP + 1} then '赵' else '李' end
                 || '张' || case when g % 2 = 0 then '伟' else '' end,
               '', g % 10 <> 0, 1700000000000 + g * 1000, 1700000000000 + g * 1000
        from generate_series(${from}::int, ${Math.min(USERS, from + 1999)}::int) g`);
    }
  });

  it('counts exactly up to the cap, and finds every page as ILIKE would', async () => {
    const page = await list('nickname=王');
    expect(page).toMatchObject({ count: CAP, totalPage: CAP / 10 });
    expect(page.countEstimated).toBeUndefined();
    expect(loginIds(page)).toEqual(await expected('王', 1));
    expect(loginIds(await list('nickname=王&current=250&pageSize=20'))).toEqual(await expected('王', 250, 20));
    expect(loginIds(await list(`nickname=王&current=${CAP / 10}`))).toEqual(await expected('王', CAP / 10));
    const past = await list(`nickname=王&current=${CAP / 10 + 1}`);
    expect(past).toMatchObject({ count: CAP, data: [] });
    expect(past.countEstimated).toBeUndefined();
  });

  it('past the cap, answers an estimate marked as such, and the same rows', async () => {
    const page = await list('nickname=赵');
    expect(page.countEstimated).toBe(true);
    expect(page.count).toBe(roundEstimate(page.count));
    expect(page.count).toBeGreaterThanOrEqual(0.8 * (CAP + 1));
    expect(page.count).toBeLessThanOrEqual(1.2 * (CAP + 1));
    expect(loginIds(page)).toEqual(await expected('赵', 1));

    // Every user has 「张」: near pages walk the date index, far ones sort every match.
    const all = await list('nickname=张');
    expect(all.countEstimated).toBe(true);
    expect(all.count).toBeGreaterThanOrEqual(0.8 * USERS);
    expect(all.count).toBeLessThanOrEqual(1.2 * USERS);
    for (const current of [1, 2, 37, 150, USERS / 10]) {
      expect(loginIds(await list(`nickname=张&current=${current}`))).toEqual(await expected('张', current));
    }

    // 「赵」 matches a third: a page far enough in is found by sorting every match, which also
    // counts them exactly.
    for (const current of [2, 40]) expect(loginIds(await list(`nickname=赵&current=${current}`))).toEqual(await expected('赵', current));
    const deep = await list('nickname=赵&current=400');
    expect(loginIds(deep)).toEqual(await expected('赵', 400));
    expect(deep.count).toBe(CAP + 1);
    expect(deep.countEstimated).toBeUndefined();
    // Nearer the oldest end the sort runs the other way; the last page holds the one oldest match.
    for (const [current, pageSize] of [
      [250, 10],
      [251, 10],
      [(CAP + 1 + 9) / 10, 10],
      [Math.ceil((CAP + 1) / 7), 7],
    ]) {
      const page = await list(`nickname=赵&current=${current}&pageSize=${pageSize}`);
      expect(loginIds(page)).toEqual(await expected('赵', current, pageSize));
      expect(page.count).toBe(CAP + 1);
    }
    expect(loginIds(await list(`nickname=赵&current=${(CAP + 1 + 9) / 10}`))).toHaveLength(1);

    // A page past the estimate's end: no rows, and the exact count, so that the pager can find the last page.
    const beyond = await list(`nickname=张&current=${Math.ceil((1.3 * USERS) / 10)}`);
    expect(beyond).toMatchObject({ data: [], count: USERS, totalPage: Math.ceil(USERS / 10) });
    expect(beyond.countEstimated).toBeUndefined();
  });

  it('finds a term of up to three characters by its gram alone exactly when its lower case is as long', async () => {
    const char = fc.constantFrom('a', 'A', '张', '%', '_', '\\', ' ', 'İ', 'Σ', 'ß');
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(char, { minLength: 1, maxLength: 5 }).map((c) => c.join('')),
          { minLength: 1, maxLength: 50 },
        ),
        async (terms) => {
          const found = await rows<{ term: string; short: boolean }>(sql`
          select e as term, length(lower(e)) <= 3 as short from jsonb_array_elements_text(${JSON.stringify(terms)}::jsonb) e`);
          // Never by the gram alone when the database would ask for pieces of it (ILIKE stays then).
          for (const row of found) if (gramIsMatch(row.term)) expect(row).toMatchObject({ short: true });
        },
      ),
      { numRuns: 20 },
    );
    expect(['张', '张伟', 'Abc', '%_\\', 'abcd', '张伟强大'].map(gramIsMatch)).toEqual([true, true, true, true, false, false]);
  });

  it('combines a search with the other filters, lower- and upper-case alike', async () => {
    const disabled = await list('nickname=王张伟&enabled=false&pageSize=100');
    const [truth] = await rows<{ n: number }>(sql`select count(*)::int as n from users where nickname like '%王张伟%' and not enabled`);
    expect(disabled).toMatchObject({ count: truth.n });
    expect(loginIds(disabled)).toEqual(await expected('王张伟', 1, 100, sql`not enabled`));
    const both = await list(`loginId=SEARCHED-1234&nickname=${encodeURIComponent('张伟')}`);
    expect(loginIds(both)).toEqual([
      'searched-12348',
      'searched-12346',
      'searched-12344',
      'searched-12342',
      'searched-12340',
      'searched-1234',
    ]);
  });

  it('finds a row by what an update wrote, and no longer by what it replaced', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/api/user',
      headers: bearer(root),
      payload: { loginId: 'gram-check', nickname: '欧阳修' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data._id as string;
    expect(loginIds(await list('nickname=阳修'))).toEqual(['gram-check']);
    const renamed = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, headers: bearer(root), payload: { nickname: '司马光' } });
    expect(renamed.statusCode).toBe(200);
    expect(await list('nickname=阳修')).toMatchObject({ count: 0, data: [] });
    expect(loginIds(await list('nickname=司马'))).toEqual(['gram-check']);
    expect((await t.inject({ method: 'DELETE', url: `/api/user/${id}`, headers: bearer(root) })).statusCode).toBe(200);
    expect(await list('nickname=司马')).toMatchObject({ count: 0, data: [] });
  });
});

describe('roundEstimate', () => {
  it('keeps two significant figures', () => {
    expect([5001, 22_389, 105_749, 1_234_567, 95, 0].map(roundEstimate)).toEqual([5000, 22_000, 110_000, 1_200_000, 95, 0]);
  });
});
