import { eq } from 'drizzle-orm';
import { comments, issues, moderationFlags } from '../../db/schema';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { moderate, recordHold, screen } from './moderation';

let t: TestContext;
let root: string;
let normal: string;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  normal = (await t.createAdmin('mod-normal', 2)).token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = root) =>
  t.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
const addWord = (word: string, action: string) => call('POST', '/api/moderation/words', { word, action });

describe('the word list', () => {
  it('adds, lists, refuses a duplicate spelled another way, and deletes; writes are for super admins', async () => {
    const added = await addWord('代开发票', 'reject');
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      word: '代开发票',
      action: 'reject',
      createdAt: expect.any(Number),
    });
    expect((await addWord('spam', 'hold')).statusCode).toBe(201);
    const again = await addWord('Ｓ Ｐ Ａ Ｍ', 'flag');
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('该敏感词已存在');
    expect((await addWord('!!!', 'flag')).json().msg).toBe('敏感词至少要包含一个文字、字母或数字');

    const list = await call('GET', '/api/moderation/words?current=1&pageSize=10', undefined, normal);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ count: 2, data: [{ word: 'spam' }, { word: '代开发票' }] });
    expect((await call('GET', '/api/moderation/words?action=reject')).json().data.count).toBe(1);
    expect((await call('GET', '/api/moderation/words?word=SP')).json().data.count).toBe(1);

    expect((await call('POST', '/api/moderation/words', { word: 'x', action: 'flag' }, normal)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/moderation/words/${added.json().data._id}`, undefined, normal)).statusCode).toBe(403);
    const temp = (await addWord('临时词', 'flag')).json().data._id;
    expect((await call('DELETE', `/api/moderation/words/${temp}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/moderation/words/${temp}`)).statusCode).toBe(404);
  });

  it('测试 shows which rule fires and where, through the disguises', async () => {
    const response = await call('POST', '/api/moderation/test', { text: '便宜 代.开*发 票，还有 s-p-a-m 和 ѕраm' }, normal);
    expect(response.statusCode).toBe(200);
    const result = response.json().data;
    expect(result.action).toBe('reject');
    expect(result.reasons).toEqual([
      { rule: 'word', action: 'reject', words: ['代开发票'] },
      { rule: 'word', action: 'hold', words: ['spam'] },
    ]);
    expect(result.spans.map((s: { text: string }) => s.text)).toEqual(['代.开*发 票', 's-p-a-m', 'ѕраm']);
    const text = '便宜 代.开*发 票，还有 s-p-a-m 和 ѕраm';
    for (const span of result.spans) expect(text.slice(span.start, span.end)).toBe(span.text);
    expect((await call('POST', '/api/moderation/test', { text: 'a classic example' })).json().data).toEqual({
      action: 'pass',
      reasons: [],
      spans: [],
    });
  });

  it('exports the list as a text file and imports one (merge, then replace), all or nothing', async () => {
    const file = await call('GET', '/api/moderation/words/file');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/plain');
    expect(file.body).toBe('代开发票\t拒绝\nspam\t待审\n');
    expect((await call('GET', '/api/moderation/words/file', undefined, normal)).statusCode).toBe(403);

    const merged = await call('POST', '/api/moderation/words/file', { text: '# 注释\nspam\t标记\n赌博网站,拒绝\n兼职刷单\t待审\n' });
    expect(merged.json().data).toEqual({ added: 2, updated: 1, removed: 0, unchanged: 0 });
    const bad = await call('POST', '/api/moderation/words/file', { text: '好词\t待审\n坏行\t未知动作\n' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('导入文件第 2 行无法识别');
    expect((await call('GET', '/api/moderation/words')).json().data.count).toBe(4);

    const replaced = await call('POST', '/api/moderation/words/file', { text: file.body, mode: 'replace' });
    expect(replaced.json().data).toEqual({ added: 0, updated: 1, removed: 2, unchanged: 1 });
    expect((await call('GET', '/api/moderation/words/file')).body).toBe(file.body);
  });
});

describe('the account rules', () => {
  it('GET/PATCH /api/settings/moderation: off by default, super admins only', async () => {
    expect((await call('GET', '/api/settings/moderation')).json().data).toEqual({ holdFirstPosts: 0, holdLinksDays: 0 });
    expect((await call('GET', '/api/settings/moderation', undefined, normal)).statusCode).toBe(403);
    expect((await call('PATCH', '/api/settings/moderation', { holdFirstPosts: 2 }, normal)).statusCode).toBe(403);
    expect((await call('PATCH', '/api/settings/moderation', { holdFirstPosts: 2, holdLinksDays: 7 })).json().data).toEqual({
      holdFirstPosts: 2,
      holdLinksDays: 7,
    });
    expect((await call('PATCH', '/api/settings/moderation', { holdFirstPosts: -1 })).statusCode).toBe(400);
  });

  it('holds the first N posts, links from young accounts and 先审后发 members, naming the rule', async () => {
    const { db } = t.database;
    const f = contentFixtures(db);
    const type = await f.type();
    const now = t.clock.now();
    const fresh = await f.user({ registerDate: now - 86_400_000 });
    const veteran = await f.user({ registerDate: now - 400 * 86_400_000 });
    for (let i = 0; i < 2; i++) await f.issue(veteran, type);
    const marked = await f.user({ registerDate: now - 400 * 86_400_000, reviewFirst: true });
    for (let i = 0; i < 2; i++) await f.issue(marked, type);

    const rulesOf = async (author: string, text: string) =>
      (await moderate(db, { kind: 'comment', text, author }, now)).reasons.map((r) => `${r.rule}:${r.action}`);
    expect(await rulesOf(fresh, '<p>你好</p>')).toEqual(['firstPosts:hold']);
    expect(await rulesOf(fresh, '<p>看 https://example.com</p>')).toEqual(['newAccountLinks:hold', 'firstPosts:hold']);
    expect(await rulesOf(veteran, '<p>看 https://example.com</p>')).toEqual([]);
    expect(await rulesOf(marked, '<p>你好</p>')).toEqual(['reviewFirst:hold']);
    // Nicknames and intros: the words only.
    expect((await moderate(db, { kind: 'user', text: '新人', author: fresh }, now)).action).toBe('pass');
  });
});

describe('screen() and recordHold()', () => {
  it('refuses a 拒绝 word with CONTENT_REJECTED naming no word, and queues one open flag per item', async () => {
    const { db } = t.database;
    await expect(screen(db, { kind: 'comment', text: '<p>代 开 发 票</p>', author: null })).rejects.toMatchObject({
      statusCode: 400,
      errorCode: 'CONTENT_REJECTED',
      msg: '内容包含不允许发布的信息，请修改后再提交',
    });
    const verdict = await screen(db, { kind: 'comment', text: '<p>sp am</p>', author: null });
    expect(verdict.action).toBe('hold');
    await recordHold(db, { kind: 'comment', itemId: '0123456789abcdef01234567', verdict });
    await recordHold(db, { kind: 'comment', itemId: '0123456789abcdef01234567', verdict });
    const flags = await db.select().from(moderationFlags).where(eq(moderationFlags.itemId, '0123456789abcdef01234567'));
    expect(flags).toEqual([
      expect.objectContaining({ kind: 'comment', state: 'open', reasons: [{ rule: 'word', action: 'hold', words: ['spam'] }] }),
    ]);
  });
});

describe('重新检查', () => {
  it('holds stored content that a word now catches, in batches, and reports its progress', async () => {
    const { db } = t.database;
    const f = contentFixtures(db);
    const type = await f.type();
    const author = await f.user({ nickname: 'S.P.A.M 大王' });
    const issue = await f.issue(author, type, { issueStatus: true, issueContent: '<p>专业代开发票</p>' });
    const clean = await f.issue(author, type, { issueStatus: true });
    const comment = await f.comment({ userId: author, typeId: type, issueId: clean, commentContent: '<p>加我 spam</p>' });
    expect((await call('POST', '/api/moderation/recheck', {}, normal)).statusCode).toBe(403);
    const started = await call('POST', '/api/moderation/recheck', { kinds: ['issue', 'comment', 'user'] });
    expect(started.statusCode).toBe(202);
    expect(started.json().data.running).toBe(true);
    let status = started.json().data;
    for (let i = 0; i < 200 && status.running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await call('GET', '/api/moderation/recheck')).json().data;
    }
    expect(status).toMatchObject({ running: false, error: null });
    expect(status.flagged).toBeGreaterThanOrEqual(3);

    const [held] = await db.select().from(issues).where(eq(issues.id, issue));
    expect(held.issueStatus).toBe(false);
    const [cleanRow] = await db.select().from(issues).where(eq(issues.id, clean));
    expect(cleanRow.issueStatus).toBe(true);
    const [heldComment] = await db.select().from(comments).where(eq(comments.id, comment));
    expect(heldComment.held).toBe(true);
    const open = await db.select().from(moderationFlags).where(eq(moderationFlags.state, 'open'));
    expect(open.map((flag) => `${flag.kind}:${flag.itemId}`)).toEqual(
      expect.arrayContaining([`issue:${issue}`, `comment:${comment}`, `user:${author}`]),
    );
    expect(open.find((flag) => flag.itemId === issue)!.reasons).toEqual([{ rule: 'word', action: 'reject', words: ['代开发票'] }]);
  });
});

describe('the rules on the back-office writes', () => {
  it('a 拒绝 word refuses an admin’s question, comment, nickname or intro; a 待审 word flags it into 审核台, published, its rule named', async () => {
    expect((await addWord('后台拒绝词', 'reject')).statusCode).toBe(201);
    expect((await addWord('后台待审词', 'hold')).statusCode).toBe(201);
    const f = contentFixtures(t.database.db);
    const typeId = await f.type();
    const userId = await f.user();
    const book = await f.book(typeId);
    const writes = {
      issue: (text: string) =>
        call('POST', '/api/issue', { issueTitle: '后台提问', issueContent: `<p>${text}</p>`, userId, typeId }, normal),
      comment: (text: string) =>
        call('POST', '/api/comment', { commentContent: `<p>${text}</p>`, commentType: 2, bookId: book, userId }, normal),
      user: (text: string) => call('POST', '/api/user', { loginId: `mod-user-${text.length}-${Date.now()}`, intro: text }, normal),
      userEdit: (text: string) => call('PATCH', `/api/user/${userId}`, { nickname: text }, normal),
    };
    for (const [path, write] of Object.entries(writes)) {
      const refused = await write('这里有 后 台 拒 绝 词');
      expect({ path, status: refused.statusCode, code: refused.json().errorCode }).toEqual({ path, status: 400, code: 'CONTENT_REJECTED' });
      expect(refused.json().msg).not.toContain('后台拒绝词');

      const flagged = await write('一段含有后台待审词的文字');
      expect({ path, status: flagged.statusCode }).toEqual({
        path,
        status: path === 'issue' || path === 'comment' || path === 'user' ? 201 : 200,
      });
      const itemId = path === 'userEdit' ? userId : flagged.json().data._id;
      const [flag] = await t.database.db.select().from(moderationFlags).where(eq(moderationFlags.itemId, itemId));
      expect({
        path,
        state: flag?.state,
        rules: (flag?.reasons as Array<{ rule: string; words: string[] }> | undefined)?.map((r) => `${r.rule}:${r.words.join()}`),
      }).toEqual({
        path,
        state: 'open',
        rules: ['word:后台待审词'],
      });
    }
    // Flagged, not hidden: the admin's comment is published.
    const comment = (await writes.comment('又一段后台待审词')).json().data._id;
    const [row] = await t.database.db.select({ held: comments.held }).from(comments).where(eq(comments.id, comment));
    expect(row.held).toBe(false);
    // Ordinary text records nothing.
    const clean = (await writes.issue('普通的问题')).json().data._id;
    expect(await t.database.db.select().from(moderationFlags).where(eq(moderationFlags.itemId, clean))).toEqual([]);
  });
});
