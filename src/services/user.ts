import type { CreateUserBody, CreatedUser, UpdateUserBody, User, UserImpact, UserListQuery } from '#contract/user';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/user/${encodeURIComponent(id)}`;

/** One page of users for ProTable, filtered as UserListQuery allows. */
export function listUsers(params: TableParams<UserListQuery>): Promise<TableResult<User>> {
  return fetchTable<User>('/api/user', params);
}

export function getUser(id: string): Promise<User> {
  return api<User>(path(id));
}

export function updateUser(id: string, changes: UpdateUserBody): Promise<User> {
  return api<User>(path(id), { method: 'PATCH', data: changes });
}

/** The server returns a generated password once, only when the request carried none. */
export function createUser(user: CreateUserBody): Promise<CreatedUser> {
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
