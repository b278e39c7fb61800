import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Db } from './client';
import { PLAIN, setLayers } from './layers';
import { direct } from './prepared';
import * as schema from './schema';
import { issues, settings, users } from './schema';

/**
 * direct() reads fields drizzle declares private (`queryConfig`, `fields`, `params`,
 * `joinsNotNullableMap`) and maps rows with a function generated from them. This fails, without a
 * database, when a drizzle upgrade moves those fields or maps rows otherwise: both are run over
 * one fake pool that answers the same rows, and must send the same statement and make the same
 * objects.
 */
function fakePool(rows: unknown[][]) {
  const sent: unknown[] = [];
  return {
    sent,
    pool: {
      // drizzle passes the values beside the config, direct() inside it.
      async query(config: Record<string, unknown>, values?: unknown[]) {
        sent.push({ ...config, values: values ?? config.values });
        return { rows, rowCount: rows.length, command: 'SELECT', fields: [] };
      },
    },
  };
}

const statement = (db: Db) =>
  db
    .select({
      id: issues.id,
      issueDate: issues.issueDate,
      title: sql<string>`upper(${issues.issueTitle})`,
      count: sql<number>`count(*)`.mapWith(Number),
      user: { id: users.id, nickname: users.nickname, registerDate: users.registerDate },
      require2fa: settings.value,
    })
    .from(issues)
    .leftJoin(users, eq(users.id, issues.userId))
    .leftJoin(settings, sql`${settings.key} = 'require_2fa'`)
    .where(eq(issues.id, sql.placeholder('id')))
    .prepare('direct_check');

describe('direct()', () => {
  // A row with its left-joined user found, and one without (its object is null, as drizzle makes it).
  const rows = [
    ['a1', '1700000000000', 'T1', '3', 'u1', '张三', '1690000000000', 'true'],
    ['a2', '1700000000001', 'T2', '5', null, null, null, null],
  ];

  it("sends drizzle's statement by name and makes the objects drizzle makes", async () => {
    const fake = fakePool(rows);
    const db = drizzle({ client: fake.pool as never, schema }) as unknown as Db;
    const prepared = statement(db);
    const fast = direct(db, prepared);
    expect(fast).not.toBe(prepared);
    const byDrizzle = await prepared.execute({ id: 'a1' });
    const byDirect = await fast.execute({ id: 'a1' });
    expect(byDirect).toEqual(byDrizzle);
    expect(byDrizzle[1].user).toBeNull();
    expect(typeof byDrizzle[0].issueDate).toBe('number');
    const [drizzleSent, directSent] = fake.sent as Array<Record<string, unknown>>;
    expect(directSent).toMatchObject({ name: 'direct_check', values: ['a1'], rowMode: 'array' });
    expect(directSent.text).toBe(drizzleSent.text);
    expect(directSent.values).toEqual(drizzleSent.values);
  });

  it("is drizzle's own execute without its layer", () => {
    const db = drizzle({ client: fakePool(rows).pool as never, schema }) as unknown as Db;
    setLayers(db, PLAIN);
    const prepared = statement(db);
    expect(direct(db, prepared)).toBe(prepared);
  });
});
