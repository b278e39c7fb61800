import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { LOCK_KEY, LOCK_ORDER, type LockedTable } from './entities';

export { LOCK_ORDER, type LockedTable };

/*
 * The tables whose writes take a lock (LOCK_ORDER, declared with each entity in entities.ts), in
 * the one order every transaction takes them.
 *
 * Why: a write to one of these tables also writes rows other writers share: the counter rows of
 * list_counts and list_buckets (statement triggers, migrations 0002 and 0009) and a parent's
 * commentNumber. Two transactions that took those rows in opposite orders deadlocked on
 * PostgreSQL (a comment added to an issue while another comment of it was deleted: issue row then
 * counter row against counter row then issue row). Instead of letting PostgreSQL pick a victim
 * and running it again, every transaction that writes these tables first takes one
 * transaction-scoped advisory lock per table it will write, all at once and in this order, and
 * only then touches any row:
 *
 * - two transactions that could wait on each other's rows both write a common table (a counter
 *   row belongs to one table's list; a parent row's commentNumber is written only by writers of
 *   that table; a parent's delete declares its children's tables, so it never waits on a child
 *   insert's key-share lock while the insert waits on it), so they hold that table's lock one
 *   after the other and never at once;
 * - the advisory locks themselves are always taken in one order, so waiting for them cannot form
 *   a cycle either.
 *
 * Writes to these tables are therefore serialised per table: a few milliseconds each, which a
 * back-office's write rate never notices, and the price of counters that are exact and never
 * deadlock. Readers take no lock and never wait. The wait for a lock is bounded by lock_timeout
 * (see openDatabase): past it the request answers 503.
 *
 * `admins` is in the order too, first: an admin's demotion, disabling or deletion locks its own row
 * and then counts the other enabled super admins, so two super admins demoting each other took
 * each other's rows in opposite orders and deadlocked (issue 26).
 *
 * The repositories' write methods take a `Locked<table>` handle, which only writeTransaction
 * makes, so a write that did not declare its table does not compile.
 */

// Any constant works (the two-key form keeps these apart from other advisory locks, such as the
// migration lock); it only has to be the same in every process of this product.
const LOCK_SPACE = 7001;

// Each table's key (an entity's lockKey) is fixed apart from its place in LOCK_ORDER: admins joined
// the order first (issue 26) without renumbering the others, so a process of the previous version
// still excludes this one on the content tables.

declare const held: unique symbol;

/** A transaction that holds the write locks of tables `T` (and maybe more). */
export type Locked<T extends LockedTable> = Db & { readonly [held]: { readonly [K in T]: true } };

/** Every locked table: for bulk writers (seed, restore, import) that write them all. */
export const ALL_TABLES: readonly LockedTable[] = LOCK_ORDER;

/**
 * Runs `work` in one transaction that first takes the write locks of `tables` in LOCK_ORDER, in
 * one statement, before any row is touched.
 */
export async function writeTransaction<T extends LockedTable, R>(
  db: Db,
  tables: readonly T[],
  work: (tx: Locked<T>) => Promise<R>,
): Promise<R> {
  const wanted = new Set<LockedTable>(tables);
  // PostgreSQL evaluates a select list from left to right: the locks are taken in this order.
  const calls = LOCK_ORDER.flatMap((table) => (wanted.has(table) ? [`pg_advisory_xact_lock(${LOCK_SPACE}, ${LOCK_KEY[table]})`] : []));
  return db.transaction(async (tx) => {
    if (calls.length) await tx.execute(sql.raw(`select ${calls.join(', ')}`));
    return work(tx as unknown as Locked<T>);
  });
}
