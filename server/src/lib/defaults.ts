/** Images bundled in public/ that stand in when a record has none of its own. */
export const DEFAULT_AVATAR = '/default-avatar.svg';
export const DEFAULT_BOOK_COVER = '/default-cover.svg';
export const DEFAULT_ADMIN_NICKNAME = '新增管理员';
/** The nickname of the super admin made at first start. */
export const FIRST_ADMIN_NICKNAME = '超级管理员';
/** A new user's nickname when none is given: this, followed by digits. */
export const DEFAULT_USER_NICKNAME = '新用户';
export const DEFAULT_USER_POINTS = 100;

/** Users' (public site accounts') passwords; administrators' have their own rules (lib/password-rules.ts). */
export const MIN_PASSWORD_LENGTH = 6;
