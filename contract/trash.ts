import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { PageQuery } from './paging';

import { TRASH_ENTITIES } from './values/trash';

export * from './values/trash';

/** What can be in the recycle bin: every deletable record but admins and types. */
export const TrashEntity = Type.Union(
  TRASH_ENTITIES.map((entity) => Type.Literal(entity)),
  { description: 'user 用户，book 书籍，interview 面试题，issue 问答，comment 评论' },
);
export type TrashEntity = Static<typeof TrashEntity>;

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
