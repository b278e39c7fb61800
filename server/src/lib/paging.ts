import { Type, type TSchema } from '@sinclair/typebox';

export const FIRST_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;

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

export function mapPage<T, U>(page: Page<T>, map: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(map) };
}
