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

type Part = keyof CountKey;
const PARTS: Part[] = ['flag', 'kind', 'typeId'];

function prepareSum(db: Db, parts: Part[], name: string) {
  return db
    .select({ n: sql<number>`coalesce(sum(${listCounts.n}), 0)::int` })
    .from(listCounts)
    .where(and(eq(listCounts.list, sql.placeholder('list')), ...parts.map((part) => eq(listCounts[part], sql.placeholder(part)))))
    .prepare(name);
}

// One prepared statement per database handle and combination of filters given (eight at most):
// every list call runs one, so it is neither built by drizzle nor planned again.
const prepared = new WeakMap<Db, Map<string, ReturnType<typeof prepareSum>>>();

/**
 * How many rows of `list` match `key`, from the counts the triggers of migration 0002 keep: a
 * sum over at most a few dozen rows, exact and current with every committed change.
 */
export async function keptCount(db: Db, list: CountedList, key: CountKey = {}): Promise<number> {
  const parts = PARTS.filter((part) => key[part] !== undefined && key[part] !== '');
  const name = `list_count_${parts.join('_') || 'all'}`;
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = new Map()));
  let statement = statements.get(name);
  if (!statement) statements.set(name, (statement = prepareSum(db, parts, name)));
  const [row] = await statement.execute({ list, ...Object.fromEntries(parts.map((part) => [part, key[part]])) });
  return Number(row.n);
}
