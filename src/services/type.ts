import type { Type } from '@/types/api';
import { api } from './api';

const path = (id: string) => `/api/type/${encodeURIComponent(id)}`;

/** All types, oldest first. */
export function listTypes(): Promise<Type[]> {
  return api<Type[]>('/api/type');
}

export function createType(typeName: string): Promise<Type> {
  return api<Type>('/api/type', { method: 'POST', data: { typeName } });
}

export function updateType(id: string, typeName: string): Promise<Type> {
  return api<Type>(path(id), { method: 'PATCH', data: { typeName } });
}

export async function removeType(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
