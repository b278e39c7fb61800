import { eq, inArray, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS } from '#contract/audit';
import { ERROR_CODES } from '#contract/envelope';
import { AWAITING_APPROVAL_RULE } from '#contract/review';
import { comments, issues, moderationFlags, pointsLedger, trash, users } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { awaitingApproval } from './review.service';
import { earned } from '../site/comment-credit';
import { queryRows, type Db } from '../../db/client';
import { bearer, createTestContext, passwordOf, ROOT_LOGIN, ROOT_PASSWORD, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
let other: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let authorId: string;
const base = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('reviewer-a', 2)).token;
  other = (await t.createAdmin('reviewer-b', 2)).token;
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('审核');
  authorId = await fx.user({ loginId: 'author-1', nickname: '作者', registerDate: base - 10 * 86_400_000 });
});
afterAll(() => t.close());

const as = (who = token) => ({ headers: bearer(who) });
const queue = async (query = '') => (await t.inject({ method: 'GET', url: `/api/review${query}`, ...as() })).json();
const decide = (payload: object, who = token) => t.inject({ method: 'POST', url: '/api/review/decisions', ...as(who), payload });

describe('the queue', () => {
  let first: string;
  let second: string;
  let live: string;
  beforeAll(async () => {
    second = await fx.issue(authorId, typeId, { issueTitle: '第二个', issueDate: base + 2000, issueStatus: false });
    first = await fx.issue(authorId, typeId, {
      issueTitle: '第一个',
      issueContent: '<p onclick="x()">你好<script>alert(1)</script></p>',
      issueDate: base + 1000,
      issueStatus: false,
    });
    live = await fx.issue(authorId, typeId, { issueTitle: '已发布', issueDate: base, issueStatus: true });
  });

  it('reads the questions awaiting approval in their index order, never sorting all that wait', async () => {
    // With sorting priced out, a plan still sorts only when the ORDER BY cannot walk the index
    // (a bare ASC read backwards over a `desc nulls last` index is such a case).
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_sort = off`);
      await tx.execute(sql`set local enable_seqscan = off`);
      return JSON.stringify(await tx.execute(sql`explain ${awaitingApproval(20)}`));
    });
    expect(plan).toContain('issues_status_date_idx');
    expect(plan).not.toContain('Sort');
  });

  it('lists questions awaiting approval oldest first, with safe content, reasons and the author file', async () => {
    const page = await queue();
    expect(page.data.count).toBe(2);
    expect(page.data.data.map((item: { id: string }) => item.id)).toEqual([first, second]);
    const [item] = page.data.data;
    expect(item).toMatchObject({ kind: 'issue', id: first, title: '第一个', reasons: [{ rule: AWAITING_APPROVAL_RULE, words: [] }] });
    expect(item.content).toBe('<p>你好</p>');
    expect(item.author).toMatchObject({ _id: authorId, loginId: 'author-1', issues: { published: 1, held: 2, rejected: 0 } });
    expect(item.author.accountAgeDays).toBeGreaterThanOrEqual(10);
    expect(page.data.data.some((i: { id: string }) => i.id === live)).toBe(false);
    expect((await queue('?kind=comment')).data.count).toBe(0);
    expect((await queue('?rule=word')).data.count).toBe(0);
    // A rule is chosen from the known ones, not searched for.
    expect((await t.inject({ method: 'GET', url: '/api/review?rule=other', ...as() })).statusCode).toBe(400);
  });

  it('approves: the question goes live, the audit log says who, and a second decision is a 409 naming them', async () => {
    const approved = await decide({ items: [{ kind: 'issue', id: first }], decision: 'approve' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.done).toBe(1);
    const [row] = await t.database.db.select().from(issues).where(eq(issues.id, first));
    expect(row.issueStatus).toBe(true);
    const again = await decide(
      {
        items: [
          { kind: 'issue', id: first },
          { kind: 'issue', id: second },
        ],
        decision: 'reject',
      },
      other,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().errorCode).toBe(ERROR_CODES.conflict);
    expect(again.json().msg).toContain('第一个');
    expect(again.json().msg).toContain(`reviewer-a ${AUDIT_ACTIONS.approve}`);
    // All or nothing: the other item is untouched.
    const [waiting] = await t.database.db.select().from(issues).where(eq(issues.id, second));
    expect(waiting.issueStatus).toBe(false);

    // 撤销 through the audit log's revert: it waits again.
    const undo = await t.inject({ method: 'POST', url: `/api/audit/${approved.json().data.auditIds[0]}/revert`, ...as() });
    expect(undo.statusCode).toBe(200);
    expect((await queue()).data.count).toBe(2);
  });

  it('rejects with a reason into the recycle bin, audit logged, and 撤销 brings it back', async () => {
    const rejected = await decide({ items: [{ kind: 'issue', id: second }], decision: 'reject', reason: '广告' });
    expect(rejected.statusCode).toBe(200);
    expect(await t.database.db.select().from(issues).where(eq(issues.id, second))).toEqual([]);
    const binned = await t.database.db.select().from(trash).where(eq(trash.entityId, second));
    expect(binned).toHaveLength(1);
    const [auditId] = rejected.json().data.auditIds;
    const history = (await t.inject({ method: 'GET', url: `/api/audit/issue/${second}`, ...as() })).json();
    const entry = history.data.find((e: { _id: string }) => e._id === auditId);
    expect(entry).toMatchObject({ action: AUDIT_ACTIONS.reviewReject, revertible: true });
    expect(entry.changes).toContainEqual({ field: 'reason', after: '广告' });
    const file = (await t.inject({ method: 'GET', url: `/api/user/${authorId}/file`, ...as() })).json().data;
    expect(file.issues.rejected).toBe(1);

    const late = await decide({ items: [{ kind: 'issue', id: second }], decision: 'approve' }, other);
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toContain(`reviewer-a ${AUDIT_ACTIONS.reviewReject}`);

    expect((await t.inject({ method: 'POST', url: `/api/audit/${auditId}/revert`, ...as() })).statusCode).toBe(200);
    const page = await queue();
    expect(page.data.data.map((i: { id: string }) => i.id)).toContain(second);
    expect(page.data.data.find((i: { id: string }) => i.id === second).author.issues.rejected).toBe(0);
  });

  it('decides several at once, all or nothing', async () => {
    const ids = (await queue()).data.data.map((i: { id: string }) => i.id);
    const both = await decide({ items: ids.map((id: string) => ({ kind: 'issue', id })), decision: 'approve' });
    expect(both.json().data).toMatchObject({ done: ids.length });
    expect((await queue()).data.count).toBe(0);
  });

  it('keeps a list of reasons', async () => {
    const added = await t.inject({ method: 'POST', url: '/api/review/reasons', ...as(), payload: { text: '垃圾广告' } });
    expect(added.statusCode).toBe(201);
    const twice = await t.inject({ method: 'POST', url: '/api/review/reasons', ...as(), payload: { text: '垃圾广告' } });
    expect(twice.statusCode).toBe(409);
    const list = (await t.inject({ method: 'GET', url: '/api/review/reasons', ...as() })).json().data;
    expect(list.map((r: { text: string }) => r.text)).toEqual(['垃圾广告']);
    expect((await t.inject({ method: 'DELETE', url: `/api/review/reasons/${list[0]._id}`, ...as() })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/review/reasons', ...as() })).json().data).toEqual([]);
  });

  it('refuses every call without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/review'],
      ['GET', '/api/review/counts'],
      ['GET', '/api/review/events'],
      ['POST', '/api/review/decisions'],
      ['POST', '/api/review/presence'],
      ['GET', `/api/user/${authorId}/sanctions`],
      ['GET', `/api/user/${authorId}/notes`],
      ['GET', `/api/user/${authorId}/file`],
    ] as const) {
      expect((await t.inject({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('items held or flagged by a rule', () => {
  let issueId: string;
  let held: string;
  let flaggedUser: string;
  const flag = async (kind: string, itemId: string, createdAt: number, words: string[]) => {
    const [row] = await t.database.db
      .insert(moderationFlags)
      .values({ kind, itemId, reasons: [{ rule: 'word', action: 'hold', words }], createdAt })
      .returning({ id: moderationFlags.id });
    return row.id;
  };
  beforeAll(async () => {
    issueId = await fx.issue(authorId, typeId, { issueTitle: '评论所在', issueStatus: true });
    held = await fx.comment({
      userId: authorId,
      typeId,
      issueId,
      held: true,
      commentContent: '<p>加微信 <b>vx123</b></p>',
      commentDate: base + 10,
    });
    await flag('comment', held, base + 10, ['微信']);
    flaggedUser = await fx.user({ loginId: 'flagged-user', nickname: '免费代刷', intro: '<b>点我</b>' });
    await flag('user', flaggedUser, base + 20, ['代刷']);
    // A flag whose item is gone is not shown.
    await flag('comment', 'bbbbbbbbbbbbbbbbbbbbbbbb', base + 5, ['x']);
  });

  it('lists them oldest first with the rule and its words, by kind and by rule', async () => {
    const page = await queue('?kind=comment');
    expect(page.data.data).toMatchObject([
      { kind: 'comment', id: held, content: '<p>加微信 <b>vx123</b></p>', where: { kind: 'issue', id: issueId, title: '评论所在' } },
    ]);
    expect(page.data.data[0].reasons).toEqual([{ rule: 'word', action: 'hold', words: ['微信'] }]);
    expect(page.data.data[0].author.comments.held).toBe(1);
    const users = (await queue('?kind=user')).data.data;
    expect(users).toMatchObject([
      { kind: 'user', id: flaggedUser, title: '免费代刷', content: '<p>免费代刷</p><p>&lt;b&gt;点我&lt;/b&gt;</p>' },
    ]);
    const byRule = (await queue('?rule=word')).data.data.map((i: { id: string }) => i.id);
    expect(byRule).toEqual([held, flaggedUser]);
    const counts = (await t.inject({ method: 'GET', url: '/api/review/counts', ...as() })).json().data;
    expect(counts).toMatchObject({ comment: 2, user: 1 });
  });

  it("finds what a comment earned by one index lookup, not a walk through its author's ledger", async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      return JSON.stringify(await tx.execute(sql`explain select ${earned(sql.raw('c'))} from comments c where c.id = ${held}`));
    });
    expect(plan).toContain('points_ledger_user_ref_idx');
  });

  it('approving a held comment shows it and closes its flag; 撤销 holds it again', async () => {
    const counted = async () => (await t.database.db.select().from(issues).where(eq(issues.id, issueId)))[0].commentNumber;
    const points = async () => (await t.database.db.select().from(users).where(eq(users.id, authorId)))[0].points;
    const earned = async () =>
      (await t.database.db.select().from(pointsLedger).where(eq(pointsLedger.refId, held))).map((r) => [r.delta, r.reason]);
    const startPoints = await points();
    expect(await counted()).toBe(0);
    const approved = await decide({ items: [{ kind: 'comment', id: held }], decision: 'approve' });
    expect(approved.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(comments).where(eq(comments.id, held));
    expect(row.held).toBe(false);
    // Counted and paid only now, in the decision's transaction.
    expect(await counted()).toBe(1);
    expect(await points()).toBe(startPoints + 4);
    expect(await earned()).toEqual([[4, 'issue_comment']]);
    const [closed] = await t.database.db.select().from(moderationFlags).where(eq(moderationFlags.itemId, held));
    expect(closed.state).toBe('approved');
    const twice = await decide({ items: [{ kind: 'comment', id: held }], decision: 'reject' }, other);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().msg).toContain(`reviewer-a ${AUDIT_ACTIONS.approve}`);
    const undo = await t.inject({ method: 'POST', url: `/api/audit/${approved.json().data.auditIds[0]}/revert`, ...as() });
    expect(undo.statusCode).toBe(200);
    const [again] = await t.database.db.select().from(comments).where(eq(comments.id, held));
    expect(again.held).toBe(true);
    expect(await counted()).toBe(0);
    expect(await points()).toBe(startPoints);
    expect(await earned()).toEqual([
      [4, 'issue_comment'],
      [-4, 'comment_held_again'],
    ]);
    expect((await queue('?kind=comment')).data.data.map((i: { id: string }) => i.id)).toEqual([held]);
  });

  it('rejecting a member is a super admin decision; approving closes the flag', async () => {
    expect((await decide({ items: [{ kind: 'user', id: flaggedUser }], decision: 'reject' })).statusCode).toBe(403);
    expect((await decide({ items: [{ kind: 'user', id: flaggedUser }], decision: 'approve' })).statusCode).toBe(200);
    expect((await queue('?kind=user')).data.count).toBe(0);
  });

  it('rejects a held comment into the bin and 撤销 brings it back held, in the queue', async () => {
    const rejected = await decide({ items: [{ kind: 'comment', id: held }], decision: 'reject', reason: '引流' });
    expect(rejected.statusCode).toBe(200);
    expect(await t.database.db.select().from(comments).where(eq(comments.id, held))).toEqual([]);
    // It was never counted: the rejection moves nothing.
    expect((await t.database.db.select().from(issues).where(eq(issues.id, issueId)))[0].commentNumber).toBe(0);
    expect((await t.inject({ method: 'POST', url: `/api/audit/${rejected.json().data.auditIds[0]}/revert`, ...as() })).statusCode).toBe(
      200,
    );
    expect((await queue('?kind=comment')).data.data.map((i: { id: string }) => i.id)).toEqual([held]);
  });
});

describe('the counts of open flags (kept by triggers, migration 0021)', () => {
  type Counted = { kind: string; n: number };
  const live = () =>
    queryRows<Counted>(
      t.database.db,
      sql`select kind, count(*)::int as n from moderation_flags where state = 'open' group by kind order by kind`,
    );
  const kept = (db: Db = t.database.db) =>
    queryRows<Counted>(db, sql`select kind, n::int as n from open_flag_counts where n <> 0 order by kind`);

  it('agree with the flags through inserts, decisions, 撤销, closing and reopening at once, deletes and a truncate', async () => {
    // What the describes above left: decisions, 撤销 and a flag whose item is gone.
    expect((await live()).length).toBeGreaterThan(0);
    expect(await kept()).toEqual(await live());
    const open = await t.database.db.select({ id: moderationFlags.id }).from(moderationFlags).where(eq(moderationFlags.state, 'open'));
    const ids = open.map((row) => row.id);
    await t.database.db.update(moderationFlags).set({ state: 'rejected' }).where(inArray(moderationFlags.id, ids));
    expect(await kept()).toEqual([]);
    await t.database.db.update(moderationFlags).set({ state: 'open' }).where(inArray(moderationFlags.id, ids));
    expect(await kept()).toEqual(await live());
    await t.database.db.delete(moderationFlags).where(eq(moderationFlags.kind, 'comment'));
    expect(await kept()).toEqual(await live());
    // A truncate (a restore's first step) empties them; rolled back so the file's state stays.
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`truncate moderation_flags`);
        expect(await kept(tx as unknown as Db)).toEqual([]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await kept()).toEqual(await live());
  });

  it('are what GET /api/review/counts answers', async () => {
    const counts = (await t.inject({ method: 'GET', url: '/api/review/counts', ...as() })).json().data;
    const byKind = Object.fromEntries((await live()).map((row) => [row.kind, row.n]));
    expect(counts.comment).toBe(byKind.comment ?? 0);
    expect(counts.user).toBe(byKind.user ?? 0);
  });
});

describe('sanctions', () => {
  let memberId: string;
  beforeAll(async () => {
    memberId = await fx.user({ loginId: 'member-s' });
  });
  const sanction = (payload: object) => t.inject({ method: 'POST', url: `/api/user/${memberId}/sanctions`, ...as(), payload });

  it('a mute refuses posting until its end, says until when, and the clock lifts it', async () => {
    const created = await sanction({ kind: 'mute', days: 1, reason: '刷屏' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ kind: 'mute', days: 1, active: true, liftedAt: null });
    await expect(t.app.sanctions.refuseIfSanctioned(memberId, 'mute')).rejects.toMatchObject({
      statusCode: 403,
      errorCode: ERROR_CODES.muted,
      msg: expect.stringMatching(/^你已被禁言，\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} 解除$/),
    });
    // A mute does not stop signing in.
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toBeNull();

    t.clock.advance(86_400_000 + 1);
    expect(await t.app.sanctions.activeSanction(memberId, 'mute')).toBeNull();
    // The admins' tokens may have run out a day later: sign in again.
    token = await t.tokenFor('reviewer-a', passwordOf('reviewer-a'));
    other = await t.tokenFor('reviewer-b', passwordOf('reviewer-b'));
    // The clock's job records the lift (liftedBy null).
    const lifted = await t.app.sanctions.liftExpired();
    expect(lifted).toBe(1);
    const list = (await t.inject({ method: 'GET', url: `/api/user/${memberId}/sanctions`, ...as() })).json().data;
    expect(list[0]).toMatchObject({ active: false, liftedBy: null });
    expect(list[0].liftedAt).toBe(list[0].endsAt);
  });

  it('a suspension for good ends sessions at once, is lifted by hand and reverted from the audit log', async () => {
    const ended: string[] = [];
    t.app.sanctions.endSessionsWith(async (_tx, userId) => ended.push(userId));
    const created = await sanction({ kind: 'suspend', days: null, reason: '盗号' });
    expect(created.json().data).toMatchObject({ endsAt: null, active: true });
    expect(ended).toEqual([memberId]);
    await expect(t.app.sanctions.refuseIfSanctioned(memberId, 'suspend')).rejects.toMatchObject({
      errorCode: ERROR_CODES.suspended,
      msg: '账号已被永久封禁',
    });
    // A suspended member cannot post either.
    expect(await t.app.sanctions.activeSanction(memberId, 'mute')).toMatchObject({ kind: 'suspend', endsAt: null });

    const sanctionId = created.json().data._id;
    const lift = await t.inject({ method: 'DELETE', url: `/api/user/${memberId}/sanctions/${sanctionId}`, ...as() });
    expect(lift.json().data).toMatchObject({ active: false, liftedBy: { loginId: 'reviewer-a' } });
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toBeNull();
    const again = await t.inject({ method: 'DELETE', url: `/api/user/${memberId}/sanctions/${sanctionId}`, ...as() });
    expect(again.statusCode).toBe(409);

    const history = (await t.inject({ method: 'GET', url: `/api/audit/user/${memberId}`, ...as() })).json().data;
    const liftEntry = history.find((e: { action: string }) => e.action === AUDIT_ACTIONS.liftSanction);
    expect(liftEntry.revertible).toBe(true);
    expect((await t.inject({ method: 'POST', url: `/api/audit/${liftEntry._id}/revert`, ...as() })).statusCode).toBe(200);
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toMatchObject({ kind: 'suspend' });
    expect(ended).toEqual([memberId, memberId]);
    const suspendEntry = history.find((e: { action: string }) => e.action === AUDIT_ACTIONS.suspend);
    expect((await t.inject({ method: 'POST', url: `/api/audit/${suspendEntry._id}/revert`, ...as() })).statusCode).toBe(200);
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toBeNull();
  });

  it('the old enable switch is an indefinite 封禁', async () => {
    const off = await t.inject({ method: 'PATCH', url: `/api/user/${memberId}`, ...as(), payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toEqual({ kind: 'suspend', endsAt: null, fromSwitch: true });
    await t.inject({ method: 'PATCH', url: `/api/user/${memberId}`, ...as(), payload: { enabled: true } });
    expect(await t.app.sanctions.activeSanction(memberId, 'suspend')).toBeNull();
  });

  it('refuses a length that is not offered and an unknown member', async () => {
    expect((await sanction({ kind: 'mute', days: 2, reason: 'x' })).statusCode).toBe(400);
    const unknown = await t.inject({
      method: 'POST',
      url: '/api/user/aaaaaaaaaaaaaaaaaaaaaaaa/sanctions',
      ...as(),
      payload: { kind: 'mute', days: 1, reason: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('notes', () => {
  it('any admin writes notes; only the writer or a super admin deletes one', async () => {
    const memberId = await fx.user({ loginId: 'member-n' });
    const written = await t.inject({ method: 'POST', url: `/api/user/${memberId}/notes`, ...as(), payload: { body: '多次发广告' } });
    expect(written.statusCode).toBe(201);
    const noteId = written.json().data._id;
    const list = (await t.inject({ method: 'GET', url: `/api/user/${memberId}/notes`, ...as(other) })).json().data;
    expect(list).toMatchObject([{ body: '多次发广告', by: { loginId: 'reviewer-a' } }]);
    expect((await t.inject({ method: 'DELETE', url: `/api/user/${memberId}/notes/${noteId}`, ...as(other) })).statusCode).toBe(404);
    const file = (await t.inject({ method: 'GET', url: `/api/user/${memberId}/file`, ...as() })).json().data;
    expect(file.notes).toHaveLength(1);
    expect(
      (
        await t.inject({
          method: 'DELETE',
          url: `/api/user/${memberId}/notes/${noteId}`,
          headers: bearer(await t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD)),
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.inject({ method: 'GET', url: `/api/user/${memberId}/notes`, ...as() })).json().data).toEqual([]);
  });
});
