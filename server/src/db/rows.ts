import { eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { BATCH_MESSAGES } from '#contract/audit';
import { badRequest } from '../lib/errors';
import type { Db } from './client';

type TableWithId = PgTable & { id: PgColumn };

/**
 * The row as it is before the write, locked until the transaction ends: what the audit entry's
 * "before" values and a revert's check read. Under the table's write lock no other writer can
 * change it anyway; the row lock also holds off writers that do not take the table lock.
 */
export async function lockRow<T extends TableWithId>(tx: Db, table: T, id: string): Promise<T['$inferSelect'] | null> {
  const rows = await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for('update');
  return (rows[0] as T['$inferSelect'] | undefined) ?? null;
}

/**
 * The rows of a batch, locked, in the order of `ids`; a 400 naming every id that does not exist,
 * before anything is written.
 */
export async function lockRows<T extends TableWithId>(tx: Db, table: T, ids: readonly string[]): Promise<Array<T['$inferSelect']>> {
  const rows = (await tx
    .select()
    .from(table as PgTable)
    .where(inArray(table.id, [...ids]))
    .orderBy(table.id)
    .for('update')) as Array<T['$inferSelect'] & { id: string }>;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw badRequest(`${BATCH_MESSAGES.unknownIds}${missing.join('、')}`);
  return ids.map((id) => byId.get(id)!);
}

/** A batch's ids once each, in the order given. */
export function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
