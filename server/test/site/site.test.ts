import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { POINTS_REASONS, SITE_MESSAGES } from '#contract/site';
import { books, comments, issues, pointsLedger, trash, users } from '../../src/db/schema';
import { contentFixtures } from '../content';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, type TestContext } from '../harness';
import { OLD_CLIENT_CALLS } from './old-client';

/**
 * The public site's calls (docs/api.md "Public calls") against a real server, on the database the
 * suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL): the old client's calls replayed as
 * it sends them, then who may see and write what.
 */

const SITE = 'https://site.example';
let t: TestContext;
let root: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let otherTypeId: string;
let otherUserId: string;
let issueId: string;
let bookId: string;
let interviewId: string;

beforeAll(async () => {
  t = await createTestContext({ SITE_ORIGINS: SITE, SITE_ISSUES_PER_MEMBER: '3', SITE_SIGNUPS_PER_ADDRESS: '50' });
  root = await t.rootToken();
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('前端');
  otherTypeId = await fx.type('后端');
  otherUserId = await fx.user({ nickname: '提问者', mail: 'secret@example.com', qq: '10001' });
  issueId = await fx.issue(otherUserId, typeId, { issueTitle: '一个问题', issueStatus: true });
  bookId = await fx.book(typeId, { bookTitle: '一本书', requirePoints: 30, downloadLink: 'https://pan.example/book' });
  interviewId = await fx.interview(otherTypeId, { interviewTitle: '闭包是什么' });
}, 120_000);
afterAll(() => t.close());

const db = () => t.database.db;
let ips = 0;
/** A fresh address per test, so that one test's limits never meet another's. */
const freshIp = () => `10.1.${Math.floor(++ips / 250)}.${ips % 250}`;

function at(value: unknown, path: string): unknown {
  if (path === '') return value;
  return path
    .split('.')
    .reduce<unknown>((v, key) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[key]), value);
}

/** A member with a password of their own: signed up, then the personal centre's passwordcheck → PATCH. */
async function memberWithPassword(loginId: string, password = 'Lantern-Quay-77') {
  const ip = freshIp();
  const { id, token } = await t.signUpMember(loginId, { ip });
  await t.inject({ method: 'POST', url: '/api/user/passwordcheck', headers: bearer(token), payload: { userId: id, loginPwd: '' } });
  const set = await t.inject({ method: 'PATCH', url: `/api/user/${id}`, headers: bearer(token), payload: { loginPwd: password } });
  expect(set.statusCode).toBe(200);
  return { id, token, password, ip };
}

async function siteLogin(loginId: string, loginPwd: string, ip = freshIp(), remember = false) {
  return t.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: ip,
    headers: { cookie: await t.captchaCookie() },
    payload: { loginId, loginPwd, captcha: CAPTCHA, remember },
  });
}

describe('the old client, call by call (reference §5)', () => {
  it('every call answers as the client reads it', async () => {
    const values: Record<string, unknown> = {
      newLogin: 'old-client-member',
      newPassword: 'Harbour-Lights-31',
      captcha: CAPTCHA,
      typeId,
      otherUserId,
      issueId,
      bookId,
      interviewId,
    };
    const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
    const fillBody = (body: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && /^\{\w+\}$/.test(v) ? values[v.slice(1, -1)] : v]),
      );
    const ip = freshIp();
    for (const call of OLD_CLIENT_CALLS) {
      const headers: Record<string, string> = {};
      if (call.as === 'member') headers.authorization = `Bearer ${values.token}`;
      if (call.captcha) headers.cookie = await t.captchaCookie();
      const response = await t.inject({
        method: call.method,
        url: fill(call.path),
        headers,
        remoteAddress: ip,
        ...(call.body && { payload: fillBody(call.body) }),
      });
      expect({ step: call.step, status: response.statusCode }).toEqual({ step: call.step, status: call.status });
      if (call.path === '/res/captcha') continue;
      const data = response.json().data;
      for (const path of call.reads)
        expect({ step: call.step, path, present: at(data, path) !== undefined }).toEqual({ step: call.step, path, present: true });
      for (const [path, expected] of Object.entries(call.equals ?? {})) {
        expect({ step: call.step, path, value: at(data, path) }).toEqual({
          step: call.step,
          path,
          value: typeof expected === 'string' ? fill(expected) : expected,
        });
      }
      for (const [name, path] of Object.entries(call.save ?? {})) values[name] = at(data, path);
    }

    // What the server kept, whatever the client sent: +4 and +2 for the two comments, one view each.
    const [member] = await db()
      .select()
      .from(users)
      .where(eq(users.id, values.memberId as string));
    expect(member.points).toBe(106);
    expect(member.passwordHash).toMatch(/^\$argon2id\$/);
    const [asked] = await db()
      .select()
      .from(issues)
      .where(eq(issues.id, values.askedId as string));
    expect({ userId: asked.userId, issueStatus: asked.issueStatus }).toEqual({ userId: values.memberId, issueStatus: false });
    await t.app.siteViews.flush();
    const [issue] = await db().select().from(issues).where(eq(issues.id, issueId));
    expect({ scanNumber: issue.scanNumber, commentNumber: issue.commentNumber }).toEqual({ scanNumber: 1, commentNumber: 1 });
    const [book] = await db().select().from(books).where(eq(books.id, bookId));
    expect({ scanNumber: book.scanNumber, commentNumber: book.commentNumber }).toEqual({ scanNumber: 1, commentNumber: 1 });

    // The points history an admin sees.
    const history = await t.inject({ method: 'GET', url: `/api/user/${values.memberId}/points`, headers: bearer(root) });
    expect(history.json().data.data.map((e: { delta: number; reason: string; balance: number }) => [e.delta, e.reason, e.balance])).toEqual(
      [
        [2, POINTS_REASONS.bookComment, 106],
        [4, POINTS_REASONS.issueComment, 104],
      ],
    );
  });
});

describe('who sees what', () => {
  it('a visitor sees another user only by the public fields', async () => {
    const response = await t.inject({ method: 'GET', url: `/api/user/${otherUserId}` });
    expect(Object.keys(response.json().data).sort()).toEqual(['_id', 'avatar', 'intro', 'nickname', 'points', 'registerDate']);
    const member = await t.signUpMember('nosy-member', { ip: freshIp() });
    const asMember = await t.inject({ method: 'GET', url: `/api/user/${otherUserId}`, headers: bearer(member.token) });
    expect(asMember.body).not.toMatch(/secret@example.com|10001|loginId/);
  });

  it('a question or comment that shows nothing is refused as empty: nothing stored, counted or paid', async () => {
    const member = await t.signUpMember('blank-poster', { ip: freshIp() });
    const issue = await fx.issue(otherUserId, typeId, { issueStatus: true });
    const post = (url: string, payload: object) => t.inject({ method: 'POST', url, headers: bearer(member.token), payload });
    for (const commentContent of ['<p><br></p>', '<p>   </p>', '<table></table>', '\u200b', '<p>&nbsp;\u2060</p>']) {
      const response = await post('/api/comment', { commentType: 1, issueId: issue, commentContent });
      expect({ commentContent, status: response.statusCode, msg: response.json().msg }).toEqual({
        commentContent,
        status: 400,
        msg: '评论内容（commentContent）不能为空',
      });
    }
    // The parent the comment type names is missing: said as the schema says a missing field.
    const orphan = await post('/api/comment', { commentType: 1, bookId: issue, commentContent: '<p>有内容</p>' });
    expect({ status: orphan.statusCode, msg: orphan.json().msg }).toEqual({ status: 400, msg: '缺少必填字段：问答（issueId）' });
    const blankTitle = await post('/api/issue', { issueTitle: '\u200b\u200b', issueContent: '<p>有内容</p>', typeId });
    expect({ status: blankTitle.statusCode, msg: blankTitle.json().msg }).toEqual({
      status: 400,
      msg: '问答标题（issueTitle）不能为空',
    });
    const blankContent = await post('/api/issue', { issueTitle: '标题', issueContent: '<p>\u200b</p>', typeId });
    expect({ status: blankContent.statusCode, msg: blankContent.json().msg }).toEqual({
      status: 400,
      msg: '问答描述（issueContent）不能为空',
    });
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row.points).toBe(100);
    const [parent] = await db().select().from(issues).where(eq(issues.id, issue));
    expect(parent.commentNumber).toBe(0);
    // None of the refused questions was one of the hour's three.
    for (let i = 0; i < 3; i++)
      expect((await post('/api/issue', { issueTitle: `问题 ${i}`, issueContent: '<p>有内容</p>', typeId })).statusCode).toBe(201);
  });

  it('pending and binned issues answer 404 to visitors and members, and are in no list', async () => {
    const member = await t.signUpMember('looker', { ip: freshIp() });
    const pending = await fx.issue(otherUserId, typeId, { issueTitle: '待审核的问题', issueStatus: false });
    for (const headers of [{}, bearer(member.token)]) {
      expect((await t.inject({ method: 'GET', url: `/api/issue/${pending}`, headers })).statusCode).toBe(404);
      expect((await t.inject({ method: 'PATCH', url: `/api/issue/${pending}`, headers, payload: { scanNumber: 1 } })).statusCode).toBe(404);
      expect((await t.inject({ method: 'GET', url: `/api/comment/issuecomment/${pending}`, headers })).statusCode).toBe(404);
      const list = await t.inject({ method: 'GET', url: '/api/issue?current=1&pageSize=100&issueStatus=false', headers });
      expect(list.json().data.data.every((row: { issueStatus: boolean }) => row.issueStatus)).toBe(true);
    }
    const comment = await t.inject({
      method: 'POST',
      url: '/api/comment',
      headers: bearer(member.token),
      payload: { commentType: 1, issueId: pending, commentContent: '<p>抢先</p>' },
    });
    expect(comment.statusCode).toBe(404);
    // The admin still sees it.
    expect((await t.inject({ method: 'GET', url: `/api/issue/${pending}`, headers: bearer(root) })).statusCode).toBe(200);
    // Approved, then binned: gone for the site at once.
    const approved = await fx.issue(otherUserId, typeId, { issueStatus: true });
    expect((await t.inject({ method: 'GET', url: `/api/issue/${approved}` })).statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api/issue/${approved}`, headers: bearer(root) })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `/api/issue/${approved}` })).statusCode).toBe(404);
  });

  it('a disabled user is invisible, and a disabled member is refused at once', async () => {
    const member = await t.signUpMember('soon-disabled', { ip: freshIp() });
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(member.token) })).statusCode).toBe(200);
    const disable = await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { enabled: false } });
    expect(disable.statusCode).toBe(200);
    for (const url of ['/api/user/whoami', '/api/issue', `/api/user/${member.id}`]) {
      expect({ url, status: (await t.inject({ method: 'GET', url, headers: bearer(member.token) })).statusCode }).toEqual({
        url,
        status: 401,
      });
    }
    expect((await t.inject({ method: 'GET', url: `/api/user/${member.id}` })).statusCode).toBe(404);
    const rank = await t.inject({ method: 'GET', url: '/api/user/pointsrank' });
    expect(rank.json().data.map((u: { _id: string }) => u._id)).not.toContain(member.id);
  });

  it('a book shows its download link only to a member who unlocked it, for its points, once', async () => {
    const expensive = await fx.book(typeId, { requirePoints: 30, downloadLink: 'https://pan.example/x' });
    const member = await t.signUpMember('reader', { ip: freshIp() });
    expect((await t.inject({ method: 'GET', url: `/api/book/${expensive}` })).json().data.downloadLink).toBe('');
    expect((await t.inject({ method: 'GET', url: `/api/book/${expensive}`, headers: bearer(member.token) })).json().data.downloadLink).toBe(
      '',
    );
    const unlock = await t.inject({ method: 'POST', url: `/api/book/${expensive}/unlock`, headers: bearer(member.token) });
    expect(unlock.json().data.downloadLink).toBe('https://pan.example/x');
    expect((await t.inject({ method: 'POST', url: `/api/book/${expensive}/unlock`, headers: bearer(member.token) })).statusCode).toBe(200);
    const page = await t.inject({ method: 'GET', url: '/api/book?current=1&pageSize=100', headers: bearer(member.token) });
    expect(page.json().data.data.find((b: { _id: string }) => b._id === expensive).downloadLink).toBe('https://pan.example/x');
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row.points).toBe(70);
    // 70 points left: a 100-point book is refused and nothing is taken.
    const dear = await fx.book(typeId, { requirePoints: 100 });
    const refused = await t.inject({ method: 'POST', url: `/api/book/${dear}/unlock`, headers: bearer(member.token) });
    expect({ status: refused.statusCode, msg: refused.json().msg }).toEqual({ status: 400, msg: SITE_MESSAGES.notEnoughPoints });
    const ledger = await db().select().from(pointsLedger).where(eq(pointsLedger.userId, member.id));
    expect(ledger.map((e) => [e.delta, e.reason, e.refId, e.balance])).toEqual([[-30, POINTS_REASONS.bookUnlock, expensive, 70]]);
    // A visitor cannot unlock.
    expect((await t.inject({ method: 'POST', url: `/api/book/${expensive}/unlock` })).statusCode).toBe(401);
  });

  it('interview titles come grouped in the order of /api/type', async () => {
    const [titles, typeList] = await Promise.all([
      t.inject({ method: 'GET', url: '/api/interview/interviewTitle' }),
      t.inject({ method: 'GET', url: '/api/type' }),
    ]);
    const types = typeList.json().data as Array<{ _id: string }>;
    const groups = titles.json().data as Array<Array<{ _id: string; interviewTitle: string }>>;
    expect(groups).toHaveLength(types.length);
    expect(groups[types.findIndex((type) => type._id === otherTypeId)]).toEqual([{ _id: interviewId, interviewTitle: '闭包是什么' }]);
  });
});

describe('tokens and sessions', () => {
  it('a member token never passes an admin route, an admin token is never a member', async () => {
    const member = await t.signUpMember('token-member', { ip: freshIp() });
    const refused = await t.inject({ method: 'DELETE', url: `/api/issue/${issueId}`, headers: bearer(member.token) });
    expect({ status: refused.statusCode, errorCode: refused.json().errorCode }).toEqual({ status: 403, errorCode: ERROR_CODES.forbidden });
    expect((await t.inject({ method: 'GET', url: '/api/user?current=1', headers: bearer(member.token) })).statusCode).toBe(403);
    // An admin's token on the members' own calls: not a member.
    const adminAsMember = await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(root) });
    expect(adminAsMember.json().success).toBe(false);
    // A path only the site has is no address of the back-office: 404, as an id that cannot be one.
    for (const url of ['/api/user/whoami', '/api/user/pointsrank', '/api/interview/interviewTitle', '/api/user/zzz']) {
      const answer = await t.inject({ method: 'GET', url, headers: bearer(root) });
      expect({ url, status: answer.statusCode, msg: answer.json().msg, errorCode: answer.json().errorCode }).toEqual({
        url,
        status: 404,
        msg: '记录不存在',
        errorCode: ERROR_CODES.notFound,
      });
    }
    // A token claiming to be a member's but signed with the admins' key.
    const [head, , signature] = root.split('.');
    const claims = JSON.parse(Buffer.from(root.split('.')[1], 'base64url').toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, kind: 'member' })).toString('base64url')}.${signature}`;
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(forged) })).statusCode).toBe(401);
  });

  it('sessions last 1 day, 7 with remember, and are listed and ended from the back-office', async () => {
    const member = await memberWithPassword('session-member');
    // An admin session that outlives the two days this test moves the clock on.
    const admin = (await t.login(ROOT_LOGIN, ROOT_PASSWORD, { remember: true })).json().data.token as string;
    const short = (await siteLogin('session-member', member.password)).json().data.token as string;
    const long = (await siteLogin('session-member', member.password, freshIp(), true)).json().data.token as string;
    const listed = await t.inject({ method: 'GET', url: `/api/user/${member.id}/sessions`, headers: bearer(root) });
    const lifetimes = listed
      .json()
      .data.map((s: { createdAt: number; expiresAt: number }) => s.expiresAt - s.createdAt)
      .sort((a: number, b: number) => a - b);
    // The sign-up's own session (1 day), a sign-in, a sign-in with remember.
    expect(lifetimes).toEqual([86_400_000, 86_400_000, 604_800_000]);
    t.clock.advance(2 * 86_400_000);
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(long) })).statusCode).toBe(200);
    const ended = await t.inject({ method: 'DELETE', url: `/api/user/${member.id}/sessions`, headers: bearer(admin) });
    expect(ended.json().data.ended).toBe(3);
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(long) })).json().errorCode).toBe(
      ERROR_CODES.sessionEnded,
    );
    t.clock.advance(-2 * 86_400_000);
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(short) })).statusCode).toBe(401);
  });

  it("a new password ends the member's other sessions, and an admin's new password ends them all", async () => {
    const member = await memberWithPassword('password-member');
    const other = (await siteLogin('password-member', member.password)).json().data.token as string;
    const check = await t.inject({
      method: 'POST',
      url: '/api/user/passwordcheck',
      headers: bearer(member.token),
      payload: { userId: member.id, loginPwd: member.password },
    });
    expect(check.json().data).toBe(true);
    const changed = await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      payload: { loginPwd: 'Second-Kettle-55' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(other) })).statusCode).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(member.token) })).statusCode).toBe(200);
    await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { loginPwd: 'Third-Anchor-66' } });
    expect((await t.inject({ method: 'GET', url: '/api/user/whoami', headers: bearer(member.token) })).statusCode).toBe(401);
  });

  it('a new password of spaces only is refused, not taken as no change', async () => {
    const member = await memberWithPassword('spaces-member');
    await t.inject({
      method: 'POST',
      url: '/api/user/passwordcheck',
      headers: bearer(member.token),
      payload: { userId: member.id, loginPwd: member.password },
    });
    for (const loginPwd of ['      ', '\u3000\u3000\u3000\u3000\u3000\u3000', '\u200b\u200b\u200b\u200b\u200b\u200b']) {
      const response = await t.inject({
        method: 'PATCH',
        url: `/api/user/${member.id}`,
        headers: bearer(member.token),
        payload: { loginPwd },
      });
      expect({ status: response.statusCode, msg: response.json().msg }).toEqual({ status: 400, msg: '密码长度至少 6 位' });
    }
    expect((await siteLogin('spaces-member', member.password)).statusCode).toBe(200);
  });

  it('a new password needs a passwordcheck of the current one by the same session; passwordcheck is for the own account only', async () => {
    const member = await memberWithPassword('careful-member');
    const direct = await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      payload: { loginPwd: 'Hijacked-Pass-12' },
    });
    expect({ status: direct.statusCode, msg: direct.json().msg }).toEqual({ status: 400, msg: SITE_MESSAGES.checkPasswordFirst });
    const wrong = await t.inject({
      method: 'POST',
      url: '/api/user/passwordcheck',
      headers: bearer(member.token),
      payload: { userId: member.id, loginPwd: 'nope' },
    });
    expect(wrong.json().data).toBe(false);
    const others = await t.inject({
      method: 'POST',
      url: '/api/user/passwordcheck',
      headers: bearer(member.token),
      payload: { userId: otherUserId, loginPwd: 'x' },
    });
    expect({ status: others.statusCode, msg: others.json().msg }).toEqual({ status: 403, msg: SITE_MESSAGES.notOwnAccount });
    // Throttled as sign-ins are: the fifth wrong answer locks the account's checks.
    for (let i = 0; i < 4; i++) {
      await t.inject({
        method: 'POST',
        url: '/api/user/passwordcheck',
        headers: bearer(member.token),
        payload: { userId: member.id, loginPwd: `nope${i}` },
      });
    }
    const locked = await t.inject({
      method: 'POST',
      url: '/api/user/passwordcheck',
      headers: bearer(member.token),
      payload: { userId: member.id, loginPwd: member.password },
    });
    expect(locked.statusCode).toBe(429);
  });
});

describe('sign-up and sign-in', () => {
  it('an account made by sign-up has no known password: 123456 does not sign in', async () => {
    await t.signUpMember('no-default', { ip: freshIp() });
    expect((await siteLogin('no-default', '123456')).json().data).toEqual({ data: null });
  });

  it('account names collide by case, width and look-alike letters', async () => {
    await t.signUpMember('kestrel', { ip: freshIp() });
    for (const loginId of ['KESTREL', 'ｋｅｓｔｒｅｌ', 'kеstrel']) {
      const response = await t.inject({
        method: 'POST',
        url: '/api/user',
        remoteAddress: freshIp(),
        headers: { cookie: await t.captchaCookie() },
        payload: { loginId, captcha: CAPTCHA },
      });
      expect({ loginId, status: response.statusCode }).toEqual({ loginId, status: 409 });
      expect((await t.inject({ method: 'GET', url: `/api/user/userIsExist/${encodeURIComponent(loginId)}` })).json().data).toBe(true);
    }
  });

  it('sign-up needs the captcha, once', async () => {
    const cookie = await t.captchaCookie();
    const first = await t.inject({
      method: 'POST',
      url: '/api/user',
      remoteAddress: freshIp(),
      headers: { cookie },
      payload: { loginId: 'captcha-a', captcha: 'zzzz' },
    });
    expect({ status: first.statusCode, msg: first.json().msg }).toEqual({ status: 400, msg: '验证码错误' });
    const again = await t.inject({
      method: 'POST',
      url: '/api/user',
      remoteAddress: freshIp(),
      headers: { cookie },
      payload: { loginId: 'captcha-a', captcha: CAPTCHA },
    });
    expect(again.statusCode).toBe(400);
  });

  it('sign-in: the reference shapes for a wrong password and a frozen account; the throttle; lastLoginDate by the server', async () => {
    const member = await memberWithPassword('shape-member');
    await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { enabled: false } });
    const frozen = await siteLogin('shape-member', member.password);
    expect(frozen.json().data).toEqual({ data: { _id: member.id, loginId: 'shape-member', enabled: false } });
    await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { enabled: true } });
    t.clock.advance(60_000);
    const before = Date.now() + t.clock.offset;
    const signedIn = await siteLogin('shape-member', member.password);
    expect(signedIn.json().data.data.enabled).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row.lastLoginDate).toBeGreaterThanOrEqual(before);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await siteLogin('shape-member', `wrong-${i}`, ip)).json().data).toEqual({ data: null });
    const locked = await siteLogin('shape-member', member.password, ip);
    expect(locked.statusCode).toBe(429);
  });

  it('an imported md5 password signs in once and is replaced by argon2id', async () => {
    const md5 = createHash('md5').update('legacy-pass', 'utf8').digest('hex');
    const id = await fx.user({ loginId: 'imported-member', passwordHash: md5, passwordLegacy: true });
    const response = await siteLogin('imported-member', 'legacy-pass');
    expect(response.json().data.data._id).toBe(id);
    const [row] = await db().select().from(users).where(eq(users.id, id));
    expect({ legacy: row.passwordLegacy, argon: row.passwordHash.startsWith('$argon2id$') }).toEqual({ legacy: false, argon: true });
    expect((await siteLogin('imported-member', 'legacy-pass')).json().data.data._id).toBe(id);
  });

  it('sign-ups are limited per address: 429 with Retry-After and RATE_LIMITED', async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) await t.signUpMember(`bulk-${i}`, { ip });
    const refused = await t.inject({
      method: 'POST',
      url: '/api/user',
      remoteAddress: ip,
      headers: { cookie: await t.captchaCookie() },
      payload: { loginId: 'bulk-x', captcha: CAPTCHA },
    });
    expect({ status: refused.statusCode, msg: refused.json().msg, errorCode: refused.json().errorCode }).toEqual({
      status: 429,
      msg: SITE_MESSAGES.tooMany,
      errorCode: ERROR_CODES.rateLimited,
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60 * 60 * 1000 + 1000);
    expect((await t.signUpMember('bulk-after', { ip })).id).toMatch(/^[0-9a-f]{24}$/);
    t.clock.advance(-(60 * 60 * 1000 + 1000));
  }, 60_000);
});

describe('what members write', () => {
  it('questions are limited per member', async () => {
    const member = await t.signUpMember('asker', { ip: freshIp() });
    const ask = () =>
      t.inject({
        method: 'POST',
        url: '/api/issue',
        headers: bearer(member.token),
        payload: { issueTitle: '问', issueContent: '<p>内容</p>', typeId },
      });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(201);
    const refused = await ask();
    expect({ status: refused.statusCode, retry: Number(refused.headers['retry-after']) > 0 }).toEqual({ status: 429, retry: true });
  });

  it('mass assignment: no member write sets what is not the member’s', async () => {
    const member = await t.signUpMember('greedy', { ip: freshIp() });
    const profile = await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      payload: {
        points: 999_999,
        enabled: false,
        loginId: 'root',
        registerDate: 1,
        lastLoginDate: 1,
        passwordHash: 'x',
        passwordLegacy: true,
        intro: '正常修改',
      },
    });
    expect(profile.statusCode).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect({
      points: row.points,
      enabled: row.enabled,
      loginId: row.loginId,
      legacy: row.passwordLegacy,
      hash: row.passwordHash,
      intro: row.intro,
    }).toEqual({
      points: 100,
      enabled: true,
      loginId: 'greedy',
      legacy: false,
      hash: '',
      intro: '正常修改',
    });
    const asked = await t.inject({
      method: 'POST',
      url: '/api/issue',
      headers: bearer(member.token),
      payload: {
        issueTitle: '问',
        issueContent: '<p>x</p>',
        typeId,
        userId: otherUserId,
        issueStatus: true,
        scanNumber: 500,
        commentNumber: 9,
        issueDate: 1,
      },
    });
    const issue = asked.json().data;
    expect({
      userId: issue.userId,
      issueStatus: issue.issueStatus,
      scanNumber: issue.scanNumber,
      commentNumber: issue.commentNumber,
    }).toEqual({
      userId: member.id,
      issueStatus: false,
      scanNumber: 0,
      commentNumber: 0,
    });
    const commented = await t.inject({
      method: 'POST',
      url: '/api/comment',
      headers: bearer(member.token),
      payload: { userId: otherUserId, typeId: otherTypeId, commentType: 1, issueId, commentContent: '<p>x</p>', commentDate: 1 },
    });
    expect({ userId: commented.json().data.userId, typeId: commented.json().data.typeId }).toEqual({ userId: member.id, typeId });
    const approve = await t.inject({
      method: 'PATCH',
      url: `/api/issue/${issue._id}`,
      headers: bearer(member.token),
      payload: { issueStatus: true, issueTitle: '改' },
    });
    expect(approve.statusCode).toBe(404);
    const viewed = await t.inject({
      method: 'PATCH',
      url: `/api/book/${bookId}`,
      headers: bearer(member.token),
      payload: { downloadLink: 'https://evil', requirePoints: 0, scanNumber: 1 },
    });
    expect(viewed.statusCode).toBe(200);
    const [book] = await db().select().from(books).where(eq(books.id, bookId));
    expect({ link: book.downloadLink, points: book.requirePoints }).toEqual({ link: 'https://pan.example/book', points: 30 });
    // Another member's record.
    const other = await t.inject({
      method: 'PATCH',
      url: `/api/user/${otherUserId}`,
      headers: bearer(member.token),
      payload: { intro: 'x' },
    });
    expect(other.statusCode).toBe(403);
  });

  it('a view counts once per viewer per item per hour, and never as the number sent', async () => {
    const fresh = await fx.issue(otherUserId, typeId, { issueStatus: true });
    const member = await t.signUpMember('viewer', { ip: freshIp() });
    const view = (headers: Record<string, string>, ip: string) =>
      t.inject({ method: 'PATCH', url: `/api/issue/${fresh}`, headers, remoteAddress: ip, payload: { scanNumber: 12345 } });
    const ip = freshIp();
    await view({}, ip);
    await view({}, ip);
    await view(bearer(member.token), ip);
    await view(bearer(member.token), freshIp());
    await t.app.siteViews.flush();
    const scans = async () => (await db().select({ n: issues.scanNumber }).from(issues).where(eq(issues.id, fresh)))[0].n;
    expect(await scans()).toBe(2);
    t.clock.advance(60 * 60 * 1000);
    await view({}, ip);
    await t.app.siteViews.flush();
    t.clock.advance(-60 * 60 * 1000);
    expect(await scans()).toBe(3);
  });

  it('a member uploads an avatar with the admins’ checks', async () => {
    const member = await t.signUpMember('uploader', { ip: freshIp() });
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const boundary = 'site-boundary';
    const form = (name: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const headers = { ...bearer(member.token), 'content-type': `multipart/form-data; boundary=${boundary}` };
    const uploaded = await t.inject({ method: 'POST', url: '/api/upload', headers, payload: form('a.png', png) });
    expect(uploaded.json().data).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    const notImage = await t.inject({
      method: 'POST',
      url: '/api/upload',
      headers,
      payload: form('a.png', Buffer.from('<svg onload=alert(1)>')),
    });
    expect(notImage.statusCode).toBe(415);
    // A visitor cannot upload, and is refused before the body is read.
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/api/upload',
          headers: { 'content-type': headers['content-type'] },
          payload: form('a.png', png),
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('moderation rules on member writes', () => {
  it('a 拒绝 word refuses the post; a 待审 word holds a comment from visitors until it is approved in 审核台', async () => {
    for (const [word, action] of [
      ['违禁广告词', 'reject'],
      ['待审核用词', 'hold'],
    ] as const) {
      const added = await t.inject({ method: 'POST', url: '/api/moderation/words', headers: bearer(root), payload: { word, action } });
      expect(added.statusCode).toBe(201);
    }
    const member = await memberWithPassword('site-moderated-member');
    const post = (commentContent: string) =>
      t.inject({
        method: 'POST',
        url: '/api/comment',
        headers: bearer(member.token),
        remoteAddress: member.ip,
        payload: { commentContent, commentType: 2, bookId, typeId },
      });
    const refused = await post('<p>这里有 违 禁 广 告 词</p>');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorCode).toBe(ERROR_CODES.contentRejected);
    expect(refused.json().msg).not.toContain('违禁广告词');

    const held = await post('<p>一条含有待审核用词的评论</p>');
    expect(held.statusCode).toBe(201);
    const heldId = held.json().data._id;
    const visitorSees = async () =>
      (
        (await t.inject({ method: 'GET', url: `/api/comment/bookcomment/${bookId}?current=1&pageSize=100` })).json().data.data as Array<{
          _id: string;
        }>
      ).map((c) => c._id);
    expect(await visitorSees()).not.toContain(heldId);
    const queue = await t.inject({ method: 'GET', url: '/api/review?current=1&pageSize=100&kind=comment', headers: bearer(root) });
    const item = (queue.json().data.data as Array<{ id: string; reasons: Array<{ words: string[] }> }>).find((i) => i.id === heldId);
    expect(item?.reasons.flatMap((r) => r.words)).toContain('待审核用词');
    const approve = await t.inject({
      method: 'POST',
      url: '/api/review/decisions',
      headers: bearer(root),
      payload: { items: [{ kind: 'comment', id: heldId }], decision: 'approve' },
    });
    expect(approve.statusCode).toBe(200);
    expect(await visitorSees()).toContain(heldId);
  });
});

describe('先审后发: a member marked in the back-office', () => {
  it('has each comment held until 审核台 approves it, the rule named; unmarked, posts at once again', async () => {
    const member = await memberWithPassword('site-review-first-member');
    const mark = (reviewFirst: boolean) =>
      t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { reviewFirst } });
    const marked = await mark(true);
    expect(marked.statusCode).toBe(200);
    expect(marked.json().data.reviewFirst).toBe(true);
    const post = async () =>
      (
        await t.inject({
          method: 'POST',
          url: '/api/comment',
          headers: bearer(member.token),
          remoteAddress: member.ip,
          payload: { commentContent: '<p>一条普通的评论</p>', commentType: 2, bookId, typeId },
        })
      ).json().data._id as string;
    const visitorSees = async () =>
      (
        (await t.inject({ method: 'GET', url: `/api/comment/bookcomment/${bookId}?current=1&pageSize=100` })).json().data.data as Array<{
          _id: string;
        }>
      ).map((c) => c._id);
    const heldId = await post();
    expect(await visitorSees()).not.toContain(heldId);
    const queue = await t.inject({
      method: 'GET',
      url: '/api/review?current=1&pageSize=100&kind=comment&rule=reviewFirst',
      headers: bearer(root),
    });
    expect(queue.statusCode).toBe(200);
    expect((queue.json().data.data as Array<{ id: string }>).map((i) => i.id)).toContain(heldId);

    expect((await mark(false)).json().data.reviewFirst).toBe(false);
    const publishedId = await post();
    expect(await visitorSees()).toContain(publishedId);
  });

  it('counts a held comment and pays for it only once approved; 撤销, 拒绝, delete and restore keep that true', async () => {
    const member = await memberWithPassword('site-held-points-member');
    await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { reviewFirst: true } });
    const issueFor = await fx.issue(otherUserId, typeId, { issueTitle: '待审评论的问题', issueStatus: true });
    const bookFor = await fx.book(typeId, { bookTitle: '待审评论的书' });
    const post = async (payload: object) => {
      const posted = await t.inject({
        method: 'POST',
        url: '/api/comment',
        headers: bearer(member.token),
        remoteAddress: member.ip,
        payload: { commentContent: '<p>先审后发的评论</p>', typeId, ...payload },
      });
      expect(posted.statusCode).toBe(201);
      return posted.json().data._id as string;
    };
    const counted = async () => {
      const [issue] = await db().select({ n: issues.commentNumber }).from(issues).where(eq(issues.id, issueFor));
      const [book] = await db().select({ n: books.commentNumber }).from(books).where(eq(books.id, bookFor));
      return { issue: issue.n, book: book.n };
    };
    const points = async () => (await db().select({ p: users.points }).from(users).where(eq(users.id, member.id)))[0].p;
    const ledger = () => db().select().from(pointsLedger).where(eq(pointsLedger.userId, member.id)).orderBy(pointsLedger.id);
    const decide = (ids: string[], decision: 'approve' | 'reject') =>
      t.inject({
        method: 'POST',
        url: '/api/review/decisions',
        headers: bearer(root),
        payload: { items: ids.map((id) => ({ kind: 'comment', id })), decision },
      });
    const revert = (auditId: string) => t.inject({ method: 'POST', url: `/api/audit/${auditId}/revert`, headers: bearer(root) });
    const start = await points();

    // Posted held: nothing counted, nothing paid.
    const first = await post({ commentType: 1, issueId: issueFor });
    const second = await post({ commentType: 1, issueId: issueFor });
    const onBook = await post({ commentType: 2, bookId: bookFor });
    expect(await counted()).toEqual({ issue: 0, book: 0 });
    expect(await points()).toBe(start);
    expect(await ledger()).toEqual([]);

    // All three approved at once: counted and paid, one ledger row each, balances in order.
    const approved = await decide([first, second, onBook], 'approve');
    expect(approved.statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 2, book: 1 });
    expect(await points()).toBe(start + 10);
    const paid = await ledger();
    expect(paid.map((r) => [r.refId, r.delta, r.reason])).toEqual(
      [
        [first, 4, POINTS_REASONS.issueComment],
        [second, 4, POINTS_REASONS.issueComment],
        [onBook, 2, POINTS_REASONS.bookComment],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(paid.map((r) => r.balance)).toEqual([start + paid[0].delta, start + paid[0].delta + paid[1].delta, start + 10]);

    // 撤销 of the first approval: held again, uncounted, its 4 points taken back.
    const undone = await revert(approved.json().data.auditIds[0]);
    expect(undone.statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 1, book: 1 });
    expect(await points()).toBe(start + 6);
    expect((await ledger()).at(-1)).toMatchObject({ refId: first, delta: -4, reason: POINTS_REASONS.commentHeldAgain, balance: start + 6 });

    // A held comment deleted, then restored from the bin: never counted either way, and held again.
    const gone = await t.inject({ method: 'DELETE', url: `/api/comment/${first}`, headers: bearer(root) });
    expect(gone.statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 1, book: 1 });
    const [entry] = await db().select({ id: trash.id }).from(trash).where(eq(trash.entityId, first));
    expect((await t.inject({ method: 'POST', url: `/api/trash/${entry.id}/restore`, headers: bearer(root) })).statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 1, book: 1 });
    const [restored] = await db().select({ held: comments.held }).from(comments).where(eq(comments.id, first));
    expect(restored.held).toBe(true);

    // An unheld comment deleted still counts down.
    expect((await t.inject({ method: 'DELETE', url: `/api/comment/${second}`, headers: bearer(root) })).statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 0, book: 1 });

    // 拒绝 of a held comment: it never counted, so nothing moves.
    const before = await ledger();
    expect((await decide([first], 'reject')).statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 0, book: 1 });
    expect(await points()).toBe(start + 6);
    expect(await ledger()).toEqual(before);

    // 撤销 with a balance below what the comment earned takes back down to 0.
    await db().update(users).set({ points: 1 }).where(eq(users.id, member.id));
    expect((await revert(approved.json().data.auditIds[2])).statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 0, book: 0 });
    expect(await points()).toBe(0);
    expect((await ledger()).at(-1)).toMatchObject({ refId: onBook, delta: -1, reason: POINTS_REASONS.commentHeldAgain, balance: 0 });
    // Approved again, it earns only what was taken back.
    expect((await decide([onBook], 'approve')).statusCode).toBe(200);
    expect(await counted()).toEqual({ issue: 0, book: 1 });
    expect(await points()).toBe(1);
  });

  it('cannot be set or cleared by the member themself', async () => {
    const member = await memberWithPassword('site-review-first-self');
    const own = await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      remoteAddress: member.ip,
      payload: { reviewFirst: false, intro: '自己改' },
    });
    expect(own.statusCode).toBeLessThan(500);
    await t.inject({ method: 'PATCH', url: `/api/user/${member.id}`, headers: bearer(root), payload: { reviewFirst: true } });
    await t.inject({
      method: 'PATCH',
      url: `/api/user/${member.id}`,
      headers: bearer(member.token),
      remoteAddress: member.ip,
      payload: { reviewFirst: false },
    });
    const seen = await t.inject({ method: 'GET', url: `/api/user/${member.id}`, headers: bearer(root) });
    expect(seen.json().data.reviewFirst).toBe(true);
  });
});

describe('sanctions on member calls', () => {
  it('禁言 refuses questions, comments, nickname and intro with the end; 封禁 refuses sign-in and ends the sessions at once', async () => {
    const muted = await memberWithPassword('site-muted-member');
    const mute = await t.inject({
      method: 'POST',
      url: `/api/user/${muted.id}/sanctions`,
      headers: bearer(root),
      payload: { kind: 'mute', days: 3, reason: '刷屏' },
    });
    expect(mute.statusCode).toBe(201);
    const writes = [
      { method: 'POST' as const, url: '/api/issue', payload: { issueTitle: '禁言中提问', issueContent: '<p>内容</p>', typeId } },
      { method: 'POST' as const, url: '/api/comment', payload: { commentContent: '<p>评论</p>', commentType: 2, bookId, typeId } },
      { method: 'PATCH' as const, url: `/api/user/${muted.id}`, payload: { nickname: '新昵称' } },
      { method: 'PATCH' as const, url: `/api/user/${muted.id}`, payload: { intro: '新简介' } },
    ];
    for (const write of writes) {
      const response = await t.inject({ ...write, headers: bearer(muted.token), remoteAddress: muted.ip });
      expect({ url: write.url, status: response.statusCode, code: response.json().errorCode }).toEqual({
        url: write.url,
        status: 403,
        code: ERROR_CODES.muted,
      });
      expect(response.json().msg).toMatch(/禁言.*\d{4}-\d{2}-\d{2}/);
    }
    // Reading and signing in stay open to a muted member; a change that others do not read too.
    expect((await t.inject({ method: 'GET', url: `/api/user/${muted.id}`, headers: bearer(muted.token) })).statusCode).toBe(200);
    expect(
      (await t.inject({ method: 'PATCH', url: `/api/user/${muted.id}`, headers: bearer(muted.token), payload: { qq: '12345' } }))
        .statusCode,
    ).toBe(200);

    const suspended = await memberWithPassword('site-suspended-member');
    const suspend = await t.inject({
      method: 'POST',
      url: `/api/user/${suspended.id}/sanctions`,
      headers: bearer(root),
      payload: { kind: 'suspend', days: null, reason: '广告' },
    });
    expect(suspend.statusCode).toBe(201);
    const after = await t.inject({ method: 'GET', url: `/api/user/${suspended.id}`, headers: bearer(suspended.token) });
    expect(after.statusCode).toBe(401);
    const signIn = await siteLogin('site-suspended-member', suspended.password);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ errorCode: ERROR_CODES.suspended, msg: expect.stringContaining('永久封禁') });
    // A wrong password is told as a wrong password: the suspension only to the account's owner.
    expect((await siteLogin('site-suspended-member', 'Wrong-Password-11')).json().errorCode).not.toBe(ERROR_CODES.suspended);
  });
});

describe('another origin', () => {
  it('SITE_ORIGINS may call the visitor and member side; the back-office never answers cross-origin', async () => {
    const visitor = await t.inject({ method: 'GET', url: '/api/issue', headers: { origin: SITE } });
    expect(visitor.headers['access-control-allow-origin']).toBe(SITE);
    const member = await t.signUpMember('cors-member', { ip: freshIp() });
    const asMember = await t.inject({ method: 'GET', url: '/api/user/whoami', headers: { origin: SITE, ...bearer(member.token) } });
    expect(asMember.headers['access-control-allow-origin']).toBe(SITE);
    const admin = await t.inject({ method: 'GET', url: '/api/issue', headers: { origin: SITE, ...bearer(root) } });
    expect(admin.headers['access-control-allow-origin']).toBeUndefined();
    const stranger = await t.inject({ method: 'GET', url: '/api/issue', headers: { origin: 'https://evil.example' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.inject({
      method: 'OPTIONS',
      url: '/api/comment',
      headers: { origin: SITE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect({ status: preflight.statusCode, origin: preflight.headers['access-control-allow-origin'] }).toEqual({
      status: 204,
      origin: SITE,
    });
  });

  it('without SITE_ORIGINS nothing answers cross-origin', async () => {
    const plain = await createTestContext();
    try {
      const response = await plain.inject({ method: 'GET', url: '/api/issue', headers: { origin: SITE } });
      expect({ status: response.statusCode, cors: response.headers['access-control-allow-origin'] }).toEqual({
        status: 200,
        cors: undefined,
      });
    } finally {
      await plain.close();
    }
  });
});
