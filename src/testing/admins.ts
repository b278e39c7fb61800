import type { Admin } from '#contract/admin';

/** The super admin the admin-screen tests sign in as, and a normal admin beside it. */
export const ROOT_ADMIN: Admin = {
  _id: '65f1a2b3c4d5e6f708192a01',
  version: 1,
  loginId: 'root',
  nickname: '超级管理员',
  avatar: '/default-avatar.svg',
  permission: 1,
  enabled: true,
  createdAt: 1_700_000_000_000,
};

export const EDITOR_ADMIN: Admin = {
  ...ROOT_ADMIN,
  _id: '65f1a2b3c4d5e6f708192a02',
  loginId: 'editor',
  nickname: '内容编辑',
  permission: 2,
};
