import type { Page } from '#contract/paging';
import { DEFAULT_PAGE_SIZE } from '#contract/values/paging';
import { api } from './api';
import { startEarly, takeEarly } from './early';

/** docs/screens.md: a server-paged list shows 10 rows a page until the administrator picks another size. */
export { DEFAULT_PAGE_SIZE };

/**
 * ProTable's own keys in what it hands to `request`. `current` and `pageSize` are also the paging
 * every list query takes (contract/paging.ts); `keyword` is the toolbar's search box, which no list
 * offers.
 */
type ProTableKeys = { current?: number; pageSize?: number; keyword?: string };

/**
 * What a list function takes from ProTable: its own keys plus the search form's values, whose
 * names are the filters of the list's query in the contract. A filter is declared there and
 * nowhere else: the search form's column names it, and this passes it through.
 */
export type TableParams<Query> = ProTableKeys & Omit<Query, keyof ProTableKeys>;

/**
 * A filter of a list's query: what a searched column's `dataIndex` is. ProColumns takes any
 * string there, so a list screen writes `dataIndex: 'nickname' satisfies FilterKey<UserListQuery>`
 * and a filter renamed in the contract fails the type check at its column.
 */
export type FilterKey<Query> = Exclude<keyof Query, keyof ProTableKeys> & string;

/** What ProTable's `request` expects back, and whether `total` is the server's estimate (docs/api.md). */
export interface TableResult<T> {
  data: T[];
  total: number;
  success: boolean;
  countEstimated?: boolean;
}

/**
 * Builds `url?current=..&pageSize=..&filter=..`, dropping empty filters (ProTable leaves
 * `undefined` and '' for untouched fields). The query is in the URL itself so that what was asked
 * is plain to see in the network log. Paging the table leaves out falls to the server's defaults.
 */
export function pagedUrl(url: string, params: TableParams<Record<string, unknown>>): string {
  const { current, pageSize, keyword: _toolbarSearch, ...filters } = params;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ current, pageSize, ...filters })) {
    const text = value === undefined || value === null ? '' : String(value).trim();
    if (text !== '') query.set(key, text);
  }
  return `${url}?${query.toString()}`;
}

/** Fetches one page and answers it in ProTable's shape. */
export async function fetchTable<T>(url: string, params: TableParams<Record<string, unknown>>): Promise<TableResult<T>> {
  const target = pagedUrl(url, params);
  const page = await (takeEarly<Page<T>>('table', target) ?? api<Page<T>>(target));
  return { data: page.data, total: page.count, success: true, ...(page.countEstimated && { countEstimated: true }) };
}

/**
 * Asks for the unfiltered first page of `url` before its table exists (services/early.ts); the
 * table's first request takes it when it asks for the same page.
 */
export function fetchFirstPageEarly(url: string): void {
  const target = pagedUrl(url, { current: 1, pageSize: DEFAULT_PAGE_SIZE });
  startEarly('table', target, () => api<Page<unknown>>(target));
}
