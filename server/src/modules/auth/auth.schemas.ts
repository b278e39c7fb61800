import { Type, type Static } from '@sinclair/typebox';
import { Admin } from '../admin/admin.schemas';

export const LoginBody = Type.Object(
  {
    loginId: Type.String({ minLength: 1, maxLength: 64 }),
    loginPwd: Type.String({ minLength: 1, maxLength: 128 }),
    captcha: Type.String({ maxLength: 16 }),
    remember: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const LoginResult = Type.Object(
  {
    token: Type.String(),
    data: Admin,
  },
  { title: 'LoginResult' },
);
export type LoginResult = Static<typeof LoginResult>;
