import type { Issue } from '@/types/api';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/issue/${encodeURIComponent(id)}`;

export const ISSUE_FILTERS = ['issueTitle', 'typeId', 'issueStatus'] as const;

/** One page of issues for ProTable: filters issueTitle, typeId, issueStatus ('true' | 'false'). */
export function listIssues(params: TableParams): Promise<TableResult<Issue>> {
  return fetchTable<Issue>('/api/issue', params, ISSUE_FILTERS);
}

export function getIssue(id: string): Promise<Issue> {
  return api<Issue>(path(id));
}

export function updateIssue(
  id: string,
  changes: Partial<Pick<Issue, 'issueTitle' | 'issueContent' | 'typeId' | 'issueStatus'>>,
): Promise<Issue> {
  return api<Issue>(path(id), { method: 'PATCH', data: changes });
}

export async function removeIssue(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
