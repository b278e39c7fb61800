import type { CreateInterviewBody, Interview, InterviewListQuery, UpdateInterviewBody } from '#contract/interview';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/interview/${encodeURIComponent(id)}`;

/** One page of interview questions for ProTable, filtered as InterviewListQuery allows. */
export function listInterviews(params: TableParams<InterviewListQuery>): Promise<TableResult<Interview>> {
  return fetchTable<Interview>('/api/interview', params);
}

export function getInterview(id: string): Promise<Interview> {
  return api<Interview>(path(id));
}

export function createInterview(fields: CreateInterviewBody): Promise<Interview> {
  return api<Interview>('/api/interview', { method: 'POST', data: fields });
}

export function updateInterview(id: string, changes: UpdateInterviewBody): Promise<Interview> {
  return api<Interview>(path(id), { method: 'PATCH', data: changes });
}

export async function removeInterview(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
