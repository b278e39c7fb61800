import type { Comment, CommentType } from '@/types/api';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

export const COMMENT_FILTERS = ['commentContent', 'typeId'] as const;

/** ProTable's `params` of the comment list: which kind it shows. */
export type CommentListParams = { commentType: CommentType };

/** One page of comments of one kind (1 on issues, 2 on books) for ProTable. */
export function listComments({
  commentType,
  ...params
}: TableParams & CommentListParams): Promise<TableResult<Comment>> {
  return fetchTable<Comment>(`/api/comment/${commentType}`, params, COMMENT_FILTERS);
}

/** One issue's comments, paged. */
export function listIssueComments(issueId: string, params: TableParams): Promise<TableResult<Comment>> {
  return fetchTable<Comment>(`/api/comment/issuecomment/${encodeURIComponent(issueId)}`, params, []);
}

export async function removeComment(id: string): Promise<void> {
  await api<unknown>(`/api/comment/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
