import { Type, type Static } from '@sinclair/typebox';
import { ImagePath } from './fields';
import { PageQuery, Paged } from './paging';

export * from './values/account';

/** PATCH /api/admin/me: what an admin changes on itself from 个人设置 → 基本资料. */
export const UpdateMeBody = Type.Object(
  {
    nickname: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    avatar: Type.Optional(ImagePath),
  },
  { additionalProperties: false },
);
export type UpdateMeBody = Static<typeof UpdateMeBody>;

/** POST /api/admin/me/password. */
export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 128 }),
    newPassword: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** POST /api/admin/me/2fa/setup: a new secret, not active until /enable confirms a code computed from it. */
export const TwoFactorSetup = Type.Object(
  {
    secret: Type.String({ description: 'Base32 密钥（手动输入用）' }),
    otpauthUrl: Type.String({ description: 'otpauth:// 地址（二维码内容）' }),
  },
  { title: 'TwoFactorSetup' },
);
export type TwoFactorSetup = Static<typeof TwoFactorSetup>;

/** A six-digit TOTP code. */
export const TotpCode = Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$', description: '6 位动态验证码' });

export const TwoFactorEnableBody = Type.Object({ code: TotpCode }, { additionalProperties: false });
export type TwoFactorEnableBody = Static<typeof TwoFactorEnableBody>;

/** Ten single-use recovery codes, shown this once (only their hashes are kept). */
export const RecoveryCodes = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }) },
  { title: 'RecoveryCodes' },
);
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** GET /api/admin/me/2fa/recovery-codes: how many unused recovery codes are left (0 when two-step sign-in is off). */
export const RecoveryCodesLeft = Type.Object(
  { remaining: Type.Integer({ minimum: 0, description: '剩余可用的恢复码个数' }) },
  { title: 'RecoveryCodesLeft' },
);
export type RecoveryCodesLeft = Static<typeof RecoveryCodesLeft>;

/** POST /api/admin/me/2fa/recovery-codes: the current password or a TOTP code (exactly one). */
export const RegenerateRecoveryCodesBody = Type.Object(
  {
    currentPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    code: Type.Optional(TotpCode),
  },
  { additionalProperties: false },
);
export type RegenerateRecoveryCodesBody = Static<typeof RegenerateRecoveryCodesBody>;

export const TwoFactorDisableBody = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 128 }), code: TotpCode },
  { additionalProperties: false },
);
export type TwoFactorDisableBody = Static<typeof TwoFactorDisableBody>;

/** POST /api/admin/login's answer when the account has two-step sign-in: no token yet. */
export const TwoFactorChallenge = Type.Object(
  {
    twoFactorRequired: Type.Literal(true),
    challenge: Type.String({ description: '第二步的凭据：5 分钟内有效，只能用一次，不能当令牌用' }),
  },
  { title: 'TwoFactorChallenge' },
);
export type TwoFactorChallenge = Static<typeof TwoFactorChallenge>;

/** POST /api/admin/login/2fa: the challenge with either a code or a recovery code (exactly one). */
export const LoginTwoFactorBody = Type.Object(
  {
    challenge: Type.String({ minLength: 1, maxLength: 128 }),
    code: Type.Optional(TotpCode),
    recoveryCode: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type LoginTwoFactorBody = Static<typeof LoginTwoFactorBody>;

/** GET/PATCH /api/settings/security. */
export const SecuritySettings = Type.Object(
  { require2fa: Type.Boolean({ description: '要求所有管理员开启两步验证' }) },
  { title: 'SecuritySettings', additionalProperties: false },
);
export type SecuritySettings = Static<typeof SecuritySettings>;

/** One live session (a signed-in device). */
export const AdminSession = Type.Object(
  {
    id: Type.String(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
    lastSeenAt: Type.Integer({ description: 'epoch 毫秒，最多每分钟更新一次' }),
    expiresAt: Type.Integer({ description: 'epoch 毫秒' }),
    ip: Type.String(),
    browser: Type.String({ description: '由 User-Agent 解析，如「Chrome 120 · Windows」' }),
    current: Type.Boolean({ description: '是否为发出本请求的会话' }),
  },
  { title: 'AdminSession' },
);
export type AdminSession = Static<typeof AdminSession>;

export const SessionIdParams = Type.Object({ sessionId: Type.String({ pattern: '^[0-9a-f]{32}$' }) });

/** One sign-in attempt on an account (kept 90 days). */
export const LoginRecord = Type.Object(
  {
    id: Type.Integer(),
    at: Type.Integer({ description: 'epoch 毫秒' }),
    ip: Type.String(),
    browser: Type.String(),
    succeeded: Type.Boolean(),
    result: Type.String({ description: '结果说明，如「登录成功」「密码错误」「动态验证码错误」' }),
  },
  { title: 'LoginRecord' },
);
export type LoginRecord = Static<typeof LoginRecord>;

export const LoginRecordQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type LoginRecordQuery = Static<typeof LoginRecordQuery>;

export const LoginRecordPage = Paged(LoginRecord);
