import type { TrashEntry, TrashListQuery } from '#contract/trash';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

/** One page of the recycle bin for ProTable, newest deletion first. */
export function listTrash(params: TableParams<TrashListQuery>): Promise<TableResult<TrashEntry>> {
  return fetchTable<TrashEntry>('/api/trash', params);
}

export function restoreTrash(id: string): Promise<TrashEntry> {
  return api<TrashEntry>(`/api/trash/${encodeURIComponent(id)}/restore`, { method: 'POST' });
}

export function purgeTrash(id: string): Promise<TrashEntry> {
  return api<TrashEntry>(`/api/trash/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
