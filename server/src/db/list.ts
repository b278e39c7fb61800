import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, ilike, like, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, SEARCH_EXACT_COUNT_UP_TO, type Page } from '#contract/paging';
import { likePattern } from '../lib/filters';
import { type PageRequest, pageOf } from '../lib/paging';
import { queryRows, type Db } from './client';
import { layersOf, layersTag } from './layers';
import { BUCKET_ANCHOR_FROM, bucketKey, keptTotal, pageIdsByBuckets, type CountKey, type CountedList } from './list-counts';

/**
 * One declarative definition per paged list, in front of everything that makes the lists fast:
 * prepared statements per combination of filters, the kept counts (list_counts), deep pages by
 * kept buckets of dates (list_buckets) and the page-of-ids-first query shape. Adding a filter to
 * a list is one line in its definition.
 */

/**
 * A case-insensitive substring match (`%`, `_` and `\` taken literally), found through the
 * column's `search_grams` index (migration 0008; docs/decisions/0007-short-term-search.md).
 */
export interface TextFilter {
  kind: 'text';
  column: PgColumn;
}

/** An exact match; `countKey` names the list_counts key it is kept by, if any. */
export interface ExactFilter {
  kind: 'exact';
  column: PgColumn;
  countKey?: keyof CountKey;
}

export type ListFilter = TextFilter | ExactFilter;

export const textFilter = (column: PgColumn): TextFilter => ({ kind: 'text', column });
export const exactFilter = (column: PgColumn, countKey?: keyof CountKey): ExactFilter => ({ kind: 'exact', column, countKey });

type FilterValue = string | number | boolean;

/** The part of a drizzle select that a list definition hands back: ordered, then prepared. */
interface OrderableSelect<R> {
  orderBy(...order: SQL[]): { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R[]> } };
}

/** Where a page's rows come from (see pageSource): select the row's columns and `total` from it. */
export interface PageRows {
  query: Pick<Db, 'select'>;
  /** A subquery `page` with the page's ids: join the list's table to it on `page.id`. */
  pageIds: SQL;
  /** The list's total, to select beside every row. */
  total: SQL<number>;
}

export interface ListDefinition<F extends string, R extends { total: number }> {
  /** Names the list's prepared statements. */
  name: string;
  table: PgTable;
  /** Newest first by this date, then by id: the list's index is on both. */
  date: PgColumn;
  id: PgColumn;
  filters: Record<F, ListFilter>;
  /** The list's kept counts (migration 0002). */
  counted: CountedList;
  /**
   * The combinations of exact filters (none: `[]`) whose deep pages are found through the kept
   * buckets of list_buckets: each must be one of the key sets the list's triggers count by
   * (migration 0009), and each filter in it must have an index that leads with the filters and
   * ends in the list's order.
   */
  buckets?: NoInfer<F>[][];
  /** Selects the page's rows, with `total`, from `page`; the definition orders and prepares it. */
  rows(source: PageRows): OrderableSelect<R>;
}

export type ListValues<F extends string> = Partial<Record<F, FilterValue | undefined>>;

/** Where a text filter's bare term goes among a statement's values, beside its ILIKE pattern. */
const termKey = (name: string) => `${name}Term`;

/**
 * Whether a term's gram is the match itself: search_term_grams answers the lower-cased term when
 * it has up to three characters, and a row's grams hold it exactly when ILIKE would match (the
 * property test of search.test.ts). A term whose lower case has another length (「İ」) keeps ILIKE.
 */
export function gramIsMatch(term: string): boolean {
  const length = [...term].length;
  return length <= 3 && [...term.toLowerCase()].length === length;
}

/**
 * Characters that no character becomes by lower-casing, other than themselves, in any locale
 * (libc or ICU, Turkish included): ASCII but its letters; the CJK ideographs, kana, Hangul
 * syllables and CJK punctuation; the full-width forms but their letters.
 */
const NO_CASE =
  /^[\x20-\x40\x5B-\x60\x7B-\x7E\u3000-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF01-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65\u{20000}-\u{2FA1F}]+$/u;

/**
 * Whether a term has no letter case: then a text holds it exactly when its lower case does, and
 * LIKE finds what ILIKE would without lower-casing every text it tests (ILIKE's pass was half of
 * a common Chinese term's deep page; docs/decisions/0007). The property test of search.test.ts
 * holds LIKE to ILIKE for these terms.
 */
export function termHasNoCase(term: string): boolean {
  return NO_CASE.test(term);
}

/**
 * Which filters a call gives, which of its text filters are found by their gram alone, and which
 * are matched with LIKE (their term has no case).
 */
interface Shape<F extends string> {
  names: F[];
  gramIsMatch: Set<F>;
  noCase: Set<F>;
}

/** How a shape's text filters are matched (see Shape). */
type TextMatches = Pick<Shape<string>, 'gramIsMatch' | 'noCase'>;

/**
 * PostgreSQL keeps the first 63 bytes of a prepared statement's name (NAMEDATALEN - 1): two longer
 * names sharing them are one statement on a connection, and the second fails to prepare
 * ("already exists"). A longer name keeps its start and ends with a digest of the whole.
 */
export const STATEMENT_NAME_MAX = 63;
export function statementName(name: string): string {
  if (Buffer.byteLength(name) <= STATEMENT_NAME_MAX) return name;
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${name.slice(0, STATEMENT_NAME_MAX - digest.length - 1)}_${digest}`;
}

/** A statement per shape: its name. */
const shapeKey = <F extends string>({ names, gramIsMatch, noCase }: Shape<F>) =>
  names.map((name) => `${name}${gramIsMatch.has(name) ? 'Gram' : ''}${noCase.has(name) ? 'Like' : ''}`).join('_') || 'all';

/** For statements of exact filters only: no text filter. */
const EXACT_ONLY: TextMatches = { gramIsMatch: new Set(), noCase: new Set() };

/**
 * ORDER BY for "newest first": the date column, then the id, both descending. The lists' indexes
 * are built `desc nulls last`, and PostgreSQL uses an index for an ORDER BY only when it says the
 * same about nulls (a bare DESC means NULLS FIRST), even on NOT NULL columns.
 */
export function newestFirst(date: PgColumn, id: PgColumn): SQL[] {
  return [sql`${date} desc nulls last`, sql`${id} desc nulls last`];
}

/** The rows of `table` that `where` lets through, counted: a scalar subquery. */
function countedTotal(table: PgTable, where: SQL | undefined): SQL<number> {
  return sql<number>`(select count(*)::int from ${table} where ${where ?? sql`true`})`;
}

interface PageSourceOptions {
  table: PgTable;
  date: PgColumn;
  id: PgColumn;
  where: SQL | undefined;
  /** The total: a kept count, or a count of the exact match. */
  total: SQL<number>;
}

/**
 * Where a page's ids come from, as a subquery named `page`, the total to select beside its rows,
 * and the builder to select them with: straight from the date index (an index-only scan). The
 * limit and offset are the placeholders `limit` and `offset`.
 */
function pageSource(db: Db, o: PageSourceOptions): PageRows {
  const pageIds = db
    .select({ id: o.id })
    .from(o.table)
    .where(o.where)
    .orderBy(...newestFirst(o.date, o.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
  return { query: db, pageIds: sql`(${pageIds}) as page`, total: o.total };
}

/** How many rows the estimate of a search's count reads (TABLESAMPLE SYSTEM, whole pages). */
const SEARCH_SAMPLE_ROWS = 10_000;
/** How many rows the first look at how common a term is reads (a part of the same pages). */
const SEARCH_PROBE_ROWS = 1_000;

/**
 * Past this `share² × rows` (`share`: the probed share of rows that match), a search counts its
 * first matches by reading the table, not through the gram index, which must first gather every
 * match's address; the per-row costs behind the 20: docs/decisions/0007-short-term-search.md.
 */
const SEARCH_READ_FROM = 20 * (SEARCH_EXACT_COUNT_UP_TO + 1);

interface SearchOptions {
  table: PgTable;
  date: PgColumn;
  id: PgColumn;
  /** Every filter, each text filter through its gram index and ILIKE. */
  where: SQL | undefined;
  /** The same filters with the text ones as ILIKE alone: tested row by row, never through the index. */
  walkWhere: SQL | undefined;
  /** How many rows the whole list holds (its kept count). */
  tableRows: SQL<number>;
}

/**
 * What a search knows before its page (CTEs `probe`, `capped` and `counted`). Both samples read
 * whole pages (TABLESAMPLE SYSTEM), the same ones every time (REPEATABLE), the smaller's a part of
 * the larger's; a sample's share is the part of its rows the filters let through. `probe`, about
 * SEARCH_PROBE_ROWS rows, says whether the term is so common that `capped` reads its first matches
 * straight from the table (SEARCH_READ_FROM) rather than through the gram index. `capped` reads at
 * most SEARCH_EXACT_COUNT_UP_TO + 1 matches, so `n` is the exact count up to that cap. Past it,
 * `est` is the share of about SEARCH_SAMPLE_ROWS rows times the list's rows, never below the cap;
 * that sample is read only then (a CASE branch not taken runs no subquery). CTEs whose columns are
 * read several times are materialised: each read of an inlined one would plan its subqueries anew.
 *
 * The statements answer the count, or the estimate negated: one number rides beside every row,
 * and its sign says which it is (read back by `paginate`).
 */
function searchCtes(o: SearchOptions, columns: SQL): SQL {
  const cap = SEARCH_EXACT_COUNT_UP_TO;
  const capPlusOne = sql.raw(String(cap + 1));
  const share = (rows: number) => sql`(
    select count(*) filter (where ${o.walkWhere})::float8 / greatest(count(*), 1)
    from ${o.table} tablesample system ((select least(100, ${sql.raw(String(rows * 100))}::numeric / greatest(${o.tableRows}, 1))))
    repeatable (0))`;
  const readFrom = sql.raw(String(SEARCH_READ_FROM));
  return sql`probe as materialized (
      select ${o.tableRows}::bigint as rows, ${share(SEARCH_PROBE_ROWS)} as share
    ), capped as (
      (select ${columns} from ${o.table}
       where (select share * share * rows < ${readFrom} from probe) and ${o.where} limit ${capPlusOne})
      union all
      (select ${columns} from ${o.table}
       where (select share * share * rows >= ${readFrom} from probe) and ${o.walkWhere} limit ${capPlusOne})
    ), counted as materialized (
      select c.n, p.rows,
             case when c.n <= ${sql.raw(String(cap))} then c.n
                  else greatest(${capPlusOne}, round(${share(SEARCH_SAMPLE_ROWS)} * p.rows)::bigint) end as est
      from (select count(*)::bigint as n from capped) c, probe p
    )`;
}

/** The total of a search (see searchCtes) on its own: for a page past the end, which has no row to carry it. */
function searchTotal(o: SearchOptions): SQL<number> {
  const cap = SEARCH_EXACT_COUNT_UP_TO;
  return sql<number>`(with ${searchCtes(o, sql`1`)}
    select case when n <= ${sql.raw(String(cap))} then n else -est end from counted)`;
}

/**
 * A page of a search, and its total, from one statement: one of three ways to the page's ids,
 * chosen by the counts above (each way's gate is a constant for the run, so PostgreSQL runs only
 * the way it lets through):
 * - up to the cap, the matches are all in `capped`: sorted there (any page, a few ms).
 * - past it, a near page walks the (date, id) index testing each row with ILIKE until the page is
 *   full: with at least one match in `rows / est` rows, page p reads about p·size·rows/est rows.
 *   Finding every match through the gram index and sorting them would read `est` rows; so a page
 *   is walked to while that walk is the shorter, `(offset + size) · rows ≤ est²`.
 * - past that, every match is read through the gram index (a materialised CTE, so that the
 *   planner cannot turn it into the walk) and sorted from the nearer end; having them all, it
 *   counts them exactly.
 * Ordering through the date index alone would walk a rare term's whole table; reading every match
 * of a common one (「张」: 22,389 of 1M users) costs far more than its first page needs.
 */
function searchPageSource(db: Db, o: SearchOptions): PageRows {
  const cap = SEARCH_EXACT_COUNT_UP_TO;
  const limit = sql.placeholder('limit');
  const offset = sql.placeholder('offset');
  const reach = sql`(${offset}::bigint + ${limit}::bigint) * rows`;
  const newest = sql.join(newestFirst(o.date, o.id), sql`, `);
  // Sorting every match, the page is taken from the nearer end: a bounded sort of the rows above
  // it, or below it in the other order (a last page sorts as few as page 1; 「问题」's 219,185
  // comments were sorted whole on disk for theirs).
  const fromNewest = sql`${offset}::bigint * 2 + ${limit}::bigint <= n`;
  const pageIds = sql`(
    with ${searchCtes(o, sql`${o.id} as id, ${o.date} as date`)}, search as (
      select n <= ${sql.raw(String(cap))} as exact,
             n > ${sql.raw(String(cap))} and ${reach} <= est * est as walk,
             n > ${sql.raw(String(cap))} and ${reach} > est * est as sort_all,
             case when n <= ${sql.raw(String(cap))} then n else -est end as total
      from counted
    ), matched as materialized (
      select ${o.id} as id, ${o.date} as date from ${o.table} where ${o.where}
    ), matches as materialized (
      select count(*) as n from matched where (select sort_all from search)
    ), ids as (
      (select id from capped where (select exact from search)
       order by date desc nulls last, id desc nulls last limit ${limit} offset ${offset})
      union all
      (select ${o.id} from ${o.table} where (select walk from search) and ${o.walkWhere}
       order by ${newest} limit ${limit} offset ${offset})
      union all
      (select id from matched where (select sort_all from search) and (select ${fromNewest} from matches)
       order by date desc nulls last, id desc nulls last limit ${limit} offset ${offset})
      union all
      (select id from (
         select id from matched where (select sort_all from search) and (select not (${fromNewest}) from matches)
         order by date asc nulls first, id asc nulls first
         limit ${limit} offset (select greatest(0, n - ${offset}::bigint - ${limit}::bigint) from matches)
       ) as oldest
       -- A last page shorter than the page size: only its rows, the oldest of the sort.
       limit (select greatest(0, least(${limit}::bigint, n - ${offset}::bigint)) from matches))
    )
    select ids.id, case when (select sort_all from search) then (select n from matches)
                        else (select total from search) end as total
    from ids
  ) as page`;
  return { query: db, pageIds, total: sql<number>`page.total` };
}

/** An estimated count as it is shown: two significant figures (22,389 → 22,000). */
export function roundEstimate(estimate: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, estimate))) - 1);
  return Math.round(estimate / unit) * unit;
}

/**
 * A page of a list whose total is counted on every call (one with no kept counts: the audit log,
 * the recycle bin), as a subquery named `page` with the page's ids and the count beside each,
 * and that total to select beside the rows. The page is read from the nearer end of the list:
 * from the newest when fewer rows lie above it than below, else from the oldest with the
 * (date, id) index read backwards. The count reads every matching index entry anyway, so no
 * page then costs more than half of that again: the last page costs what page 1 does. Both
 * walks read ids only (index-only scans).
 */
export function nearestEndPage(o: {
  /** The database the page is read from: without its `nearestEnd` layer, a plain LIMIT/OFFSET and count(*). */
  db: Db;
  table: PgTable;
  where: SQL | undefined;
  date: PgColumn;
  id: PgColumn;
  limit: number;
  offset: number;
}): {
  pageIds: SQL;
  total: SQL<number>;
} {
  const where = o.where ?? sql`true`;
  const limit = sql`${o.limit}::bigint`;
  const offset = sql`${o.offset}::bigint`;
  if (!layersOf(o.db).nearestEnd) {
    return {
      pageIds: sql`(
        select ${o.id} as id, (select count(*) from ${o.table} where ${where})::int as total from ${o.table} where ${where}
        order by ${o.date} desc nulls last, ${o.id} desc nulls last limit ${limit} offset ${offset}
      ) as page`,
      total: sql<number>`page.total`,
    };
  }
  // From the newest when no more rows lie above the page than below it.
  const fromNewest = sql`${offset} * 2 + ${limit} <= n`;
  // Each walk's limit is the page size as given, so that the planner expects a page and joins
  // its rows by id; the walk that is not taken stops at its one-time condition.
  return {
    pageIds: sql`(
      with counted as materialized (select count(*) as n from ${o.table} where ${where}),
      newest as (
        select ${o.id} as id from ${o.table} where ${where} and (select ${fromNewest} from counted)
        order by ${o.date} desc nulls last, ${o.id} desc nulls last
        limit ${limit} offset ${offset}
      ),
      oldest as (
        select id from (
          select ${o.id} as id from ${o.table} where ${where} and (select not (${fromNewest}) from counted)
          order by ${o.date} asc nulls first, ${o.id} asc nulls first
          limit ${limit} offset (select greatest(0, n - ${offset} - ${limit}) from counted)
        ) as walked
        -- A last page shorter than the page size: only its rows, the oldest of the walk.
        limit (select greatest(0, least(${limit}, n - ${offset})) from counted)
      )
      select id, (select n from counted)::int as total from newest
      union all select id, (select n from counted)::int from oldest
    ) as page`,
    total: sql<number>`page.total`,
  };
}

/**
 * One page and its total in one round trip: the statement selects the total (a scalar subquery,
 * evaluated once) beside each row. Only a page past the end (not the first), which has no row to
 * carry it, asks for the total on its own; it answers no rows with the true total. A negative total is a
 * search's estimate (see searchCtes).
 */
export async function paginate<T>(
  { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest,
  query: { rows(limit: number, offset: number): Promise<Array<T & { total: number }>>; total(): Promise<number> },
): Promise<Page<T>> {
  const found = await query.rows(pageSize, (current - 1) * pageSize);
  // An empty first page is an empty list: its total is 0 without asking (a new issue's comments).
  const total = found.length ? Number(found[0].total) : current <= FIRST_PAGE ? 0 : await query.total();
  const count = total < 0 ? roundEstimate(-total) : total;
  // The rows keep their `total` rather than being copied without it: every list's service maps
  // its rows into the contract's shape field by field, and the response schema writes only what
  // it declares.
  const page = pageOf(found, count, { current, pageSize });
  return total < 0 ? { ...page, countEstimated: true } : page;
}

export interface PagedList<F extends string, Row> {
  /** One page, newest first, of the rows the given filters let through (empty or absent: any). */
  list(values: ListValues<F>, page: PageRequest): Promise<Page<Row>>;
  /**
   * Every row the same filters let through, newest first, in batches of `batchSize` read by
   * keyset on the list's own (date, id) index: each batch is one short statement, so memory
   * stays flat, no cursor or transaction is held open between batches, and a consumer that stops
   * pulling (a download that was cancelled) stops the reading.
   */
  scan(values: ListValues<F>, batchSize?: number): AsyncGenerator<Row[]>;
}

export function defineList<F extends string, R extends { total: number }>(
  db: Db,
  definition: ListDefinition<F, R>,
): PagedList<F, Omit<R, 'total'>> {
  const filters = Object.entries(definition.filters) as Array<[F, ListFilter]>;
  const order = newestFirst(definition.date, definition.id);
  // Without `search`, a text filter is ILIKE alone and counted exactly; without `counts`, every
  // total is a count(*); without `buckets`, a deep page skips its offset (db/layers.ts).
  const layers = layersOf(db);
  const prefix = `${definition.name}${layersTag(layers)}`;

  /**
   * The filters and the total, with these values or with placeholders for them. A text filter has
   * two: its LIKE pattern (for ILIKE, or LIKE when the term has no case) under its own name and the
   * bare term under `<name>Term`, which the gram index is asked for (search_term_grams).
   */
  function listSql(values: Record<string, FilterValue | Placeholder>, { gramIsMatch, noCase }: TextMatches) {
    const given = filters.filter(([name]) => values[name] !== undefined);
    const match = (indexed: boolean) =>
      and(
        ...given.map(([name, filter]) => {
          if (filter.kind === 'exact') return eq(filter.column, values[name]);
          if (!layers.search) return ilike(filter.column, values[name] as string);
          const contains = (noCase.has(name) ? like : ilike)(filter.column, values[name] as string);
          if (!indexed) return contains;
          const grams = sql`search_grams(${filter.column}) @> search_term_grams(${values[termKey(name)]})`;
          // A short term's gram is the match itself: ILIKE would only test every match again
          // (half the time of reading a common term's every match).
          return gramIsMatch.has(name) ? grams : and(grams, contains);
        }),
      );
    const where = match(true);
    const textFiltered = layers.search && given.some(([, filter]) => filter.kind === 'text');
    const search: SearchOptions = {
      table: definition.table,
      date: definition.date,
      id: definition.id,
      where,
      walkWhere: match(false),
      tableRows: layers.counts ? keptTotal(definition.counted) : countedTotal(definition.table, undefined),
    };
    // Kept when every given filter is a key of the kept counts; a search is counted up to a cap
    // (searchCtes); anything else is counted.
    const kept = layers.counts && given.every(([, filter]) => filter.kind === 'exact' && filter.countKey);
    const key: CountKey = Object.fromEntries(given.map(([name, filter]) => [(filter as ExactFilter).countKey, values[name]]));
    const total = kept ? keptTotal(definition.counted, key) : textFiltered ? searchTotal(search) : countedTotal(definition.table, where);
    return { where, total, search: textFiltered ? search : null };
  }

  // Made on first use, one per combination of given filters: built by drizzle once, and parsed
  // and planned by the database once per connection.
  const statements = new Map<string, { execute(values?: Record<string, unknown>): Promise<R[]> }>();
  function statementFor(shape: Shape<F>) {
    const key = shapeKey(shape);
    let statement = statements.get(key);
    if (!statement) {
      const { where, total, search } = listSql(placeholdersFor(shape.names), shape);
      const source = search
        ? searchPageSource(db, search)
        : pageSource(db, { table: definition.table, date: definition.date, id: definition.id, where, total });
      statement = definition
        .rows(source)
        .orderBy(...order)
        .prepare(statementName(`${prefix}_list_${key}`));
      statements.set(key, statement);
    }
    return statement;
  }

  // Deep pages of the combinations of filters list_buckets counts: one statement each, made on
  // first use; the kept buckets find where the page starts (see pageIdsByBuckets).
  const bucketed = new Set((layers.buckets ? (definition.buckets ?? []) : []).map((names) => [...names].sort().join('_') || 'all'));
  const deeps = new Map<string, { execute(values?: Record<string, unknown>): Promise<R[]> }>();
  function deepFor(given: F[]) {
    const key = given.join('_') || 'all';
    let statement = deeps.get(key);
    if (!statement) {
      const { where, total } = listSql(placeholdersFor(given), EXACT_ONLY);
      const pageIds = pageIdsByBuckets({
        list: definition.counted,
        key: sql.placeholder('bucketKey'),
        table: definition.table,
        where,
        date: definition.date,
        id: definition.id,
        limit: sql.placeholder('limit'),
        offset: sql.placeholder('offset'),
      });
      statement = definition
        .rows({ query: db, pageIds, total })
        .orderBy(...order)
        .prepare(statementName(`${prefix}_list_deep_${key}`));
      deeps.set(key, statement);
    }
    return statement;
  }

  /** Placeholders for the given filters' values (listSql). */
  function placeholdersFor(given: F[]): Record<string, Placeholder> {
    const text = new Set(filters.filter(([, filter]) => filter.kind === 'text').map(([name]) => name));
    return Object.fromEntries(
      given.flatMap((name) => [
        [name, sql.placeholder(name)],
        ...(text.has(name) ? [[termKey(name), sql.placeholder(termKey(name))]] : []),
      ]),
    );
  }

  /**
   * An empty filter means "no filter"; a substring becomes its ILIKE pattern, beside the term
   * itself. The shape says which filters are given and which terms are found by their gram alone.
   */
  function filterValues(given: ListValues<F>): { values: Record<string, FilterValue>; shape: Shape<F> } {
    const values: Record<string, FilterValue> = {};
    const shape: Shape<F> = { names: [], gramIsMatch: new Set(), noCase: new Set() };
    for (const [name, filter] of filters) {
      const value = given[name];
      if (value === undefined || value === '') continue;
      shape.names.push(name);
      if (filter.kind === 'text') {
        values[name] = likePattern(String(value));
        values[termKey(name)] = String(value);
        if (gramIsMatch(String(value))) shape.gramIsMatch.add(name);
        if (termHasNoCase(String(value))) shape.noCase.add(name);
      } else {
        values[name] = value;
      }
    }
    return { values, shape };
  }

  // The keys the date and the id have in a selected row: where a scan's next batch starts.
  const columnKeys = Object.entries(getTableColumns(definition.table));
  const dateKey = columnKeys.find(([, column]) => column === definition.date)![0];
  const idKey = columnKeys.find(([, column]) => column === definition.id)![0];

  /**
   * How a scan finds a search's rows: `indexed` when the gram index holds at most the exact-count
   * cap of matches (each batch sorts them all, a few thousand at most), `walk` when it holds more
   * (each batch walks on along the date index, testing rows with ILIKE). A keyset walk for a rare
   * term would read the whole table for a batch; sorting every match of a common one per batch
   * would read them all again for every thousand.
   */
  type ScanMode = 'plain' | 'indexed' | 'walk';
  async function scanMode(values: Record<string, FilterValue>, shape: Shape<F>): Promise<ScanMode> {
    const { where, search } = listSql(values, shape);
    if (!search) return 'plain';
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from ${definition.table} where ${where} limit ${SEARCH_EXACT_COUNT_UP_TO + 1}) capped`,
    );
    return Number(row.n) > SEARCH_EXACT_COUNT_UP_TO ? 'walk' : 'indexed';
  }

  // Per combination of filters and way of reading, the first batch and the batches after a (date, id) cursor.
  const scans = new Map<string, { execute(values?: Record<string, unknown>): Promise<R[]> }>();
  function scanFor(shape: Shape<F>, mode: ScanMode, after: boolean, batchSize: number) {
    const key = `${shapeKey(shape)}_${mode}_${after ? 'next' : 'first'}_${batchSize}`;
    let statement = scans.get(key);
    if (!statement) {
      const { where, search } = listSql(placeholdersFor(shape.names), shape);
      const cursorOn = (date: SQL | PgColumn, id: SQL | PgColumn) =>
        after ? sql`(${date}, ${id}) < (${sql.placeholder('date')}, ${sql.placeholder('id')})` : sql`true`;
      // A literal, not a parameter: PostgreSQL's generic plan guesses 10% of the table for a
      // parameter limit and then joins by hashing every row (1.2 s a batch for 1M users, not 1 ms).
      const limit = sql.raw(String(batchSize));
      // A row comparison the (date desc, id desc) index serves directly: the batch starts right after the last row.
      const ids =
        mode === 'indexed'
          ? sql`with matched as materialized (
                  select ${definition.id} as id, ${definition.date} as date from ${definition.table} where ${where}
                )
                select id from matched where ${cursorOn(sql`date`, sql`id`)}
                order by date desc nulls last, id desc nulls last limit ${limit}`
          : db
              .select({ id: definition.id })
              .from(definition.table)
              .where(and(mode === 'walk' ? search?.walkWhere : where, cursorOn(definition.date, definition.id)))
              .orderBy(...order)
              .limit(batchSize);
      statement = definition
        .rows({ query: db, pageIds: sql`(${ids}) as page`, total: sql<number>`0` })
        .orderBy(...order)
        .prepare(statementName(`${prefix}_scan_${key}`));
      scans.set(key, statement);
    }
    return statement;
  }

  return {
    async *scan(given, batchSize = 1000) {
      const size = Math.max(1, Math.trunc(batchSize));
      const { values, shape } = filterValues(given);
      const mode = await scanMode(values, shape);
      let cursor: { date: unknown; id: unknown } | null = null;
      for (;;) {
        const rows = await scanFor(shape, mode, cursor !== null, size).execute({ ...values, ...cursor });
        if (!rows.length) return;
        const last = rows[rows.length - 1] as Record<string, unknown>;
        cursor = { date: last[dateKey], id: last[idKey] };
        yield rows.map(({ total: _total, ...row }) => row as unknown as Omit<R, 'total'>);
        if (rows.length < size) return;
      }
    },

    list(given, page) {
      const { values, shape } = filterValues(given);
      const { names } = shape;
      return paginate<Omit<R, 'total'>>(page, {
        total: async () => {
          // Past the end of a search, its matches are counted exactly: a page past an estimate
          // is a far page, which has just read every match to sort them anyway, and the pager
          // then shows where the last page really is instead of the estimate that led past it.
          const { where, total, search } = listSql(values, shape);
          const [row] = await queryRows<{ n: number }>(db, sql`select ${search ? countedTotal(definition.table, where) : total} as n`);
          return Number(row.n);
        },
        rows: (limit, offset) => {
          if (offset >= BUCKET_ANCHOR_FROM && bucketed.has([...names].sort().join('_') || 'all')) {
            const key = bucketKey(names.map((name) => [(definition.filters[name] as ExactFilter).column.name, values[name]!]));
            return deepFor(names).execute({ ...values, bucketKey: key, limit, offset });
          }
          return statementFor(shape).execute({ ...values, limit, offset });
        },
      });
    },
  };
}
