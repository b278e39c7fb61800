import type { CreateUserBody, CreatedUser, UpdateUserBody, User, UserImpact, UserListQuery } from '#contract/user';
import type { MemberSession, PointsEntry } from '#contract/site';
import type { Page } from '#contract/paging';
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

/** The member's live sessions on the community site. */
export function listMemberSessions(id: string): Promise<MemberSession[]> {
  return api<MemberSession[]>(`${path(id)}/sessions`);
}

/** 结束会话: ends every session of the member on the community site. */
export function endMemberSessions(id: string): Promise<{ ended: number }> {
  return api<{ ended: number }>(`${path(id)}/sessions`, { method: 'DELETE' });
}

/** The member's points history, newest first. */
export function pointsHistory(id: string, current: number, pageSize: number): Promise<Page<PointsEntry>> {
  return api<Page<PointsEntry>>(`${path(id)}/points?current=${current}&pageSize=${pageSize}`);
}
