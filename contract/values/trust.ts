/** Texts of the version check, the fresh proof of identity and the first sign-in's password change. */
export const TRUST_MESSAGES = {
  /** 409 VERSION_CONFLICT: the record changed since the version the client sent. */
  versionConflict: '该记录已被其他管理员修改，请查看变化后重新载入或仍然保存',
  /** 403 REAUTH_REQUIRED. */
  reauthRequired: '需要重新验证身份',
  /** 403 PASSWORD_CHANGE_REQUIRED. */
  passwordChangeRequired: '请先修改初始密码',
  /** POST /api/admin/me/reauth with neither or both. */
  passwordOrCode: '请输入密码、动态验证码或使用通行密钥（三选一）',
  wrongPassword: '密码不正确',
  /** A passkey answer that is not one of this admin's passkeys signing this admin's proof challenge. */
  passkeyNotAccepted: '通行密钥验证失败',
} as const;
