import type { Issue, IssueListQuery, UpdateIssueBody } from '#contract/issue';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/issue/${encodeURIComponent(id)}`;

/** One page of issues for ProTable, filtered as IssueListQuery allows. */
export function listIssues(params: TableParams<IssueListQuery>): Promise<TableResult<Issue>> {
  return fetchTable<Issue>('/api/issue', params);
}

export function getIssue(id: string): Promise<Issue> {
  return api<Issue>(path(id));
}

export function updateIssue(id: string, changes: UpdateIssueBody): Promise<Issue> {
  return api<Issue>(path(id), { method: 'PATCH', data: changes });
}

export async function removeIssue(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
