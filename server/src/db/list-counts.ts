import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { listCounts } from './schema';

export type CountedList = 'users' | 'issues' | 'comments' | 'books' | 'interviews';

/** The non-text filters a list's kept count is broken down by; an absent (or empty) one means "any". */
export interface CountKey {
  flag?: boolean;
  kind?: number;
  typeId?: string;
}

/**
 * How many rows of `list` match `key`, from the counts the triggers of migration 0002 keep: a
 * sum over at most a few dozen rows, exact and current with every committed change.
 */
export async function keptCount(db: Db, list: CountedList, key: CountKey = {}): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${listCounts.n}), 0)::int` })
    .from(listCounts)
    .where(
      and(
        eq(listCounts.list, list),
        key.flag === undefined ? undefined : eq(listCounts.flag, key.flag),
        key.kind === undefined ? undefined : eq(listCounts.kind, key.kind),
        key.typeId ? eq(listCounts.typeId, key.typeId) : undefined,
      ),
    );
  return Number(row.n);
}
