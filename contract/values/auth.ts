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
