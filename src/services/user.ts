import type { User, UserImpact } from '@/types/api';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/user/${encodeURIComponent(id)}`;

export const USER_FILTERS = ['loginId', 'nickname', 'enabled'] as const;

/** One page of users for ProTable: filters loginId, nickname, enabled ('true' | 'false'). */
export function listUsers(params: TableParams): Promise<TableResult<User>> {
  return fetchTable<User>('/api/user', params, USER_FILTERS);
}

export function getUser(id: string): Promise<User> {
  return api<User>(path(id));
}

export type UserChanges = Partial<Omit<User, '_id' | 'registerDate' | 'lastLoginDate'>> & {
  loginPwd?: string;
};

export function updateUser(id: string, changes: UserChanges): Promise<User> {
  return api<User>(path(id), { method: 'PATCH', data: changes });
}

export function createUser(
  user: UserChanges & { loginId: string },
): Promise<User & { initialPassword?: string }> {
  return api<User & { initialPassword?: string }>('/api/user', { method: 'POST', data: user });
}

export async function removeUser(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}

/** How many issues and comments go with the user when deleted. */
export function userImpact(id: string): Promise<UserImpact> {
  return api<UserImpact>(`${path(id)}/impact`);
}

export function userIsExist(loginId: string): Promise<boolean> {
  return api<boolean>(`/api/user/userIsExist/${encodeURIComponent(loginId)}`);
}
