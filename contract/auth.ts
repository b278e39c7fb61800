import { Type, type Static } from '@sinclair/typebox';
import { TwoFactorChallenge } from './account';
import { Admin } from './admin';

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

export const AUTH_MESSAGES = {
  wrongCaptcha: '验证码错误',
  /** The same for an unknown loginId and a wrong password. */
  badCredentials: '账号或密码不正确',
  frozen: '该账号已经被冻结，请联系管理员',
  tooManyAttempts: '登录尝试过于频繁，请稍后再试',
  /** 401: no token, or one that no longer works. */
  sessionExpired: '登录过期，请重新登录',
  /** 403: a live token without the permission. */
  forbidden: '没有权限进行此操作',
} as const;
