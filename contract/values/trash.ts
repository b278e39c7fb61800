/** What can be in the recycle bin: every deletable record but admins and types. */
export const TRASH_ENTITIES = ['user', 'book', 'interview', 'issue', 'comment'] as const;
export type TrashEntity = (typeof TRASH_ENTITIES)[number];

export const TRASH_ENTITY_LABELS: Record<TrashEntity, string> = {
  user: '用户',
  book: '书籍',
  interview: '面试题',
  issue: '问答',
  comment: '评论',
};

export const TRASH_MESSAGES = {
  notFound: '回收站中没有这条记录（可能已恢复、已彻底删除或已过期）',
  loginIdTaken: (loginId: string) => `登录账号「${loginId}」已被其他用户使用，无法恢复`,
  userGone: '所属用户已不存在或在回收站中，请先恢复该用户',
  issueGone: '所属问答已不存在或在回收站中，请先恢复该问答',
  bookGone: '所属书籍已不存在或在回收站中，请先恢复该书籍',
  typeGone: '所属分类已被删除，无法恢复',
} as const;
