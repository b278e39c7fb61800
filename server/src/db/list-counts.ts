import { and, eq, sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import { listCounts, listDays } from './schema';

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

/** Lists whose rows per day of their date list_days keeps (migration 0003). */
export type DayCountedList = 'users';

/**
 * From this many rows in, a page of a day-counted list is found through list_days instead of by
 * skipping index entries: below it the plain walk is as cheap as adding the days up.
 */
export const DAY_ANCHOR_FROM = 2000;

/** The blocks of days that list_days also counts (migration 0003). */
const BLOCK_DAYS = 32;

/**
 * The ids of one page of `list`, newest first by `date` then `id`, `offset` rows in, as a
 * subquery named `page`. The kept blocks, added up from the newest, say which blocks the page's
 * first and last rows fall in; the kept days of those blocks, added up the same way, say which
 * days, and how many rows lie above the first day. The walk then reads only that stretch of the
 * (date desc, id desc) index and skips only rows of the first day; the two bounds also tell the
 * planner that the stretch is short, so it walks the index in order instead of sorting. Some
 * fifty kept rows are read instead of tens of thousands of index entries. One statement, one
 * snapshot: the counts and the rows agree. Exact for every offset, past the end included.
 *
 * The limit, too, is a subquery: a bare `LIMIT $n` makes PostgreSQL plan the statement again on
 * every call (a plan for the given page size always looks cheaper than the generic one), and
 * planning these CTEs cost three times their execution (pgbench: 3,500 → 9,900 tps). Nothing in
 * the plan depends on the values: the bounds come from the kept counts at run time.
 */
export function pageIdsByDays(list: DayCountedList, date: Column, id: Column, limit: Placeholder, offset: Placeholder): SQL {
  const first = sql`${offset}::bigint`;
  const last = sql`${offset}::bigint + ${limit}::bigint - 1`;
  // Of rows (day, above) where `above` grows as days get older: the oldest day with at most
  // `first` rows above it (where the page starts), the same for `last`, and the first one's above.
  const locate = (rows: string) => sql`
      select min(day) filter (where above <= ${first}) as first_day,
             min(day) filter (where above <= ${last}) as last_day,
             (array_agg(above order by day) filter (where above <= ${first}))[1] as first_above
      from ${sql.raw(rows)}`;
  return sql`(
    with blocks as (
      select day, sum(n) over (order by day desc) - n as above
      from ${listDays} where ${listDays.list} = ${list} and ${listDays.span} = ${BLOCK_DAYS}
    ), in_blocks as materialized (${locate('blocks')}
    ), days as (
      select day, (select first_above from in_blocks) + sum(n) over (order by day desc) - n as above
      from ${listDays} where ${listDays.list} = ${list} and ${listDays.span} = 1
        and day >= (select last_day from in_blocks) and day < (select first_day from in_blocks) + ${BLOCK_DAYS}
    ), in_days as materialized (${locate('days')}
    )
    select ${id} as id from ${date.table}
    where ${date} < ((select first_day from in_days) + 1)::bigint * 86400000
      and ${date} >= (select last_day from in_days)::bigint * 86400000
    order by ${date} desc nulls last, ${id} desc nulls last
    limit (select ${limit}::bigint) offset (select ${first} - first_above from in_days)
  ) as page`;
}
