export const FIRST_PAGE = 1;

export const DEFAULT_PAGE_SIZE = 10;

/**
 * A search (a text filter) counts its matches exactly up to this many; beyond, `count` is an
 * estimate, rounded to two significant figures, and the answer says so with `countEstimated`.
 */
export const SEARCH_EXACT_COUNT_UP_TO = 5000;
