import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { uploads } from '../../db/schema';
import { ConfigError, loadConfig } from '../../config';
import { contentFixtures } from '../../../test/content';
import { ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, type TestContext } from '../../../test/harness';
import { consistencyProblems } from '../../../test/live/consistency';
import { createAudit } from '../audit/audit';
import { createTrashRepository } from './trash.repository';
import { createTrashService, startTrashExpiry } from './trash.service';

const DAY = 24 * 60 * 60 * 1000;
let t: TestContext;
let root: Record<string, string>;
let normal: Record<string, string>;
beforeAll(async () => {
  t = await createTestContext();
  root = bearer(await t.rootToken());
  normal = bearer((await t.createAdmin('trash-normal', 2)).token);
}, 120_000);
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, as = root, payload?: object) =>
  t.inject({ method, url, headers: as, ...(payload && { payload }) });

async function post(url: string, payload: object): Promise<string> {
  const response = await api('POST', url, root, payload);
  expect(response.statusCode).toBe(201);
  return response.json().data._id;
}

/**
 * A small world where every cascade reaches across: two users who each ask and comment under
 * each other's issues and on a book, an interview question. Comments go through the API so that
 * the counters are kept as in production.
 */
async function world(tag: string) {
  const fixtures = contentFixtures(t.database.db);
  const typeId = await fixtures.type(`${tag}-type`);
  const alice = await fixtures.user({ loginId: `${tag}-alice` });
  const bob = await fixtures.user({ loginId: `${tag}-bob` });
  const aliceIssue = await fixtures.issue(alice, typeId, { issueStatus: true });
  const bobIssue = await fixtures.issue(bob, typeId);
  const book = await fixtures.book(typeId);
  const interview = await fixtures.interview(typeId);
  const comment = (userId: string, target: { issueId?: string; bookId?: string }) =>
    post('/api/comment', { userId, commentType: target.issueId ? 1 : 2, ...target, commentContent: `<p>${tag} ${userId}</p>` });
  const comments = {
    aliceOnOwn: await comment(alice, { issueId: aliceIssue }),
    bobOnAlice: await comment(bob, { issueId: aliceIssue }),
    aliceOnBob: await comment(alice, { issueId: bobIssue }),
    aliceOnBook: await comment(alice, { bookId: book }),
    bobOnBook: await comment(bob, { bookId: book }),
  };
  return { typeId, alice, bob, aliceIssue, bobIssue, book, interview, comments };
}

/** Everything a deletion may change and a restore must put back: every row, every kept count, the statistics. */
async function state() {
  const db = t.database.db;
  const all = async (table: string) => queryRows(db, sql`select * from ${sql.identifier(table)} t order by t.id`);
  const stats = (await api('GET', '/api/stats')).json().data;
  return {
    users: await all('users'),
    books: await all('books'),
    interviews: await all('interviews'),
    issues: await all('issues'),
    comments: await all('comments'),
    listCounts: await queryRows(db, sql`select list, flag, kind, type_id, n from list_counts where n <> 0 order by 1, 2, 3, 4`),
    listBuckets: await queryRows(db, sql`select list, key, span, start, n from list_buckets where n <> 0 order by 1, 2, 3, 4`),
    stats,
  };
}

async function entryOf(entityId: string) {
  const response = await api('GET', '/api/trash?pageSize=100');
  expect(response.statusCode).toBe(200);
  return response.json().data.data.find((e: { entityId: string }) => e.entityId === entityId);
}

describe('recycle bin: delete, then restore, puts every row, counter and statistic back', () => {
  const cases = [
    {
      entity: 'user',
      url: (w: World) => `/api/user/${w.alice}`,
      id: (w: World) => w.alice,
      title: (_w: World, tag: string) => `${tag}-alice`,
      cascaded: 5,
    },
    { entity: 'book', url: (w: World) => `/api/book/${w.book}`, id: (w: World) => w.book, cascaded: 2 },
    { entity: 'interview', url: (w: World) => `/api/interview/${w.interview}`, id: (w: World) => w.interview, cascaded: 0 },
    { entity: 'issue', url: (w: World) => `/api/issue/${w.aliceIssue}`, id: (w: World) => w.aliceIssue, cascaded: 2 },
    {
      entity: 'comment',
      url: (w: World) => `/api/comment/${w.comments.bobOnAlice}`,
      id: (w: World) => w.comments.bobOnAlice,
      // A comment names its issue: the bin says where it was.
      title: (w: World, tag: string) => `评论：${tag} ${w.bob}（问答：issue-${w.aliceIssue}）`,
      cascaded: 0,
    },
  ];

  it.each(cases)('$entity', async ({ entity, url, id, title, cascaded }) => {
    const tag = `bin-${entity}`;
    const w = await world(tag);
    const before = await state();

    expect((await api('DELETE', url(w))).statusCode).toBe(200);
    // Gone exactly as a real delete: no row, no detail, counters and kept counts exact.
    expect(await consistencyProblems(t.database.db)).toEqual([]);
    const during = await state();
    expect(during).not.toEqual(before);
    if (entity !== 'comment') expect((await api('GET', url(w))).statusCode).toBe(404);
    const entry = await entryOf(id(w));
    expect(entry).toMatchObject({ entity, cascaded, deletedBy: { loginId: 'root' } });
    if (title) expect(entry.title).toBe(title(w, tag));

    const restored = await api('POST', `/api/trash/${entry._id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ _id: entry._id, entity });
    expect(await state()).toEqual(before);
    expect(await consistencyProblems(t.database.db)).toEqual([]);
    expect(await entryOf(id(w))).toBeUndefined();
    // A second restore of the same entry finds nothing.
    expect((await api('POST', `/api/trash/${entry._id}/restore`)).statusCode).toBe(404);
  });

  it('a user deleted after one of their issues was deleted comes back without it; the issue then follows', async () => {
    const w = await world('bin-order');
    const before = await state();
    await api('DELETE', `/api/issue/${w.aliceIssue}`);
    await api('DELETE', `/api/user/${w.alice}`);
    const userEntry = await entryOf(w.alice);
    const issueEntry = await entryOf(w.aliceIssue);
    // The issue took the comments under it (Alice's own and Bob's); the user's entry holds her other two.
    expect([issueEntry.cascaded, userEntry.cascaded]).toEqual([2, 2]);
    // The issue cannot come back before its asker.
    const early = await api('POST', `/api/trash/${issueEntry._id}/restore`);
    expect({ status: early.statusCode, msg: early.json().msg }).toEqual({
      status: 409,
      msg: '所属用户已不存在或在回收站中，请先恢复该用户',
    });
    expect((await api('POST', `/api/trash/${userEntry._id}/restore`)).statusCode).toBe(200);
    expect((await api('POST', `/api/trash/${issueEntry._id}/restore`)).statusCode).toBe(200);
    expect(await state()).toEqual(before);
    expect(await consistencyProblems(t.database.db)).toEqual([]);
  });

  it('a bulk delete goes to the bin as one entry per record, each restorable, with its audit entries', async () => {
    const w = await world('bin-bulk');
    const before = await state();
    const bulk = await api('POST', '/api/user/batch', root, { action: 'delete', ids: [w.alice, w.bob] });
    expect(bulk.statusCode).toBe(200);
    expect(await consistencyProblems(t.database.db)).toEqual([]);
    const aliceEntry = await entryOf(w.alice);
    const bobEntry = await entryOf(w.bob);
    // Alice went first and took her issue with both comments under it and her two other comments;
    // Bob's entry holds what was left of his: his issue and his comment on the book.
    expect([aliceEntry.cascaded, bobEntry.cascaded]).toEqual([5, 2]);
    const audit = (await api('GET', '/api/audit?action=' + encodeURIComponent('批量删除') + '&entity=user&pageSize=100')).json().data.data;
    expect(audit.filter((e: { entityId: string }) => e.entityId === w.alice || e.entityId === w.bob)).toHaveLength(2);
    // Bob's comment under Alice's issue is in her entry: she can come back only after him.
    expect((await api('POST', `/api/trash/${aliceEntry._id}/restore`)).statusCode).toBe(409);
    expect((await api('POST', `/api/trash/${bobEntry._id}/restore`)).statusCode).toBe(200);
    expect((await api('POST', `/api/trash/${aliceEntry._id}/restore`)).statusCode).toBe(200);
    expect(await state()).toEqual(before);
    expect(await consistencyProblems(t.database.db)).toEqual([]);
  });
});

type World = Awaited<ReturnType<typeof world>>;

describe('recycle bin: conflicts, permissions, purge', () => {
  it('answers 409 naming the account when the loginId was taken meanwhile, and keeps the entry', async () => {
    const w = await world('bin-taken');
    await api('DELETE', `/api/user/${w.bob}`);
    await post('/api/user', { loginId: 'bin-taken-bob', loginPwd: 'password-123' });
    const entry = await entryOf(w.bob);
    const response = await api('POST', `/api/trash/${entry._id}/restore`);
    expect({ status: response.statusCode, msg: response.json().msg }).toEqual({
      status: 409,
      msg: '登录账号「bin-taken-bob」已被其他用户使用，无法恢复',
    });
    expect(await entryOf(w.bob)).toMatchObject({ _id: entry._id });
    expect(await consistencyProblems(t.database.db)).toEqual([]);
  });

  it('answers 409 when a name of the same canonical form was taken meanwhile (case, full width)', async () => {
    const w = await world('bin-canon');
    await api('DELETE', `/api/user/${w.bob}`);
    // Full-width letters and upper case: the same account name once folded (NFKC, case).
    await post('/api/user', { loginId: 'ＢＩＮ-CANON-BOB', loginPwd: 'password-123' });
    const entry = await entryOf(w.bob);
    const response = await api('POST', `/api/trash/${entry._id}/restore`);
    expect({ status: response.statusCode, msg: response.json().msg }).toEqual({
      status: 409,
      msg: '登录账号「bin-canon-bob」已被其他用户使用，无法恢复',
    });
    expect(await entryOf(w.bob)).toMatchObject({ _id: entry._id });
  });

  it('gives a user binned before canonical names existed its canonical key when restored', async () => {
    const w = await world('bin-rekey');
    await api('DELETE', `/api/user/${w.bob}`);
    const entry = await entryOf(w.bob);
    // An entry written before migration 0007: its user rows have no login_key.
    await t.database.db.execute(sql`
      update trash set rows = (
        select jsonb_agg(jsonb_set(part, '{rows}', (select jsonb_agg(r - 'login_key') from jsonb_array_elements(part->'rows') r)))
        from jsonb_array_elements(rows) part)
      where id = ${entry._id}`);
    expect((await api('POST', `/api/trash/${entry._id}/restore`)).statusCode).toBe(200);
    const [row] = await queryRows<{ login_key: string | null }>(t.database.db, sql`select login_key from users where id = ${w.bob}`);
    expect(row.login_key).toBe('bin-rekey-bob');
    // And the name is guarded again: a variant of it is refused.
    const twin = await api('POST', '/api/user', root, { loginId: 'BIN-REKEY-BOB', loginPwd: 'password-123' });
    expect({ status: twin.statusCode, msg: twin.json().msg }).toEqual({ status: 409, msg: '该用户已存在' });
  });

  it('answers 409 when a comment is restored whose issue or book is in the bin', async () => {
    const w = await world('bin-parent');
    await api('DELETE', `/api/comment/${w.comments.bobOnAlice}`);
    await api('DELETE', `/api/issue/${w.aliceIssue}`);
    await api('DELETE', `/api/comment/${w.comments.bobOnBook}`);
    await api('DELETE', `/api/book/${w.book}`);
    const onIssue = await entryOf(w.comments.bobOnAlice);
    const onBook = await entryOf(w.comments.bobOnBook);
    const issueRefused = await api('POST', `/api/trash/${onIssue._id}/restore`);
    expect({ status: issueRefused.statusCode, msg: issueRefused.json().msg }).toEqual({
      status: 409,
      msg: '所属问答已不存在或在回收站中，请先恢复该问答',
    });
    const bookRefused = await api('POST', `/api/trash/${onBook._id}/restore`);
    expect({ status: bookRefused.statusCode, msg: bookRefused.json().msg }).toEqual({
      status: 409,
      msg: '所属书籍已不存在或在回收站中，请先恢复该书籍',
    });
    expect((await api('POST', `/api/trash/${(await entryOf(w.aliceIssue))._id}/restore`)).statusCode).toBe(200);
    expect((await api('POST', `/api/trash/${onIssue._id}/restore`)).statusCode).toBe(200);
    const issue = (await api('GET', `/api/issue/${w.aliceIssue}`)).json().data;
    expect(issue.commentNumber).toBe(2);
    expect(await consistencyProblems(t.database.db)).toEqual([]);
  });

  it('a normal admin may restore what they may delete, but not a user; purging is for a super admin', async () => {
    const w = await world('bin-perm');
    await api('DELETE', `/api/user/${w.bob}`);
    await api('DELETE', `/api/interview/${w.interview}`, normal);
    const userEntry = await entryOf(w.bob);
    const interviewEntry = await entryOf(w.interview);
    expect(interviewEntry.deletedBy.loginId).toBe('trash-normal');
    expect((await api('POST', `/api/trash/${userEntry._id}/restore`, normal)).statusCode).toBe(403);
    expect((await api('DELETE', `/api/trash/${interviewEntry._id}`, normal)).statusCode).toBe(403);
    expect((await api('POST', `/api/trash/${interviewEntry._id}/restore`, normal)).statusCode).toBe(200);
    expect((await api('POST', `/api/trash/${userEntry._id}/restore`)).statusCode).toBe(200);
  });

  it('purge removes the entry for good, and the uploads only it referred to', async () => {
    const db = t.database.db;
    const fixtures = contentFixtures(db);
    const file = async () => {
      const id = `${Date.now().toString(16).padStart(12, '0')}${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}`.slice(0, 24);
      await db.insert(uploads).values({ id, ext: 'png', mime: 'image/png', size: 1, data: Buffer.from([1]), createdAt: Date.now() });
      return id;
    };
    const own = await file();
    const shared = await file();
    const elsewhere = await file();
    const typeId = await fixtures.type('bin-purge-type');
    const user = await fixtures.user({ loginId: 'bin-purge-user', avatar: `/static/uploads/${own}.png` });
    const issue = await fixtures.issue(user, typeId, { issueContent: `<p><img src="/static/uploads/${shared}.png"></p>` });
    await fixtures.book(typeId, { bookPic: `/static/uploads/${shared}.png` });
    const other = await fixtures.user({ loginId: 'bin-purge-other' });
    await fixtures.issue(other, typeId, { issueContent: `<p><img src="/static/uploads/${elsewhere}.png"></p>` });
    await api('DELETE', `/api/user/${other}`);
    await api('DELETE', `/api/user/${user}`);
    expect((await api('GET', `/api/issue/${issue}`)).statusCode).toBe(404);

    const entry = await entryOf(user);
    const purged = await api('DELETE', `/api/trash/${entry._id}`);
    expect(purged.statusCode).toBe(200);
    expect(await entryOf(user)).toBeUndefined();
    expect((await api('POST', `/api/trash/${entry._id}/restore`)).statusCode).toBe(404);
    const left = (await db.select({ id: uploads.id }).from(uploads)).map((r) => r.id);
    // Its own avatar went; the picture a live book shows and the one another entry holds stay.
    expect([left.includes(own), left.includes(shared), left.includes(elsewhere)]).toEqual([false, true, true]);
    expect((await api('GET', `/static/uploads/${shared}.png`, {})).statusCode).toBe(200);
  });
});

describe('recycle bin: what members paid for and earned', () => {
  const db = () => t.database.db;
  const unlocksOf = async (userId: string) =>
    (await queryRows<{ book_id: string }>(db(), sql`select book_id from book_unlocks where user_id = ${userId} order by book_id`)).map(
      (r) => r.book_id,
    );
  const historyOf = async (userId: string) =>
    queryRows<{ delta: number; reason: string }>(db(), sql`select delta, reason from points_ledger where user_id = ${userId} order by id`);
  const unlock = (bookId: string, token: string) => t.inject({ method: 'POST', url: `/api/book/${bookId}/unlock`, headers: bearer(token) });
  const pointsOf = async (userId: string) =>
    (await queryRows<{ points: number }>(db(), sql`select points from users where id = ${userId}`))[0]?.points;

  it('a book binned and brought back still shows its link to those who paid, and charges nobody twice', async () => {
    const fixtures = contentFixtures(db());
    const book = await fixtures.book(await fixtures.type('bin-paid-type'), { requirePoints: 30, downloadLink: 'https://pan.example/paid' });
    const member = await t.signUpMember('bin-paid', { ip: '10.77.0.1' });
    expect((await unlock(book, member.token)).statusCode).toBe(200);
    expect(await pointsOf(member.id)).toBe(70);

    await api('DELETE', `/api/book/${book}`);
    expect((await api('POST', `/api/trash/${(await entryOf(book))._id}/restore`)).statusCode).toBe(200);

    const detail = await t.inject({ method: 'GET', url: `/api/book/${book}`, headers: bearer(member.token) });
    expect(detail.json().data.downloadLink).toBe('https://pan.example/paid');
    expect((await unlock(book, member.token)).statusCode).toBe(200);
    expect(await pointsOf(member.id)).toBe(70);
    expect((await historyOf(member.id)).filter((e) => e.delta < 0)).toHaveLength(1);
  });

  it('a member and a book both binned come back with the unlock whichever is restored first; a purge forgets what it held', async () => {
    const fixtures = contentFixtures(db());
    const typeId = await fixtures.type('bin-both-type');
    for (const order of ['member first', 'book first'] as const) {
      const tag = order === 'member first' ? 'm' : 'b';
      const book = await fixtures.book(typeId, { requirePoints: 20 });
      const member = await t.signUpMember(`bin-both-${tag}`, { ip: `10.77.1.${tag === 'm' ? 1 : 2}` });
      expect((await unlock(book, member.token)).statusCode).toBe(200);
      const history = await historyOf(member.id);
      expect(history).toHaveLength(1);

      // The member goes first, then the book: the unlock belongs to both.
      await api('DELETE', `/api/user/${member.id}`);
      await api('DELETE', `/api/book/${book}`);
      const entries = { member: (await entryOf(member.id))._id, book: (await entryOf(book))._id };
      const first = order === 'member first' ? entries.member : entries.book;
      const second = order === 'member first' ? entries.book : entries.member;
      expect((await api('POST', `/api/trash/${first}/restore`)).statusCode).toBe(200);
      expect((await api('POST', `/api/trash/${second}/restore`)).statusCode).toBe(200);
      expect({
        order,
        unlocks: await unlocksOf(member.id),
        history: await historyOf(member.id),
        points: await pointsOf(member.id),
      }).toEqual({
        order,
        unlocks: [book],
        history,
        points: 80,
      });
    }

    // Purged for good: the member's history and unlocks go with them, and a purged book's unlocks.
    const book = await fixtures.book(typeId, { requirePoints: 10 });
    const keeper = await t.signUpMember('bin-both-keeper', { ip: '10.77.1.3' });
    const leaver = await t.signUpMember('bin-both-leaver', { ip: '10.77.1.4' });
    for (const member of [keeper, leaver]) expect((await unlock(book, member.token)).statusCode).toBe(200);
    await api('DELETE', `/api/user/${leaver.id}`);
    expect((await api('DELETE', `/api/trash/${(await entryOf(leaver.id))._id}`)).statusCode).toBe(200);
    expect([await unlocksOf(leaver.id), await historyOf(leaver.id)]).toEqual([[], []]);
    expect(await unlocksOf(keeper.id)).toEqual([book]);
    await api('DELETE', `/api/book/${book}`);
    expect((await api('DELETE', `/api/trash/${(await entryOf(book))._id}`)).statusCode).toBe(200);
    expect(await unlocksOf(keeper.id)).toEqual([]);
    expect(await historyOf(keeper.id)).toHaveLength(1);
  });
});

describe('recycle bin: list and retention', () => {
  it('lists newest first, paged like every list, filtered by entity', async () => {
    const w = await world('bin-list');
    await api('DELETE', `/api/interview/${w.interview}`);
    t.clock.advance(1000);
    await api('DELETE', `/api/book/${w.book}`);
    const page = (await api('GET', '/api/trash?current=1&pageSize=1')).json().data;
    expect(page).toMatchObject({ currentPage: 1, eachPage: 1, totalPage: page.count });
    expect(page.data[0]).toMatchObject({ entity: 'book', entityId: w.book });
    const interviews = (await api('GET', '/api/trash?entity=interview&pageSize=100')).json().data;
    expect(interviews.data.every((e: { entity: string }) => e.entity === 'interview')).toBe(true);
    expect(interviews.data.some((e: { entityId: string }) => e.entityId === w.interview)).toBe(true);
    expect((await api('GET', '/api/trash?entity=admin')).statusCode).toBe(400);
    expect(page.data[0].expiresAt - page.data[0].deletedAt).toBe(30 * DAY);
  });

  it('purges what has expired, in batches, and nothing younger', async () => {
    const db = t.database.db;
    const w = await world('bin-expiry');
    const service = createTrashService({
      db,
      trash: createTrashRepository(db),
      audit: createAudit({ now: t.clock.now }),
      retentionDays: 30,
      now: t.clock.now,
    });
    await service.purgeExpired();
    const fixtures = contentFixtures(db);
    const old = [];
    for (let i = 0; i < 5; i++) {
      const id = await fixtures.interview(w.typeId);
      await api('DELETE', `/api/interview/${id}`);
      old.push(id);
    }
    // Everything in the bin now (these five and what earlier tests left) expires in 30 days.
    const binned = (await api('GET', '/api/trash')).json().data.count;
    expect(binned).toBeGreaterThanOrEqual(5);
    t.clock.advance(29 * DAY);
    // A token of today: the one from the start of the file has expired with the clock.
    expect((await api('DELETE', `/api/interview/${w.interview}`, bearer(await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD)))).statusCode).toBe(
      200,
    );
    t.clock.advance(1 * DAY + 1);
    const purged = await service.purgeExpired(2);
    expect(purged.entries).toBe(binned);
    // Straight from the table: the tokens have expired with the clock.
    const held = async (entityId: string) => (await queryRows(db, sql`select 1 from trash where entity_id = ${entityId}`)).length;
    for (const id of old) expect(await held(id)).toBe(0);
    expect(await held(w.interview)).toBe(1);
    t.clock.advance(29 * DAY);
    expect(await service.purgeExpired(2)).toEqual({ entries: 1, uploads: 0 });
    expect(await held(w.interview)).toBe(0);
  });

  it('the expiry timer runs at once and then on its interval, and its stop waits for a run in progress', async () => {
    let runs = 0;
    let release = () => undefined as void;
    const service = {
      purgeExpired: () =>
        new Promise<{ entries: number; uploads: number }>((resolve) => {
          runs++;
          release = () => resolve({ entries: 0, uploads: 0 });
        }),
    };
    const stop = startTrashExpiry(service, 20, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 70));
    // One run at a time: the first has not finished, so the interval started no other.
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('TRASH_RETENTION_DAYS defaults to 30 and a bad value stops the start naming it', () => {
    expect(loadConfig({}).trashRetentionDays).toBe(30);
    expect(loadConfig({ TRASH_RETENTION_DAYS: '7' }).trashRetentionDays).toBe(7);
    for (const bad of ['0', 'abc', '-1', '99999']) {
      expect(() => loadConfig({ TRASH_RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRASH_RETENTION_DAYS: bad })).toThrow(/TRASH_RETENTION_DAYS/);
    }
  });
});
