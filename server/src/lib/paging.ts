import type { Page } from '#contract/paging';

/** Validation fills in the defaults; they are repeated here so the types need no `!`. */
export interface PageRequest {
  current?: number;
  pageSize?: number;
}

export function mapPage<T, U>(page: Page<T>, map: (row: T) => U): Page<U> {
  return { ...page, data: page.data.map(map) };
}
