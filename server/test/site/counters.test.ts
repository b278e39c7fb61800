import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/app';
import { issues, pointsLedger, users } from '../../src/db/schema';
import { contentFixtures } from '../content';
import { bearer, createTestContext, type TestContext } from '../harness';

/**
 * The counters the server keeps for the public site, under load: views counted in memory and
 * written as increments, comments counted and paid in their own transaction. Meant for PostgreSQL
 * (TEST_DATABASE_URL, as CI runs it); on PGlite the same checks run on its one connection.
 */

let t: TestContext;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let askerId: string;
beforeAll(async () => {
  // What is checked is exactness under concurrency, not the wait bound: 200 writers queue on the
  // comments' write lock, and on a loaded machine the last ones would pass the 2 s bound (503).
  t = await createTestContext(
    { SITE_COMMENTS_PER_MEMBER: '1000', SITE_COMMENTS_PER_ADDRESS: '1000' },
    { timeouts: { acquireMs: 60_000, lockMs: 60_000, statementMs: 60_000 } },
  );
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('计数');
  askerId = await fx.user();
}, 120_000);
afterAll(() => t.close());

const scanNumber = async (id: string) => (await t.database.db.select({ n: issues.scanNumber }).from(issues).where(eq(issues.id, id)))[0].n;

it('1,000 concurrent views from 1,000 viewers are 1,000 views, written in one flush', async () => {
  const id = await fx.issue(askerId, typeId, { issueStatus: true });
  const answers = await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      t.inject({ method: 'PATCH', url: `/api/issue/${id}`, remoteAddress: `10.9.${i >> 8}.${i & 255}`, payload: { scanNumber: 1 } }),
    ),
  );
  expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
  // Nothing is written per request: the count waits in memory for the flush.
  expect(await scanNumber(id)).toBe(0);
  expect(await t.countQueries(() => t.app.siteViews.flush())).toBeLessThanOrEqual(4);
  expect(await scanNumber(id)).toBe(1000);
});

it('two servers on one database count views exactly together (increments, never totals)', async () => {
  const id = await fx.issue(askerId, typeId, { issueStatus: true });
  const second = await buildApp({ config: t.config, database: t.database, now: t.clock.now });
  try {
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 ? second : t.app).inject({
          method: 'PATCH',
          url: `/api/issue/${id}`,
          remoteAddress: `10.8.${i >> 8}.${i & 255}`,
          payload: { scanNumber: 1 },
        }),
      ),
    );
    await Promise.all([t.app.siteViews.flush(), second.siteViews.flush()]);
    expect(await scanNumber(id)).toBe(300);
  } finally {
    await second.close();
  }
});

it('200 concurrent comments: commentNumber +200 and +4 points each, every change in the ledger', async () => {
  const id = await fx.issue(askerId, typeId, { issueStatus: true });
  const member = await t.signUpMember('busy-commenter');
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      t.inject({
        method: 'POST',
        url: '/api/comment',
        headers: bearer(member.token),
        payload: { commentType: 1, issueId: id, commentContent: `<p>第 ${i} 条</p>` },
      }),
    ),
  );
  expect(answers.map((answer) => answer.statusCode).filter((status) => status !== 201)).toEqual([]);
  const [issue] = await t.database.db.select({ n: issues.commentNumber }).from(issues).where(eq(issues.id, id));
  expect(issue.n).toBe(200);
  const [user] = await t.database.db.select({ points: users.points }).from(users).where(eq(users.id, member.id));
  expect(user.points).toBe(100 + 200 * 4);
  const ledger = await t.database.db.select().from(pointsLedger).where(eq(pointsLedger.userId, member.id));
  expect(ledger).toHaveLength(200);
  // Each entry's balance is the one it left: the balances are exactly 104, 108, …, 900.
  expect(ledger.map((entry) => entry.balance).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => 104 + 4 * i));
}, 120_000);

it('views counted but not yet written are written when the server closes', async () => {
  const id = await fx.issue(askerId, typeId, { issueStatus: true });
  const other = await buildApp({ config: t.config, database: t.database, now: t.clock.now });
  await other.inject({ method: 'PATCH', url: `/api/issue/${id}`, payload: { scanNumber: 1 } });
  await other.close();
  expect(await scanNumber(id)).toBe(1);
});
