/** Shown wherever an admin or user has no avatar of their own. */
export const DEFAULT_AVATAR = '/default-avatar.svg';
