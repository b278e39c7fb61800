import type { TypeRecord } from '#contract/type';
import { api } from './api';

const path = (id: string) => `/api/type/${encodeURIComponent(id)}`;

/** All types, oldest first. */
export function listTypes(): Promise<TypeRecord[]> {
  return api<TypeRecord[]>('/api/type');
}

export function createType(typeName: string): Promise<TypeRecord> {
  return api<TypeRecord>('/api/type', { method: 'POST', data: { typeName } });
}

/** Renames a type; with the version the rename started from, a rename since is refused with 409. */
export function updateType(id: string, typeName: string, version?: number): Promise<TypeRecord> {
  return api<TypeRecord>(path(id), { method: 'PATCH', data: { typeName, version } });
}

export async function removeType(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
