import type { Interview, InterviewFields } from '@/types/api';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/interview/${encodeURIComponent(id)}`;

export const INTERVIEW_FILTERS = ['interviewTitle', 'typeId'] as const;

/** One page of interview questions for ProTable: filters interviewTitle, typeId. */
export function listInterviews(params: TableParams): Promise<TableResult<Interview>> {
  return fetchTable<Interview>('/api/interview', params, INTERVIEW_FILTERS);
}

export function getInterview(id: string): Promise<Interview> {
  return api<Interview>(path(id));
}

export function createInterview(fields: InterviewFields): Promise<Interview> {
  return api<Interview>('/api/interview', { method: 'POST', data: fields });
}

export function updateInterview(id: string, changes: Partial<InterviewFields>): Promise<Interview> {
  return api<Interview>(path(id), { method: 'PATCH', data: changes });
}

export async function removeInterview(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
