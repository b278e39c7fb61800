import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { PageQuery } from './paging';

/** What can be in the recycle bin: every deletable record but admins and types. */
export const TrashEntity = Type.Union(
  [Type.Literal('user'), Type.Literal('book'), Type.Literal('interview'), Type.Literal('issue'), Type.Literal('comment')],
  { description: 'user 用户，book 书籍，interview 面试题，issue 问答，comment 评论' },
);
export type TrashEntity = Static<typeof TrashEntity>;

export const TRASH_ENTITY_LABELS: Record<TrashEntity, string> = {
  user: '用户',
  book: '书籍',
  interview: '面试题',
  issue: '问答',
  comment: '评论',
};

/** One deletion in the bin: what went, with how many records, by whom and when. */
export const TrashEntry = Type.Object(
  {
    _id: Id,
    entity: TrashEntity,
    entityId: Id,
    title: Type.String({ description: '登录账号、书名、题目、问答标题或评论的开头' }),
    cascaded: Type.Integer({ description: '随它一起删除的记录数（不含它自己）' }),
    deletedBy: Type.Object({ _id: Id, loginId: Type.String({ description: '删除时的登录账号' }) }),
    deletedAt: Type.Integer({ description: 'epoch 毫秒' }),
    expiresAt: Type.Integer({ description: '到期后由服务器彻底删除，epoch 毫秒' }),
  },
  { title: 'TrashEntry' },
);
export type TrashEntry = Static<typeof TrashEntry>;

export const TrashListQuery = Type.Object(
  { ...PageQuery, entity: Type.Optional(Type.Union([TrashEntity, Type.Literal('')], { description: '记录类型，空为全部' })) },
  { additionalProperties: false },
);
export type TrashListQuery = Static<typeof TrashListQuery>;

export const TRASH_MESSAGES = {
  notFound: '回收站中没有这条记录（可能已恢复、已彻底删除或已过期）',
  loginIdTaken: (loginId: string) => `登录账号「${loginId}」已被其他用户使用，无法恢复`,
  userGone: '所属用户已不存在或在回收站中，请先恢复该用户',
  issueGone: '所属问答已不存在或在回收站中，请先恢复该问答',
  bookGone: '所属书籍已不存在或在回收站中，请先恢复该书籍',
  typeGone: '所属分类已被删除，无法恢复',
} as const;
