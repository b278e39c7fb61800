import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { listCounts } from './schema';

export type CountedList = 'users' | 'issues' | 'comments' | 'books' | 'interviews';

/**
 * The non-text filters a list's kept count is broken down by; an absent (or empty) one means
 * "any". A placeholder stands for a value given when a prepared statement runs.
 */
export interface CountKey {
  flag?: boolean | Placeholder;
  kind?: number | Placeholder;
  typeId?: string | Placeholder;
}

/**
 * How many rows of `list` match `key`, as a scalar subquery over the counts the triggers of
 * migration 0002 keep: a sum over at most a few dozen rows, exact and current with every
 * committed change.
 */
export function keptTotal(list: CountedList, key: CountKey = {}): SQL<number> {
  const where = and(
    eq(listCounts.list, list),
    key.flag === undefined ? undefined : eq(listCounts.flag, key.flag),
    key.kind === undefined ? undefined : eq(listCounts.kind, key.kind),
    key.typeId ? eq(listCounts.typeId, key.typeId) : undefined,
  );
  return sql<number>`(select coalesce(sum(${listCounts.n}), 0)::int from ${listCounts} where ${where})`;
}
