import { eq, sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/harness';
import { canonicalLoginId } from '../lib/account-names';
import { hashPassword } from '../lib/passwords';
import { queryRows } from './client';
import { backfillLoginKeys, loginKeyCollisions } from './login-keys';
import { admins, users } from './schema';

/**
 * Rows written before migration 0004 have no login_key; the migration runner computes it, and
 * keeps the rows whose names already collide.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ID = (n: number) => n.toString(16).padStart(24, 'a');

it('computes the keys, keeps colliding rows with a suffixed key, reports them, and is idempotent', async () => {
  const { db } = t.database;
  const passwordHash = await hashPassword('Orchard-Lantern-1');
  const admin = (n: number, loginId: string) => ({
    id: ID(n),
    loginId,
    passwordHash,
    nickname: 'x',
    avatar: '',
    permission: 2,
    enabled: true,
    createdAt: n,
  });
  // As an older server wrote them: no login_key (the insert here bypasses the repository).
  await db.insert(admins).values([admin(1, 'Legacy'), admin(2, 'legacy'), admin(3, 'lеgacy'), admin(4, 'other')]);
  const user = (n: number, loginId: string) => ({
    id: ID(100 + n),
    loginId,
    passwordHash,
    nickname: 'u',
    avatar: '',
    registerDate: n,
    lastLoginDate: n,
  });
  await db.insert(users).values([user(1, 'Carol'), user(2, 'ｃａｒｏｌ')]);

  const collisions = await backfillLoginKeys(db);
  expect(collisions).toEqual([
    { table: 'admins', id: ID(2), loginId: 'legacy', loginKey: `${canonicalLoginId('legacy')} #${ID(2)}` },
    { table: 'admins', id: ID(3), loginId: 'lеgacy', loginKey: `${canonicalLoginId('legacy')} #${ID(3)}` },
    { table: 'users', id: ID(102), loginId: 'ｃａｒｏｌ', loginKey: `${canonicalLoginId('carol')} #${ID(102)}` },
  ]);
  // Every row kept; the oldest holds the plain key.
  const [oldest] = await db
    .select()
    .from(admins)
    .where(eq(admins.id, ID(1)));
  expect(oldest.loginKey).toBe(canonicalLoginId('legacy'));
  expect(
    (
      await db
        .select()
        .from(admins)
        .where(eq(admins.id, ID(4)))
    )[0].loginKey,
  ).toBe(canonicalLoginId('other'));
  expect(await loginKeyCollisions(db)).toEqual(expect.arrayContaining(collisions));
  expect(await loginKeyCollisions(db)).toHaveLength(3);
  // Nothing left to do the second time.
  expect(await backfillLoginKeys(db)).toEqual([]);
  const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from admins where login_key is null`);
  expect(Number(n)).toBe(0);

  // Each kept account still signs in by its exact name; a look-alike signs in to the oldest.
  const signedInAs = async (loginId: string) => (await t.login(loginId, 'Orchard-Lantern-1')).json().data.data._id;
  expect(await signedInAs('legacy')).toBe(ID(2));
  expect(await signedInAs('lеgacy')).toBe(ID(3));
  expect(await signedInAs('Legacy')).toBe(ID(1));
  expect(await signedInAs('LEGACY')).toBe(ID(1));
  // And a new look-alike is refused.
  const created = await t.inject({
    method: 'POST',
    url: '/api/admin',
    headers: { authorization: `Bearer ${await t.rootToken()}` },
    payload: { loginId: 'ＬＥＧＡＣＹ', loginPwd: 'Orchard-Lantern-2', permission: 2 },
  });
  expect(created.statusCode).toBe(409);
});
