import { Type, type TSchema } from '@sinclair/typebox';
import { sql, type Column, type SQL } from 'drizzle-orm';

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

/**
 * One page of a list: its total and its rows, two queries whatever the page size. A page past
 * the end answers no rows with the true total.
 */
export async function paginate<T>(
  { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest,
  query: { count(): Promise<number>; rows(limit: number, offset: number): Promise<T[]> },
): Promise<Page<T>> {
  const [count, data] = await Promise.all([query.count(), query.rows(pageSize, (current - 1) * pageSize)]);
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
