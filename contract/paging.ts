import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { FIRST_PAGE, DEFAULT_PAGE_SIZE, SEARCH_EXACT_COUNT_UP_TO } from './values/paging';

export * from './values/paging';

/** The query every paged list takes; spread it into the list's query schema beside its filters. */
export const PageQuery = {
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: FIRST_PAGE, description: '页码，从 1 开始' })),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE_SIZE, description: '每页条数，默认 10，最多 100' }),
  ),
};

// Filters arrive as query strings; an empty one means "no filter" (docs/api.md "Paging").

export const TextFilter = (description: string) =>
  Type.Optional(Type.String({ maxLength: 100, description: `${description}（包含即可，不分大小写）` }));

export const IdFilter = (description: string) => Type.Optional(Type.String({ pattern: '^(|[0-9a-f]{24})$', description }));

export const BooleanFilter = (description: string) =>
  Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('')], { description }));

export const Paged = <T extends TSchema>(row: T) =>
  Type.Object({
    currentPage: Type.Integer(),
    eachPage: Type.Integer(),
    count: Type.Integer({ description: '符合条件的总条数' }),
    countEstimated: Type.Optional(
      Type.Literal(true, {
        description: `仅当 count 为估计值时出现：文本筛选的匹配超过 ${SEARCH_EXACT_COUNT_UP_TO} 条时，count 为两位有效数字的估计`,
      }),
    ),
    totalPage: Type.Integer(),
    data: Type.Array(row),
  });

/** One page of `T`; generic, so it is derived through a schema standing for `T`. */
export type Page<T> = Static<ReturnType<typeof Paged<TUnsafe<T>>>>;
