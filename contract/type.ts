import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { IfVersion, Version } from './version';

export * from './values/type';

export const TypeRecord = Type.Object(
  {
    _id: Id,
    typeName: Type.String(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
    version: Version,
  },
  { title: 'Type' },
);
export type TypeRecord = Static<typeof TypeRecord>;

export const TypeBody = Type.Object({ typeName: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });
export type TypeBody = Static<typeof TypeBody>;

/** PATCH /api/type/{id}: the new name, and the version the rename started from (optional). */
export const RenameTypeBody = Type.Object({ ...TypeBody.properties, ...IfVersion }, { additionalProperties: false });
export type RenameTypeBody = Static<typeof RenameTypeBody>;
