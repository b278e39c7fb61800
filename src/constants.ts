/** Shown wherever an admin or user has no avatar of their own. */
export const DEFAULT_AVATAR = '/default-avatar.svg';

/** Shown wherever a book has no cover of its own. */
export const DEFAULT_COVER = '/default-cover.svg';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
