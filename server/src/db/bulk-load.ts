import { sql } from 'drizzle-orm';
import type { Db } from './client';

const COMMENT_GRAMS_INDEX = 'comments_comment_content_grams_idx';
const COMMENT_GRAMS = sql.identifier(COMMENT_GRAMS_INDEX);

/**
 * A bulk load of comments (the seed, an import, a restore): while it runs, the comment texts' grams go
 * through GIN's pending list and are merged into the index once at the end, three times faster
 * than writing each into the index; a member's single comment is written straight in
 * (docs/decisions/0022). Concurrent loads are safe: the first to finish only makes the other slower.
 */
export async function loadingComments<T>(db: Db, load: () => Promise<T>): Promise<T> {
  await db.execute(sql`alter index ${COMMENT_GRAMS} set (fastupdate = on)`);
  try {
    return await load();
  } finally {
    // Off before the merge, so that nothing is appended to the list once it is empty.
    await db.execute(sql`alter index ${COMMENT_GRAMS} set (fastupdate = off)`);
    await db.execute(sql`select gin_clean_pending_list(${COMMENT_GRAMS_INDEX}::regclass)`);
  }
}
