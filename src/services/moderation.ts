import { request } from '@umijs/max';
import type { AxiosResponse } from '@umijs/max';
import type {
  CreateModerationWordBody,
  ModerationImportBody,
  ModerationImportResult,
  ModerationSettings,
  ModerationSettingsPatch,
  ModerationTestResult,
  ModerationWord,
  ModerationWordQuery,
  RecheckBody,
  RecheckStatus,
} from '#contract/moderation';
import { api } from './api';
import { fileNameFrom, saveBlob } from './export';
import { fetchTable, type TableParams, type TableResult } from './table';

/** 审核规则 (docs/api.md, moderation rules). The writes need a fresh proof: the request layer asks for it. */
const BASE = '/api/moderation';

export function listWords(params: TableParams<ModerationWordQuery>): Promise<TableResult<ModerationWord>> {
  return fetchTable<ModerationWord>(`${BASE}/words`, params);
}

export const addWord = (body: CreateModerationWordBody) => api<ModerationWord>(`${BASE}/words`, { method: 'POST', data: body });

export const removeWord = (id: string) => api<null>(`${BASE}/words/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const importWords = (body: ModerationImportBody) =>
  api<ModerationImportResult>(`${BASE}/words/file`, { method: 'POST', data: body, timeout: 60_000 });

/** Downloads the list as the server's text file (`词<TAB>拒绝|待审|标记` a line) and answers its name. */
export async function exportWords(): Promise<string> {
  const response = (await request<Blob>(`${BASE}/words/file`, {
    method: 'GET',
    responseType: 'blob',
    getResponse: true,
    timeout: 60_000,
  })) as unknown as AxiosResponse<Blob | string>;
  const name = fileNameFrom(response.headers['content-disposition']) ?? '敏感词.txt';
  const body = response.data;
  saveBlob(body instanceof Blob ? body : new Blob([body], { type: 'text/plain;charset=utf-8' }), name);
  return name;
}

export const testText = (text: string) => api<ModerationTestResult>(`${BASE}/test`, { method: 'POST', data: { text } });

export const recheckStatus = () => api<RecheckStatus>(`${BASE}/recheck`);
export const startRecheck = (body: RecheckBody = {}) => api<RecheckStatus>(`${BASE}/recheck`, { method: 'POST', data: body });

export const moderationSettings = () => api<ModerationSettings>('/api/settings/moderation');
export const saveModerationSettings = (changes: ModerationSettingsPatch) =>
  api<ModerationSettings>('/api/settings/moderation', { method: 'PATCH', data: changes });
