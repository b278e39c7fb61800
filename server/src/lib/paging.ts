import { Type, type TSchema } from '@sinclair/typebox';
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Db } from '../db/client';

const FIRST_PAGE = 1;
const DEFAULT_PAGE_SIZE = 10;

/** The query every paged list takes; spread it into the list's query schema beside its filters. */
export const PageQuery = {
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: FIRST_PAGE, description: '页码，从 1 开始' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE_SIZE, description: '每页条数，默认 10，最多 100' }),
  ),
};

export const Paged = <T extends TSchema>(row: T) =>
  Type.Object({
    currentPage: Type.Integer(),
    eachPage: Type.Integer(),
    count: Type.Integer({ description: '符合条件的总条数' }),
    totalPage: Type.Integer(),
    data: Type.Array(row),
  });

/** Validation fills in the defaults; they are repeated here so the types need no `!`. */
export interface PageRequest {
  current?: number;
  pageSize?: number;
}

export interface Page<T> {
  currentPage: number;
  eachPage: number;
  count: number;
  totalPage: number;
  data: T[];
}

/** The rows of `table` that `where` lets through, counted: a scalar subquery for `paginate`. */
export function countedTotal(table: PgTable, where: SQL | undefined): SQL<number> {
  return sql<number>`(select count(*)::int from ${table} where ${where ?? sql`true`})`;
}

/**
 * Prepared statements of a list, one per combination of the filters a call gives (made on first
 * use): the busiest calls are then built by drizzle once, and parsed and planned by the database
 * once per connection. `prepare` gets a placeholder for each filter given, named after it, and the
 * statement's name; the page's limit and offset are the placeholders `limit` and `offset`.
 */
export function statementsByFilters<S>(
  list: string,
  prepare: (placeholders: Record<string, Placeholder>, name: string) => S,
): (given: string[]) => S {
  const made = new Map<string, S>();
  return (given) => {
    const key = given.join('_') || 'all';
    let statement = made.get(key);
    if (!statement) {
      const placeholders = Object.fromEntries(given.map((filter) => [filter, sql.placeholder(filter)]));
      made.set(key, (statement = prepare(placeholders, `${list}_list_${key}`)));
    }
    return statement;
  };
}

/** The names of the filters that have a value. */
export function givenFilters(values: Record<string, unknown>): string[] {
  return Object.keys(values).filter((key) => values[key] !== undefined);
}

/** A list's total on its own, for a page that has no row to carry it. */
export async function totalOf(db: Db, total: SQL<number>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${total} as n`);
  return Number(row.n);
}

/**
 * One page of a list and its total in one round trip: `rows` selects `total` (a scalar subquery,
 * which the database evaluates once) beside each row. Only a page past the end, which has no row
 * to carry it, asks for the total on its own; it answers no rows with the true total.
 */
export async function paginate<T>(
  { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest,
  query: { rows(limit: number, offset: number): Promise<Array<T & { total: number }>>; total(): Promise<number> },
): Promise<Page<T>> {
  const found = await query.rows(pageSize, (current - 1) * pageSize);
  const count = found.length ? Number(found[0].total) : await query.total();
  const data = found.map(({ total: _total, ...row }) => row as unknown as T);
  return { currentPage: current, eachPage: pageSize, count, totalPage: Math.ceil(count / pageSize), data };
}

export function mapPage<T, U>(page: Page<T>, map: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(map) };
}

/**
 * ORDER BY for "newest first": the date column, then the id, both descending. The lists' indexes
 * are built `desc nulls last`, and PostgreSQL uses an index for an ORDER BY only when it says the
 * same about nulls (a bare DESC means NULLS FIRST), even on NOT NULL columns.
 */
export function newestFirst(date: Column, id: Column): SQL[] {
  return [sql`${date} desc nulls last`, sql`${id} desc nulls last`];
}

export interface PageSourceOptions {
  table: PgTable;
  /** The list's date column and id, newest first (its index is on both). */
  date: PgColumn;
  id: PgColumn;
  where: SQL | undefined;
  /** A substring filter is given: its matches are read once, counted and sorted (see pageSource). */
  textFiltered: boolean;
  /** The total when no substring filter is given (a kept count). */
  kept: SQL<number>;
  /** By default the placeholders `limit` and `offset` of a prepared list statement. */
  limit?: number | Placeholder;
  offset?: number | Placeholder;
}

/**
 * Where a page's ids come from, as a subquery named `page`, the total to select beside its rows,
 * and the builder to select them with. Without a substring filter the ids come straight from the
 * date index (an index-only scan) and the total is a kept count. With one, the rows it lets
 * through are read once, into a CTE that is both counted and sorted for the page: its count needs
 * every match anyway, and the planner, which guesses a substring far more common than it is, would
 * otherwise walk the date index testing each row until it had a page (37 ms for page 1 of a
 * nickname matching 737 of 1M users, 1.8 s for its last page; 2 ms either way now).
 */
export function pageSource(db: Db, options: PageSourceOptions): { query: Pick<Db, 'select'>; pageIds: SQL; total: SQL<number> } {
  const o = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset'), ...options };
  if (!o.textFiltered) {
    const pageIds = db.select({ id: o.id }).from(o.table).where(o.where).orderBy(...newestFirst(o.date, o.id)).limit(o.limit).offset(o.offset);
    return { query: db, pageIds: sql`(${pageIds}) as page`, total: o.kept };
  }
  const matched = db.$with('matched').as(db.select({ id: o.id, date: o.date }).from(o.table).where(o.where));
  const pageIds = db
    .select({ id: matched.id })
    .from(matched)
    .orderBy(...newestFirst(matched.date, matched.id))
    .limit(o.limit)
    .offset(o.offset);
  return {
    query: db.with(matched) as unknown as Pick<Db, 'select'>,
    pageIds: sql`(${pageIds}) as page`,
    total: sql<number>`(select count(*)::int from ${matched})`,
  };
}
