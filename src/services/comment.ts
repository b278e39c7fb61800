import type { CommentListQuery, CommentRow, CommentTypeParams, ParentCommentsQuery } from '#contract/comment';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

/**
 * One page of comments of one kind (1 on issues, 2 on books) for ProTable, filtered as
 * CommentListQuery allows; the kind comes in the table's `params`.
 */
export function listComments({
  commentType,
  ...params
}: TableParams<CommentListQuery> & CommentTypeParams): Promise<TableResult<CommentRow>> {
  return fetchTable<CommentRow>(`/api/comment/${commentType}`, params);
}

/** One issue's comments, paged. */
export function listIssueComments(issueId: string, params: TableParams<ParentCommentsQuery>): Promise<TableResult<CommentRow>> {
  return fetchTable<CommentRow>(`/api/comment/issuecomment/${encodeURIComponent(issueId)}`, params);
}

export async function removeComment(id: string): Promise<void> {
  await api<unknown>(`/api/comment/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
