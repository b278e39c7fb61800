import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';

export const TypeRecord = Type.Object(
  {
    _id: Id,
    typeName: Type.String(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
  },
  { title: 'Type' },
);
export type TypeRecord = Static<typeof TypeRecord>;

export const TypeBody = Type.Object({ typeName: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
export type TypeBody = Static<typeof TypeBody>;

export const TYPE_MESSAGES = {
  notFound: '类型不存在',
  /** A book, interview question or issue naming a typeId that does not exist. */
  unknown: '分类不存在',
  duplicate: '该类型已存在',
  /** Followed by the counts of what still uses the type. */
  inUse: '该分类下还有内容，无法删除',
} as const;
