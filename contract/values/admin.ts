const CANNOT = '无法进行此操作';
export const ADMIN_MESSAGES = {
  notFound: '管理员不存在',
  taken: '该管理员已经注册过了',
  /** Disabling, demoting or deleting oneself. */
  cannot: CANNOT,
  lastSuper: `${CANNOT}：至少要保留一个启用的超级管理员`,
} as const;
