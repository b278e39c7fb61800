import type { Page } from '@/types/api';
import { api } from './api';

/** What ProTable passes to `request`: paging plus the search form's values. */
export type TableParams = { current?: number; pageSize?: number } & Record<string, unknown>;

/** What ProTable's `request` expects back. */
export interface TableResult<T> {
  data: T[];
  total: number;
  success: boolean;
}

/**
 * Builds `url?current=..&pageSize=..&filter=..`, dropping empty filters (ProTable leaves
 * `undefined` and '' for untouched fields). The query is in the URL itself so that what was asked
 * is plain to see in the network log.
 */
export function pagedUrl(url: string, params: TableParams, allowed: readonly string[]): string {
  const query = new URLSearchParams();
  query.set('current', String(params.current ?? 1));
  query.set('pageSize', String(params.pageSize ?? 10));
  for (const key of allowed) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text !== '') query.set(key, text);
  }
  return `${url}?${query.toString()}`;
}

/** Fetches one page and answers it in ProTable's shape. */
export async function fetchTable<T>(
  url: string,
  params: TableParams,
  allowed: readonly string[],
): Promise<TableResult<T>> {
  const page = await api<Page<T>>(pagedUrl(url, params, allowed));
  return { data: page.data, total: page.count, success: true };
}
