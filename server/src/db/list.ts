import { and, eq, getTableColumns, ilike, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '../../../contract/paging';
import { likePattern } from '../lib/filters';
import type { PageRequest } from '../lib/paging';
import { queryRows, type Db } from './client';
import { direct } from './prepared';
import { DAY_ANCHOR_FROM, keptTotal, pageIdsByDays, type CountKey, type CountedList, type DayCountedList } from './list-counts';

/**
 * One declarative definition per paged list, in front of everything that makes the lists fast:
 * prepared statements per combination of filters, the kept counts (list_counts), deep pages by
 * kept days (list_days) and the page-of-ids-first query shape. Adding a filter to a list is one
 * line in its definition.
 */

/** A case-insensitive substring match (`%`, `_` and `\` taken literally). */
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
  /** The unfiltered list's deep pages through its kept days (migration 0003), if it has them. */
  days?: DayCountedList;
  /** Selects the page's rows, with `total`, from `page`; the definition orders and prepares it. */
  rows(source: PageRows): OrderableSelect<R>;
}

export type ListValues<F extends string> = Partial<Record<F, FilterValue | undefined>>;

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
  /** A substring filter is given: its matches are read once, counted and sorted. */
  textFiltered: boolean;
  /** The total when no substring filter is given (a kept count, or a count of the exact match). */
  total: SQL<number>;
}

/**
 * Where a page's ids come from, as a subquery named `page`, the total to select beside its rows,
 * and the builder to select them with. Without a substring filter the ids come straight from the
 * date index (an index-only scan). With one, the rows it lets through are read once, into a CTE
 * that is both counted and sorted for the page: its count needs every match anyway, and the
 * planner, which guesses a substring far more common than it is, would otherwise walk the date
 * index testing each row until it had a page (37 ms for page 1 of a nickname matching 737 of 1M
 * users, 1.8 s for its last page; 2 ms either way this way). The limit and offset are the
 * placeholders `limit` and `offset`.
 */
function pageSource(db: Db, o: PageSourceOptions): PageRows {
  const limit = sql.placeholder('limit');
  const offset = sql.placeholder('offset');
  if (!o.textFiltered) {
    const pageIds = db
      .select({ id: o.id })
      .from(o.table)
      .where(o.where)
      .orderBy(...newestFirst(o.date, o.id))
      .limit(limit)
      .offset(offset);
    return { query: db, pageIds: sql`(${pageIds}) as page`, total: o.total };
  }
  const matched = db.$with('matched').as(db.select({ id: o.id, date: o.date }).from(o.table).where(o.where));
  const pageIds = db
    .select({ id: matched.id })
    .from(matched)
    .orderBy(...newestFirst(matched.date as unknown as PgColumn, matched.id as unknown as PgColumn))
    .limit(limit)
    .offset(offset);
  return {
    query: db.with(matched) as unknown as Pick<Db, 'select'>,
    pageIds: sql`(${pageIds}) as page`,
    total: sql<number>`(select count(*)::int from ${matched})`,
  };
}

/**
 * One page and its total in one round trip: the statement selects the total (a scalar subquery,
 * evaluated once) beside each row. Only a page past the end, which has no row to carry it, asks
 * for the total on its own; it answers no rows with the true total.
 */
async function paginate<T>(
  { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest,
  query: { rows(limit: number, offset: number): Promise<Array<T & { total: number }>>; total(): Promise<number> },
): Promise<Page<T>> {
  const found = await query.rows(pageSize, (current - 1) * pageSize);
  const count = found.length ? Number(found[0].total) : await query.total();
  // The rows keep their `total` rather than being copied without it: every list's service maps
  // its rows into the contract's shape field by field, and the response schema writes only what
  // it declares.
  return { currentPage: current, eachPage: pageSize, count, totalPage: Math.ceil(count / pageSize), data: found };
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

  /** The filter and the total, with these values or with placeholders for them. */
  function listSql(values: Partial<Record<F, FilterValue | Placeholder>>) {
    const given = filters.filter(([name]) => values[name] !== undefined);
    const where = and(
      ...given.map(([name, filter]) =>
        filter.kind === 'text' ? ilike(filter.column, values[name] as string) : eq(filter.column, values[name]),
      ),
    );
    const textFiltered = given.some(([, filter]) => filter.kind === 'text');
    // Kept when every given filter is a key of the kept counts; anything else is counted.
    const kept = given.every(([, filter]) => filter.kind === 'exact' && filter.countKey);
    const key: CountKey = Object.fromEntries(given.map(([name, filter]) => [(filter as ExactFilter).countKey, values[name]]));
    const total = kept ? keptTotal(definition.counted, key) : countedTotal(definition.table, where);
    return { where, total, textFiltered };
  }

  // Made on first use, one per combination of given filters: built by drizzle once, and parsed
  // and planned by the database once per connection.
  const statements = new Map<string, { execute(values?: Record<string, unknown>): Promise<R[]> }>();
  function statementFor(given: F[]) {
    const key = given.join('_') || 'all';
    let statement = statements.get(key);
    if (!statement) {
      const placeholders = Object.fromEntries(given.map((name) => [name, sql.placeholder(name)])) as unknown as Partial<
        Record<F, Placeholder>
      >;
      const { where, total, textFiltered } = listSql(placeholders);
      const source = pageSource(db, { table: definition.table, date: definition.date, id: definition.id, where, textFiltered, total });
      statement = direct(
        definition
          .rows(source)
          .orderBy(...order)
          .prepare(`${definition.name}_list_${key}`),
      );
      statements.set(key, statement);
    }
    return statement;
  }

  // Deep pages of the unfiltered list: the kept days find where the page starts (see pageIdsByDays).
  const days = definition.days;
  const deep = days
    ? direct(
        definition
          .rows({
            query: db,
            pageIds: pageIdsByDays(days, definition.date, definition.id, sql.placeholder('limit'), sql.placeholder('offset')),
            total: keptTotal(definition.counted),
          })
          .orderBy(...order)
          .prepare(`${definition.name}_list_deep`),
      )
    : null;

  /** An empty filter means "no filter"; a substring becomes its ILIKE pattern. */
  function filterValues(given: ListValues<F>) {
    const values: Partial<Record<F, FilterValue>> = {};
    for (const [name, filter] of filters) {
      const value = given[name];
      if (value === undefined || value === '') continue;
      values[name] = filter.kind === 'text' ? likePattern(String(value)) : value;
    }
    return { values, names: filters.map(([name]) => name).filter((name) => values[name] !== undefined) };
  }

  // The keys the date and the id have in a selected row: where a scan's next batch starts.
  const columnKeys = Object.entries(getTableColumns(definition.table));
  const dateKey = columnKeys.find(([, column]) => column === definition.date)![0];
  const idKey = columnKeys.find(([, column]) => column === definition.id)![0];

  // Per combination of filters, the first batch and the batches after a (date, id) cursor.
  const scans = new Map<string, { execute(values?: Record<string, unknown>): Promise<R[]> }>();
  function scanFor(given: F[], after: boolean, batchSize: number) {
    const key = `${given.join('_') || 'all'}_${after ? 'next' : 'first'}_${batchSize}`;
    let statement = scans.get(key);
    if (!statement) {
      const placeholders = Object.fromEntries(given.map((name) => [name, sql.placeholder(name)])) as unknown as Partial<
        Record<F, Placeholder>
      >;
      const { where } = listSql(placeholders);
      // A row comparison the (date desc, id desc) index serves directly: the batch starts right after the last row.
      const cursor = after
        ? sql`(${definition.date}, ${definition.id}) < (${sql.placeholder('date')}, ${sql.placeholder('id')})`
        : undefined;
      const ids = db
        .select({ id: definition.id })
        .from(definition.table)
        .where(and(where, cursor))
        .orderBy(...order)
        // A literal, not a parameter: PostgreSQL's generic plan guesses 10% of the table for a
        // parameter limit and then joins by hashing every row (1.2 s a batch for 1M users, not 1 ms).
        .limit(batchSize);
      statement = direct(
        definition
          .rows({ query: db, pageIds: sql`(${ids}) as page`, total: sql<number>`0` })
          .orderBy(...order)
          .prepare(`${definition.name}_scan_${key}`),
      );
      scans.set(key, statement);
    }
    return statement;
  }

  return {
    async *scan(given, batchSize = 1000) {
      const size = Math.max(1, Math.trunc(batchSize));
      const { values, names } = filterValues(given);
      let cursor: { date: unknown; id: unknown } | null = null;
      for (;;) {
        const rows = await scanFor(names, cursor !== null, size).execute({ ...values, ...cursor });
        if (!rows.length) return;
        const last = rows[rows.length - 1] as Record<string, unknown>;
        cursor = { date: last[dateKey], id: last[idKey] };
        yield rows.map(({ total: _total, ...row }) => row as unknown as Omit<R, 'total'>);
        if (rows.length < size) return;
      }
    },

    list(given, page) {
      const { values, names } = filterValues(given);
      return paginate<Omit<R, 'total'>>(page, {
        total: async () => {
          const [row] = await queryRows<{ n: number }>(db, sql`select ${listSql(values).total} as n`);
          return Number(row.n);
        },
        rows: (limit, offset) => {
          if (deep && names.length === 0 && offset >= DAY_ANCHOR_FROM) return deep.execute({ limit, offset });
          return statementFor(names).execute({ ...values, limit, offset });
        },
      });
    },
  };
}
