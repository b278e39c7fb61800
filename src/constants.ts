/** Shown wherever an admin or user has no avatar of their own. */
export const DEFAULT_AVATAR = '/default-avatar.svg';

/** The server stores this cover for a book added without one. */
export const DEFAULT_BOOK_COVER = '/default-cover.svg';
