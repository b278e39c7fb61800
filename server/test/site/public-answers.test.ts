import { eq, sql } from 'drizzle-orm';
import { Client } from 'pg';
import { SESSION_CHANNEL, TRUST_MS } from '../../src/db/change-feed';
import { queryRows, rememberedAnswers } from '../../src/db/client';
import { configuredLayers } from '../../src/db/configured';
import { ALL_LAYERS } from '../../src/db/layers';
import { issues } from '../../src/db/schema';
import { contentFixtures } from '../content';
import { bearer, createTestContext, type TestContext } from '../harness';

/**
 * The public site's reads kept in memory until a write to what they read (layer `answers`,
 * docs/decisions/0021): answered without a statement while nothing changed, and never stale after
 * a write, whichever call or process made it. On the database the suite runs on (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL, where another process's write comes through the triggers of
 * migration 0023).
 */

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestContext;
let root: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let authorId: string;
let issueId: string;
let bookId: string;
let ips = 0;
const freshIp = () => `10.7.${Math.floor(++ips / 250)}.${ips % 250}`;

beforeAll(async () => {
  // This file tests the layer itself: on, whatever DB_LAYERS says (on the embedded database its
  // version is the statement client's write count, so that layer too).
  t = await createTestContext({ SITE_SIGNUPS_PER_ADDRESS: '50' }, { layers: { ...configuredLayers(), statements: true, answers: true } });
  root = await t.rootToken();
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('前端');
  authorId = await fx.user({ nickname: '提问者' });
  issueId = await fx.issue(authorId, typeId, { issueTitle: '缓存的问题', issueStatus: true });
  bookId = await fx.book(typeId, { bookTitle: '缓存的书' });
  await fx.comment({ userId: authorId, commentType: 1, issueId, typeId, commentContent: '<p>第一条评论</p>' });
}, 120_000);
afterAll(() => t.close());

const get = async (url: string) => {
  const response = await t.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.statusCode === 200 ? response.json().data : null };
};
const READS = () => [
  '/api/issue?current=1&pageSize=10',
  `/api/issue/${issueId}`,
  `/api/comment/issuecomment/${issueId}?current=1&pageSize=10`,
  `/api/comment/bookcomment/${bookId}?current=1&pageSize=10`,
];

/**
 * Waits until every read answers without a statement (on PostgreSQL, once the change feed is
 * listening and trusted), failing after 15 s.
 */
async function untilRemembered(urls: string[]) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const url of urls) await get(url);
    if ((await t.countQueries(async () => Promise.all(urls.map(get)))) === 0) return;
    if (Date.now() > deadline) throw new Error('the public answers were never remembered');
    await sleep(50);
  }
}

describe('the public reads kept in memory', () => {
  it('answer the approved list, one question and the comment pages without a statement while nothing changed', async () => {
    await untilRemembered(READS());
    // What memory answers is what the database answers.
    const remembered = await Promise.all(READS().map(get));
    expect(remembered.every((answer) => answer.status === 200)).toBe(true);
    expect(remembered[1].body.issueTitle).toBe('缓存的问题');
    expect(remembered[2].body.data.map((row: { commentContent: string }) => row.commentContent)).toEqual(['<p>第一条评论</p>']);
    // What /metrics reports as public_answers_in_memory.
    expect(rememberedAnswers(t.database.db, 'answers')).toBeGreaterThanOrEqual(READS().length);
  });

  it('never keep a 404: a question approved later is seen at once', async () => {
    const pending = await fx.issue(authorId, typeId, { issueTitle: '待审核', issueStatus: false });
    expect((await get(`/api/issue/${pending}`)).status).toBe(404);
    expect((await get(`/api/issue/${pending}`)).status).toBe(404);
    const approve = await t.inject({
      method: 'PATCH',
      url: `/api/issue/${pending}`,
      headers: bearer(root),
      payload: { issueStatus: true },
    });
    expect(approve.statusCode).toBe(200);
    expect((await get(`/api/issue/${pending}`)).body.issueTitle).toBe('待审核');
  });

  it("show every write of this process at the next read: an admin's edit, withdrawal and deletion, a member's comment and nickname, views", async () => {
    const urls = READS();
    await untilRemembered(urls);
    const [list, one, comments] = urls;

    // An admin renames the question.
    await t.inject({ method: 'PATCH', url: `/api/issue/${issueId}`, headers: bearer(root), payload: { issueTitle: '改过的标题' } });
    expect((await get(one)).body.issueTitle).toBe('改过的标题');
    expect((await get(list)).body.data.map((row: { issueTitle: string }) => row.issueTitle)).toContain('改过的标题');

    // A member comments, then renames themself: the comment page shows both at once.
    const member = await t.signUpMember('cache-reader', { ip: freshIp() });
    await untilRemembered(urls);
    const posted = await t.inject({
      method: 'POST',
      url: '/api/comment',
      headers: bearer(member.token),
      remoteAddress: freshIp(),
      payload: { commentType: 1, issueId, commentContent: '<p>新评论</p>' },
    });
    expect(posted.statusCode).toBe(201);
    const page = (await get(comments)).body;
    expect(page.count).toBe(2);
    expect(page.data.map((row: { commentContent: string }) => row.commentContent)).toContain('<p>新评论</p>');
    await untilRemembered(urls);
    const renamed = await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      payload: { nickname: '改名的读者' },
    });
    expect(renamed.statusCode).toBe(200);
    const byMember = (await get(comments)).body.data.find((row: { userId: string }) => row.userId === member.id);
    expect(byMember.user.nickname).toBe('改名的读者');

    // Views, written by the once-a-second flush, show in the next read.
    await untilRemembered(urls);
    const before = (await get(one)).body.scanNumber;
    await t.inject({ method: 'PATCH', url: one, remoteAddress: freshIp(), payload: { scanNumber: 1 } });
    await t.app.siteViews.flush();
    expect((await get(one)).body.scanNumber).toBe(before + 1);

    // The admin deletes the comment, then withdraws the question: gone at once.
    await untilRemembered(urls);
    expect((await t.inject({ method: 'DELETE', url: `/api/comment/${posted.json().data._id}`, headers: bearer(root) })).statusCode).toBe(
      200,
    );
    expect((await get(comments)).body.count).toBe(1);
    await untilRemembered(urls);
    await t.inject({ method: 'PATCH', url: `/api/issue/${issueId}`, headers: bearer(root), payload: { issueStatus: false } });
    expect((await get(one)).status).toBe(404);
    expect((await get(comments)).status).toBe(404);
    expect((await get(list)).body.data.map((row: { _id: string }) => row._id)).not.toContain(issueId);
    await t.inject({ method: 'PATCH', url: `/api/issue/${issueId}`, headers: bearer(root), payload: { issueStatus: true } });
    expect((await get(one)).status).toBe(200);
  });
});

describe('with the layer off', () => {
  it('every read asks the database', async () => {
    const plain = await createTestContext({}, { layers: { ...ALL_LAYERS, answers: false } });
    try {
      const id = await contentFixtures(plain.database.db).issue(
        await contentFixtures(plain.database.db).user(),
        await contentFixtures(plain.database.db).type('后端'),
        { issueStatus: true },
      );
      await plain.inject({ method: 'GET', url: `/api/issue/${id}` });
      await sleep(TRUST_MS);
      expect(await plain.countQueries(() => plain.inject({ method: 'GET', url: `/api/issue/${id}` }))).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  }, 60_000);
});

onPostgres('on PostgreSQL, another process', () => {
  let other: Client;
  let listener: Client;

  beforeAll(async () => {
    const [{ name }] = await queryRows<{ name: string }>(t.database.db, sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    other = new Client({ connectionString: url.toString() });
    listener = new Client({ connectionString: url.toString() });
    await Promise.all([other.connect(), listener.connect()]);
    await listener.query(`listen ${SESSION_CHANNEL}`);
  });
  afterAll(async () => {
    await other?.end();
    await listener?.end();
  });

  it('writing what a read answers is seen within TRUST_MS', async () => {
    const one = `/api/issue/${issueId}`;
    const comments = `/api/comment/issuecomment/${issueId}?current=1&pageSize=10`;
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      await untilRemembered([one, comments]);
      await other.query('update issues set issue_title = $1 where id = $2', [`另一个进程改的 ${i}`, issueId]);
      const written = performance.now();
      while ((await get(one)).body.issueTitle !== `另一个进程改的 ${i}`) await sleep(2);
      delays.push(performance.now() - written);
    }
    await untilRemembered([comments]);
    await other.query('update users set avatar = $1 where id = $2', ['/static/uploads/other.png', authorId]);
    const written = performance.now();
    const avatarOf = async () => (await get(comments)).body.data.find((row: { userId: string }) => row.userId === authorId)?.user.avatar;
    while ((await avatarOf()) !== '/static/uploads/other.png') await sleep(2);
    delays.push(performance.now() - written);
    expect(Math.max(...delays)).toBeLessThanOrEqual(TRUST_MS);
  });

  it("announces what the public reads show, not a member's sign-in date or points", async () => {
    const heard: string[] = [];
    const onNotification = ({ payload }: { payload?: string }) => {
      if (payload && !payload.startsWith('hb ')) heard.push(payload);
    };
    listener.on('notification', onNotification);
    const announces = async (statement: string, values: unknown[]) => {
      // What earlier writes announced (the test before's, on a slow machine) arrives before this round trip ends.
      await listener.query('select 1');
      heard.length = 0;
      await other.query(statement, values);
      // A round trip on the listening connection: what was committed before has been delivered.
      await listener.query('select 1');
      return [...new Set(heard)];
    };
    try {
      expect(await announces('update users set last_login_date = $1 where id = $2', [Date.now(), authorId])).toEqual([]);
      expect(await announces('update users set points = points + 4 where id = $1', [authorId])).toEqual([]);
      expect(await announces('update users set nickname = $1 where id = $2', ['又改名', authorId])).toEqual(['users']);
      expect(await announces('update issues set scan_number = scan_number + 1 where id = $1', [issueId])).toEqual(['issues']);
      expect(await announces('update comments set held = held where issue_id = $1', [issueId])).toEqual(['comments']);
      expect(await announces('update books set scan_number = scan_number + 1 where id = $1', [bookId])).toEqual(['books']);
    } finally {
      listener.off('notification', onNotification);
    }
    // The write above reached this process's memory too.
    const [row] = await t.database.db.select({ scanNumber: issues.scanNumber }).from(issues).where(eq(issues.id, issueId));
    expect((await get(`/api/issue/${issueId}`)).body.scanNumber).toBe(row.scanNumber);
  });
});
