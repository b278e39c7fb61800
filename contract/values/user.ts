export const USER_MESSAGES = {
  /** Also for an issue or comment naming a userId that does not exist. */
  notFound: '用户不存在',
  taken: '该用户已存在',
} as const;
