import { request } from '@umijs/max';
import type { AxiosResponse } from '@umijs/max';
import type { ExportResource } from '#contract/export';
import { pagedUrl } from './table';

/**
 * The file name a download names in its Content-Disposition: RFC 5987 `filename*` (the Chinese
 * name) first, the plain `filename` otherwise.
 */
export function fileNameFrom(disposition: string | undefined): string | null {
  if (!disposition) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) return decodeURIComponent(extended[1]);
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? null;
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked once the browser has taken the download: revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/**
 * Downloads `GET /api/{resource}/export` with the list's current filters (ProTable's paging keys
 * left out: an export is every page) and answers the file's name. Through the app's request, so
 * the Bearer token and the session handling are the lists' own; the download may take far longer
 * than the 3 s an ordinary call is given.
 */
export async function exportList(resource: ExportResource, params: Record<string, unknown>): Promise<string> {
  const { current: _current, pageSize: _pageSize, ...filters } = params;
  const response = (await request<Blob>(pagedUrl(`/api/${resource}/export`, filters), {
    method: 'GET',
    responseType: 'blob',
    getResponse: true,
    timeout: 10 * 60 * 1000,
  })) as unknown as AxiosResponse<Blob | string>;
  const name = fileNameFrom(response.headers['content-disposition']) ?? `${resource}.csv`;
  const body = response.data;
  saveBlob(body instanceof Blob ? body : new Blob([body], { type: 'text/csv;charset=utf-8' }), name);
  return name;
}
