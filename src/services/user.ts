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

export type NewUser = UserChanges & { loginId: string };

/** The server returns a generated password once, only when the request carried none. */
export type CreatedUser = User & { initialPassword?: string };

export function createUser(user: NewUser): Promise<CreatedUser> {
  return api<CreatedUser>('/api/user', { method: 'POST', data: user });
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
