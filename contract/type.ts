import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';

export * from './values/type';

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
