import { Type, type Static } from '@sinclair/typebox';
import { TwoFactorChallenge } from './account';
import { Admin } from './admin';

export * from './values/auth';

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

/** The reference's shape, kept: the token beside the admin. */
export const LoginResult = Type.Object(
  {
    token: Type.String(),
    data: Admin,
  },
  { title: 'LoginResult' },
);
export type LoginResult = Static<typeof LoginResult>;

/** POST /api/admin/login: a LoginResult, or (two-step sign-in on) a challenge for POST /api/admin/login/2fa. */
export const LoginAnswer = Type.Union([LoginResult, TwoFactorChallenge], { title: 'LoginAnswer' });
export type LoginAnswer = Static<typeof LoginAnswer>;
