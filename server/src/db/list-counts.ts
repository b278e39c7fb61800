import { and, eq, sql, type Column, type Placeholder, type SQL, type Table } from 'drizzle-orm';
import { listBuckets, listCounts } from './schema';

export type CountedList = 'users' | 'issues' | 'comments' | 'books' | 'interviews';

/**
 * The non-text filters a list's kept count is broken down by; an absent (or empty) one means
 * "any". A placeholder stands for a value given when a prepared statement runs.
 */
export interface CountKey {
  flag?: boolean | Placeholder;
  kind?: number | Placeholder;
  typeId?: string | Placeholder;
}

/**
 * How many rows of `list` match `key`, as a scalar subquery over the counts the triggers of
 * migration 0002 keep: a sum over at most a few dozen rows, exact and current with every
 * committed change.
 */
export function keptTotal(list: CountedList, key: CountKey = {}): SQL<number> {
  const where = and(
    eq(listCounts.list, list),
    key.flag === undefined ? undefined : eq(listCounts.flag, key.flag),
    key.kind === undefined ? undefined : eq(listCounts.kind, key.kind),
    key.typeId ? eq(listCounts.typeId, key.typeId) : undefined,
  );
  return sql<number>`(select coalesce(sum(${listCounts.n}), 0)::int from ${listCounts} where ${where})`;
}

/** From this many rows in, a page is found through list_buckets: below it the plain walk is as cheap. */
export const BUCKET_ANCHOR_FROM = 2000;

/** The spans of list_buckets (migration 0009), in hours, widest first: 32 days, a day, an hour. */
const SPANS = [768, 24, 1] as const;
const HOUR_MS = 3_600_000;

/**
 * The key under which list_buckets counts the rows that match these exact filters, as the
 * migration's list_buckets_changes builds it: `column=value` pairs, by column name (byte order),
 * joined by `&`; '' for none. Booleans and numbers as PostgreSQL writes them as text.
 */
export function bucketKey(filters: Array<[column: string, value: string | number | boolean]>): string {
  return filters
    .map(([column, value]) => `${column}=${String(value)}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join('&');
}

/** A value of the statement: a placeholder of a prepared one, or given. */
type Value = Placeholder | SQL | number | string;

export interface BucketPage {
  list: CountedList;
  /** The bucket key of the page's filters (bucketKey). */
  key: Value;
  table: Table;
  /** The page's exact filters, which the list's index serves ahead of its date. */
  where: SQL | undefined;
  date: Column;
  id: Column;
  limit: Value;
  offset: Value;
}

/**
 * The ids of one page, newest first by `date` then `id`, `offset` rows in, as a subquery named
 * `page`. The kept blocks of 32 days, added up from the newest, say which blocks the page's first
 * and last rows fall in; the kept days of those blocks, added up the same way, say which days;
 * the kept hours of those days which hours, and how many rows lie above the first of them. The
 * walk then reads only that stretch of the (filters, date desc, id desc) index and skips only
 * rows of the first hour; the two bounds also tell the planner that the stretch is short, so it
 * walks the index in order instead of sorting. About a hundred kept rows are read instead of up
 * to millions of index entries. One statement, one snapshot: the counts and the rows agree.
 * Exact for every offset, past the end included.
 *
 * The limit, too, is a subquery: a bare `LIMIT $n` makes PostgreSQL plan the statement again on
 * every call (a plan for the given page size always looks cheaper than the generic one), and
 * planning these CTEs cost three times their execution (pgbench: 3,500 → 9,900 tps). Nothing in
 * the plan depends on the values: the bounds come from the kept counts at run time.
 */
export function pageIdsByBuckets(o: BucketPage): SQL {
  const first = sql`${o.offset}::bigint`;
  const last = sql`${o.offset}::bigint + ${o.limit}::bigint - 1`;
  const ctes: SQL[] = [];
  let outer: { name: string; span: number } | null = null;
  for (const span of SPANS) {
    const name = `at_${span}`;
    // Of the buckets of this span inside the outer span's first and last buckets (all of them for
    // the widest), `above` rows lie above each, growing as buckets get older.
    const inside = outer
      ? sql` and ${listBuckets.start} >= (select last_start from ${sql.raw(outer.name)})
             and ${listBuckets.start} < (select first_start from ${sql.raw(outer.name)}) + ${sql.raw(String(outer.span))}`
      : sql``;
    const above = outer ? sql`(select first_above from ${sql.raw(outer.name)}) + ` : sql``;
    ctes.push(sql`${sql.raw(`buckets_${span}`)} as (
      select ${listBuckets.start} as start, ${above}sum(${listBuckets.n}) over (order by ${listBuckets.start} desc) - ${listBuckets.n} as above
      from ${listBuckets}
      where ${listBuckets.list} = ${o.list} and ${listBuckets.key} = ${o.key} and ${listBuckets.span} = ${sql.raw(String(span))}${inside})`);
    // The oldest bucket with at most `first` rows above it (where the page starts), the same for
    // `last`, and the first one's rows above.
    ctes.push(sql`${sql.raw(name)} as materialized (
      select min(start) filter (where above <= ${first}) as first_start,
             min(start) filter (where above <= ${last}) as last_start,
             (array_agg(above order by start) filter (where above <= ${first}))[1] as first_above
      from ${sql.raw(`buckets_${span}`)})`);
    outer = { name, span };
  }
  const hour = sql.raw(String(HOUR_MS));
  const bounds = sql`${o.date} < ((select first_start from at_1) + 1)::bigint * ${hour}
      and ${o.date} >= (select last_start from at_1)::bigint * ${hour}`;
  return sql`(
    with ${sql.join(ctes, sql`, `)}
    select ${o.id} as id from ${o.table}
    where ${o.where ? sql`${o.where} and ` : sql``}${bounds}
    order by ${o.date} desc nulls last, ${o.id} desc nulls last
    limit (select ${o.limit}::bigint) offset (select ${first} - first_above from at_1)
  ) as page`;
}
