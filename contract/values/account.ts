/** Administrators' passwords: at least this many characters (users keep MIN_PASSWORD_LENGTH of the server). */
export const ADMIN_MIN_PASSWORD_LENGTH = 8;

export const ACCOUNT_MESSAGES = {
  wrongCurrentPassword: '当前密码不正确',
  /** PATCH /api/admin/{own id} with loginPwd. */
  ownPasswordElsewhere: '修改自己的密码请到「个人设置 → 修改密码」，需要输入当前密码',
  passwordTooShort: `密码长度至少 ${ADMIN_MIN_PASSWORD_LENGTH} 位`,
  passwordCommon: '密码过于常见，容易被猜到，请换一个',
  passwordHasLoginId: '密码不能包含账号',
  passwordHasNickname: '密码不能包含昵称',
  wrongCode: '动态验证码不正确',
  wrongRecoveryCode: '恢复码不正确',
  codeOrRecoveryCode: '请输入动态验证码或恢复码（二选一）',
  challengeExpired: '验证已过期，请重新登录',
  twoFactorAlreadyOn: '两步验证已经开启',
  twoFactorNotSetUp: '请先获取两步验证密钥',
  twoFactorOff: '两步验证没有开启',
  newPasswordSame: '新密码不能与当前密码相同',
  /** Turning require2fa on without two-step sign-in of one's own would lock oneself out of the switch. */
  require2faSelfFirst: '请先为自己开启两步验证（或用通行密钥登录），再要求所有管理员开启',
  mustSetUp2fa: '管理员要求开启两步验证，请先在个人设置中开启',
  sessionNotFound: '该登录设备不存在或已退出',
  passwordOrCode: '请输入当前密码或动态验证码（二选一）',
} as const;

/** The `result` of a LoginRecord. */
export const LOGIN_RESULTS = {
  ok: '登录成功',
  badPassword: '账号或密码不正确',
  frozen: '账号已冻结',
  locked: '尝试过于频繁',
  twoFactorPending: '密码正确，等待动态验证码',
  badCode: '动态验证码错误',
  badRecoveryCode: '恢复码错误',
  recoveryCodeUsed: '使用恢复码登录',
  passkey: '使用通行密钥登录',
  badPasskey: '通行密钥验证失败',
} as const;
