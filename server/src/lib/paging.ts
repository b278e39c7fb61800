import type { Page } from '#contract/paging';

/** Validation fills in the defaults; they are repeated here so the types need no `!`. */
export interface PageRequest {
  current?: number;
  pageSize?: number;
}

export function mapPage<T, U>(page: Page<T>, map: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(map) };
}

/** One page in the contract's shape, from its rows and the total the list's filter matches. */
export function pageOf<T>(data: T[], count: number | string, { current, pageSize }: { current: number; pageSize: number }): Page<T> {
  const total = Number(count);
  return { currentPage: current, eachPage: pageSize, count: total, totalPage: Math.ceil(total / pageSize), data };
}
