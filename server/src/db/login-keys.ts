import { sql } from 'drizzle-orm';
import { canonicalLoginId } from '../lib/account-names';
import { queryRows, type Db } from './client';
import { writeTransaction } from './write-lock';

/** A row whose canonical account name was already held by an older row when login_key was first computed. */
export interface LoginKeyCollision {
  table: 'admins' | 'users';
  id: string;
  loginId: string;
  /** The suffixed key it was given: `<canonical> #<id>`. */
  loginKey: string;
}

const TABLES = [
  { table: 'admins', created: 'created_at' },
  { table: 'users', created: 'register_date' },
] as const;
const BATCH = 1000;

/**
 * Fills login_key for the rows that have none (every row, the first time after migration 0007).
 * SQL cannot compute a Unicode skeleton, and the key must come from the very function inserts use
 * (canonicalLoginId), so this runs in the migration runner, right after the SQL migrations.
 *
 * Rows that already collide (`admin` and `ADMIN` both exist) are kept: the oldest keeps the plain
 * key, each younger one gets `<key> #<its id>`. Such a key is unique and no sign-in computes it (a
 * canonical name cannot end in ` #` + an id: it would hold a space); the account still signs in by
 * its exact loginId (the lookups prefer an exact match). The collisions are answered to the caller
 * and found again at every start by loginKeyCollisions.
 */
export async function backfillLoginKeys(db: Db): Promise<LoginKeyCollision[]> {
  const collisions: LoginKeyCollision[] = [];
  for (const { table, created } of TABLES) {
    const pending = await queryRows<{ id: string; login_id: string }>(
      db,
      sql`select id, login_id from ${sql.identifier(table)} where login_key is null order by ${sql.identifier(created)}, id`,
    );
    for (let start = 0; start < pending.length; start += BATCH) {
      const batch = pending.slice(start, start + BATCH);
      const write = async (tx: Db) => {
        const wanted = batch.map((row) => ({ id: row.id, loginId: row.login_id, key: canonicalLoginId(row.login_id) }));
        const held = await queryRows<{ login_key: string }>(
          tx,
          sql`select login_key from ${sql.identifier(table)} where login_key in (select json_array_elements_text(${JSON.stringify(wanted.map((w) => w.key))}::json))`,
        );
        const taken = new Set(held.map((row) => row.login_key));
        const values = wanted.map((w) => {
          if (!taken.has(w.key)) {
            taken.add(w.key);
            return { id: w.id, k: w.key };
          }
          const loginKey = `${w.key} #${w.id}`;
          collisions.push({ table, id: w.id, loginId: w.loginId, loginKey });
          return { id: w.id, k: loginKey };
        });
        await tx.execute(sql`
          update ${sql.identifier(table)} t set login_key = v.k
          from json_to_recordset(${JSON.stringify(values)}::json) as v(id text, k text)
          where t.id = v.id and t.login_key is null`);
      };
      if (table === 'users') await writeTransaction(db, ['users'], write);
      else await db.transaction(write);
    }
  }
  return collisions;
}

/** Every row kept with a suffixed key (see backfillLoginKeys): the server logs them at start. */
export async function loginKeyCollisions(db: Db): Promise<LoginKeyCollision[]> {
  const rows = await queryRows<{ table: 'admins' | 'users'; id: string; login_id: string; login_key: string }>(
    db,
    sql`select 'admins' as "table", id, login_id, login_key from admins where login_key like '% #%'
        union all
        select 'users', id, login_id, login_key from users where login_key like '% #%'`,
  );
  return rows.map((row) => ({ table: row.table, id: row.id, loginId: row.login_id, loginKey: row.login_key }));
}
