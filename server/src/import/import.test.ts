import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { AWAITING_APPROVAL_RULE } from '#contract/review';
import { queryRows, type Db } from '../db/client';
import { canonicalLoginId } from '../lib/account-names';
import { lockDataDir } from '../lib/data-dir-lock';
import { DEFAULT_AVATAR } from '../lib/defaults';
import { bearer, createTestContext, freshDatabase, type TestContext } from '../../test/harness';
import { runFromSource } from '../../test/live/source-process';
import { DumpSyntaxError } from './dump-script';
import { runImport, type ImportOptions, type ImportReport } from './importer';
import { formatReport } from './report';
import { readSource } from './source';

const SAMPLE = path.join(__dirname, '../../test/fixtures/coderstation-sample');
const DUMP = path.join(SAMPLE, 'dump.js');
const EXPORT_DIR = path.join(SAMPLE, 'mongoexport');
const STATIC = path.join(SAMPLE, 'static');
const MD5_123456 = 'e10adc3949ba59abbe56e057f20f883e';
const SAMPLE_MD5S = [MD5_123456, '3935df2dbacd39f8913ce2476b0ece90', 'f30aa7a662c728b7407c54ae6bfd27d1'];

const options = (source: string, extra: Partial<ImportOptions> = {}): ImportOptions => ({
  source,
  staticDir: STATIC,
  dryRun: false,
  update: false,
  resetLegacyPasswords: false,
  ...extra,
});

async function importFrom(db: Db, source: string, extra: Partial<ImportOptions> = {}) {
  return runImport(db, await readSource(source), options(source, extra));
}

/** Every row of every table the import writes, in a fixed order: what "nothing changed" compares. */
async function snapshot(db: Db) {
  const out: Record<string, unknown[]> = {};
  for (const table of ['admins', 'types', 'users', 'books', 'interviews', 'issues', 'comments', 'uploads', 'list_counts', 'list_buckets']) {
    const order = table === 'list_counts' ? 'list, flag, kind, type_id' : table === 'list_buckets' ? 'list, key, span, start' : 'id';
    out[table] = await queryRows(db, sql.raw(`select * from ${table} order by ${order}`));
  }
  return out;
}

/** The fixture README's table: read and imported per collection, and what was left out. */
function table(report: ImportReport) {
  return Object.fromEntries(report.collections.map((c) => [c.collection, [c.read, c.imported, c.updated, c.skipped]]));
}

const README_TABLE = {
  admins: [3, 3, 0, 0],
  types: [3, 3, 0, 0],
  users: [3, 3, 0, 0],
  books: [2, 2, 0, 0],
  interviews: [2, 2, 0, 0],
  issues: [2, 2, 0, 0],
  comments: [4, 3, 0, 1],
};

let t: TestContext;
let db: Db;
let first: ImportReport;
beforeAll(async () => {
  t = await createTestContext();
  db = t.database.db;
});
afterAll(() => t.close());

const one = async <T>(query: string, on: Db = db) => (await queryRows<T>(on, sql.raw(query)))[0];

describe('npm run import: the sample dump with its static folder', () => {
  it('--dry-run reports what an import would do and changes nothing', async () => {
    const before = await snapshot(db);
    const { report } = await importFrom(db, DUMP, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(table(report)).toEqual(README_TABLE);
    expect(report.images.brought).toBe(4);
    expect(await snapshot(db)).toEqual(before);
  });

  it('imports into an empty database exactly the table of the fixture README', async () => {
    ({ report: first } = await importFrom(db, DUMP));
    expect(table(first)).toEqual(README_TABLE);
    expect(first.ignored).toEqual([
      { collection: 'chat', documents: 0 },
      { collection: 'navs', documents: 1 },
    ]);
    const skipped = first.collections.find((c) => c.collection === 'comments')!.skips;
    expect(skipped).toEqual([
      expect.objectContaining({ id: '64a1f0c2a1b2c3d4e5f60604', line: 264, reason: '问答 64a1f0c2a1b2c3d4e5f60599 不存在' }),
    ]);
    expect(formatReport(first)).toMatch(/comments\s+4\s+3\s+0\s+1/);

    // The import is in the audit log: one 导入 entry with each collection's counts.
    const logged = await queryRows<{ action: string; admin_login_id: string; changes: Array<{ field: string; after: string }> }>(
      db,
      sql`select action, admin_login_id, changes from audit_log where entity = 'import' order by id`,
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ action: '导入', admin_login_id: 'npm run import' });
    expect(logged[0].changes).toContainEqual({
      field: 'comments',
      after: '读取 4，导入 3，更新 0，跳过 1，修正 1，图片 0，待审 0，标记 0',
    });

    const admins = await queryRows<{ login_id: string; permission: number; enabled: boolean; password_legacy: boolean }>(
      db,
      sql`select login_id, permission, enabled, password_legacy from admins where id like '64a1f0c2%' order by id`,
    );
    expect(admins).toEqual([
      { login_id: 'station', permission: 1, enabled: true, password_legacy: true },
      { login_id: 'lotus', permission: 2, enabled: true, password_legacy: true },
      { login_id: 'retired', permission: 2, enabled: false, password_legacy: true },
    ]);
    expect((await queryRows<{ type_name: string }>(db, sql`select type_name from types order by id`)).map((r) => r.type_name)).toEqual([
      'JavaScript',
      '数据库',
      '网络 "协议"',
    ]);

    const users = await queryRows<{ login_id: string; points: number; enabled: boolean; intro: string; avatar: string }>(
      db,
      sql`select login_id, points, enabled, intro, avatar from users order by id`,
    );
    expect(users.map((u) => [u.login_id, u.points, u.enabled])).toEqual([
      ['xiaoming', 132, true],
      ['lihua', 100, true],
      ['banned_bob', 0, false],
    ]);
    expect(users[2].intro).not.toMatch(/<|script/);
    expect(users[0].intro).toBe('喜欢前端，\n也喜欢数据库。');

    // Images: uploads, every reference to one file the same upload; the missing and the fake one the default.
    const station = await one<{ avatar: string }>(`select avatar from admins where login_id = 'station'`);
    expect(station.avatar).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    expect(users[0].avatar).toBe(station.avatar);
    expect(users[1].avatar).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    expect(users[2].avatar).toBe(DEFAULT_AVATAR);
    expect((await one<{ avatar: string }>(`select avatar from admins where login_id = 'lotus'`)).avatar).toBe(DEFAULT_AVATAR);
    expect(first.images.replaced.map((n) => n.id)).toEqual(['64a1f0c2a1b2c3d4e5f60002', '64a1f0c2a1b2c3d4e5f60203']);
    expect((await one<{ n: number }>('select count(*)::int as n from uploads')).n).toBe(4);

    const books = await queryRows<{ book_pic: string; book_intro: string; comment_number: number }>(
      db,
      sql`select book_pic, book_intro, comment_number from books order by id`,
    );
    expect(books[0].book_pic).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    expect(books[1].book_pic).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.gif$/);
    expect(books[0].book_intro).not.toMatch(/onerror/);
    expect(books[0].book_intro).toContain('<strong>内容简介</strong>');
    expect(books.map((b) => b.comment_number)).toEqual([1, 0]);
    const cover = await t.inject({ method: 'GET', url: books[1].book_pic });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/gif');

    const interviews = await queryRows<{ on_shelf_date: number; interview_content: string }>(
      db,
      sql`select on_shelf_date, interview_content from interviews order by id`,
    );
    expect(interviews.map((i) => Number(i.on_shelf_date))).toEqual([1685577600000, 1685692800000]);
    expect(interviews[0].interview_content).not.toMatch(/javascript:/);
    expect(interviews[0].interview_content).toContain('<pre><code class="language-js">');

    const issues = await queryRows<{ comment_number: number; issue_content: string; issue_status: boolean }>(
      db,
      sql`select comment_number, issue_content, issue_status from issues order by id`,
    );
    expect(issues.map((i) => [i.comment_number, i.issue_status])).toEqual([
      [2, true],
      [0, false],
    ]);
    expect(issues[1].issue_content).not.toMatch(/iframe/);

    const comments = await queryRows<{ id: string; comment_content: string }>(
      db,
      sql`select id, comment_content from comments order by id`,
    );
    expect(comments.map((c) => c.id)).toEqual(['64a1f0c2a1b2c3d4e5f60601', '64a1f0c2a1b2c3d4e5f60602', '64a1f0c2a1b2c3d4e5f60603']);
    expect(comments[1].comment_content).toBe('<p>谢谢！</p>');

    // The lists' trigger-kept totals follow the inserted rows.
    const counts = await queryRows<{ kind: number; n: number }>(
      db,
      sql`select kind, sum(n)::int as n from list_counts where list = 'comments' group by kind order by kind`,
    );
    expect(counts).toEqual([
      { kind: 1, n: 2 },
      { kind: 2, n: 1 },
    ]);

    expect(first.legacyPasswords).toEqual({
      admins: ['lotus', 'retired', 'station'],
      users: 3,
      someUsers: ['banned_bob', 'lihua', 'xiaoming'],
    });
  });

  it('a second run changes nothing and says why each record was left alone', async () => {
    const before = await snapshot(db);
    const { report } = await importFrom(db, DUMP);
    expect(await snapshot(db)).toEqual(before);
    for (const c of report.collections) {
      expect(c.imported + c.updated).toBe(0);
      expect(c.skipped).toBe(c.read);
    }
    expect(report.images.brought).toBe(0);
  });

  it('--update writes the same records again without changing them', async () => {
    const before = await snapshot(db);
    const { report } = await importFrom(db, DUMP, { update: true });
    expect(report.collections.find((c) => c.collection === 'users')!.updated).toBe(3);
    expect(await snapshot(db)).toEqual(before);
  });

  it('an imported admin signs in once with the old password, which is then stored as argon2id', async () => {
    const hashOf = () =>
      one<{ password_hash: string; password_legacy: boolean }>(
        `select password_hash, password_legacy from admins where login_id = 'station'`,
      );
    expect(await hashOf()).toEqual({ password_hash: MD5_123456, password_legacy: true });
    // The md5 itself is no password.
    expect((await t.login('station', MD5_123456)).statusCode).toBe(401);

    const response = await t.login('station', '123456');
    expect(response.statusCode).toBe(200);
    for (const md5 of SAMPLE_MD5S) expect(response.body).not.toContain(md5);
    const upgraded = await hashOf();
    expect(upgraded.password_legacy).toBe(false);
    expect(upgraded.password_hash).toMatch(/^\$argon2id\$/);

    expect((await t.login('station', '123456')).statusCode).toBe(200);
    expect((await t.login('station', MD5_123456)).statusCode).toBe(401);
    expect((await t.login('lotus', '123456')).statusCode).toBe(401);
    expect((await t.login('lotus', 'Lotus#2023')).statusCode).toBe(200);
    // A disabled admin's right password is still refused.
    expect((await t.login('retired', '123456')).statusCode).toBe(403);

    // No list or record answer carries an old hash.
    const token = await t.tokenFor('station', '123456');
    for (const url of ['/api/admin', '/api/user?current=1&pageSize=10', '/api/user/64a1f0c2a1b2c3d4e5f60201']) {
      const answer = await t.inject({ method: 'GET', url, headers: bearer(token) });
      expect(answer.statusCode).toBe(200);
      for (const md5 of SAMPLE_MD5S) expect(answer.body).not.toContain(md5);
    }
    // A password an admin sets for a user ends the user's legacy hash.
    const patched = await t.inject({
      method: 'PATCH',
      url: '/api/user/64a1f0c2a1b2c3d4e5f60202',
      headers: bearer(token),
      payload: { loginPwd: 'new-secret-1' },
    });
    expect(patched.statusCode).toBe(200);
    expect(await one(`select password_legacy from users where login_id = 'lihua'`)).toEqual({ password_legacy: false });
    // A later --update does not bring an upgraded account's md5 back.
    await importFrom(db, DUMP, { update: true });
    expect((await hashOf()).password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('npm run import: other sources', () => {
  it('the same data as mongoexport files gives the same result', async () => {
    const other = await freshDatabase();
    try {
      await other.database.migrate();
      const { report } = await importFrom(other.database.db, EXPORT_DIR);
      expect(report.format).toBe('mongoexport');
      expect(table(report)).toEqual(table(first));
      expect(report.ignored).toEqual(first.ignored);
      expect(report.collections.find((c) => c.collection === 'comments')!.skips[0]).toMatchObject({ line: 4, file: 'comments.json' });
      // Every row alike but the upload ids (new ids per database) and the passwords the tests above
      // changed (with the versions those changes moved).
      const normalise = (rows: Record<string, unknown[]>) =>
        JSON.parse(
          JSON.stringify(rows, (key, value) =>
            key === 'password_hash' || key === 'password_legacy' || key === 'version' || key === 'created_at' || key === 'data'
              ? undefined
              : typeof value === 'string'
                ? value.replace(/[0-9a-f]{24}\.(png|gif)$/, 'upload.$1')
                : value,
          ),
        );
      const mine = await snapshot(db);
      const theirs = await snapshot(other.database.db);
      mine.admins = mine.admins.filter((a) => (a as { login_id: string }).login_id !== 'root');
      mine.uploads = mine.uploads.map((u) => ({ ...(u as object), id: 'x' }));
      theirs.uploads = theirs.uploads.map((u) => ({ ...(u as object), id: 'x' }));
      expect(normalise(theirs)).toEqual(normalise(mine));
    } finally {
      await other.database.close();
      await other.drop();
    }
  });

  it('--reset-legacy-passwords gives each imported admin a new password, shown once and never stored in the report', async () => {
    const other = await freshDatabase();
    try {
      await other.database.migrate();
      const { report, newPasswords } = await importFrom(other.database.db, DUMP, { resetLegacyPasswords: true });
      expect(newPasswords.map((p) => p.loginId)).toEqual(['station', 'lotus', 'retired']);
      expect(report.legacyPasswords.admins).toEqual([]);
      expect(JSON.stringify(report)).not.toContain(newPasswords[0].password);
      const rows = await queryRows<{ password_hash: string }>(other.database.db, sql`select password_hash from admins`);
      for (const row of rows) expect(row.password_hash).toMatch(/^\$argon2id\$/);
    } finally {
      await other.database.close();
      await other.drop();
    }
  });
});

describe('npm run import: account names by their canonical form', () => {
  it('stores login_key as the repositories compute it, and skips a name whose canonical form is taken', async () => {
    const other = await freshDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-import-keys-'));
    try {
      await other.database.migrate();
      const admin = (id: string, loginId: string) =>
        `db.getCollection("admins").insert([ { _id: ObjectId("${id}"), loginId: "${loginId}", loginPwd: "${MD5_123456}", nickname: "n", avatar: "", permission: Int32("2"), enabled: true } ]);\n`;
      const first = path.join(dir, 'first.js');
      // Full-width ＳＴＡＴＩＯＮ and Ｗarden are the same account names as station and warden: only the first of each is kept.
      fs.writeFileSync(
        first,
        admin('64a1f0c2a1b2c3d4e5f6ab01', 'Station') +
          admin('64a1f0c2a1b2c3d4e5f6ab02', 'ＳＴＡＴＩＯＮ') +
          admin('64a1f0c2a1b2c3d4e5f6ab03', 'warden'),
      );
      const { report } = await importFrom(other.database.db, first);
      expect(table(report).admins).toEqual([3, 2, 0, 1]);
      const rows = await queryRows<{ login_id: string; login_key: string }>(
        other.database.db,
        sql`select login_id, login_key from admins where id like '64a1f0c2%' order by id`,
      );
      expect(rows).toEqual([
        { login_id: 'Station', login_key: canonicalLoginId('Station') },
        { login_id: 'warden', login_key: canonicalLoginId('warden') },
      ]);
      // Against what is already in the database too: Ｗarden is warden's.
      const second = path.join(dir, 'second.js');
      fs.writeFileSync(second, admin('64a1f0c2a1b2c3d4e5f6ab04', 'Ｗarden'));
      const again = await importFrom(other.database.db, second);
      expect(table(again.report).admins).toEqual([1, 0, 0, 1]);
      expect(again.report.collections.find((c) => c.collection === 'admins')!.skips[0].reason).toContain(
        '已被另一个 id（64a1f0c2a1b2c3d4e5f6ab03）使用',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await other.database.close();
      await other.drop();
    }
  });
});

describe('npm run import: the moderation rules screen what it imports', () => {
  // A database of its own with a word list: the sample's texts that hold these words are held or flagged.
  let m: TestContext;
  let root: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-import-moderation-'));
  const ISSUE_OFFSET = '64a1f0c2a1b2c3d4e5f60501';
  const ISSUE_AWAITING = '64a1f0c2a1b2c3d4e5f60502';
  const COMMENT_CURSOR = '64a1f0c2a1b2c3d4e5f60601';
  const COMMENT_INDEX = '64a1f0c2a1b2c3d4e5f60603';
  const XIAOMING = '64a1f0c2a1b2c3d4e5f60201';
  beforeAll(async () => {
    m = await createTestContext();
    root = await m.rootToken();
    for (const [word, action] of [
      ['游标', 'reject'],
      ['OFFSET', 'hold'],
      ['索引', 'flag'],
      ['小明', 'flag'],
      ['前端', 'hold'],
    ]) {
      const added = await m.inject({ method: 'POST', url: '/api/moderation/words', headers: bearer(root), payload: { word, action } });
      expect(added.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await m.close();
  });
  const mdb = () => m.database.db;
  const flags = () =>
    queryRows<{ kind: string; item_id: string; state: string; reasons: unknown }>(
      mdb(),
      sql`select kind, item_id, state, reasons from moderation_flags order by kind, item_id, id`,
    );
  const queue = async (query = '') =>
    (await m.inject({ method: 'GET', url: `/api/review${query}`, headers: bearer(root) })).json().data as {
      count: number;
      data: Array<{ kind: string; id: string; reasons: unknown[] }>;
    };

  const EXPECTED_FLAGS = [
    { kind: 'comment', item_id: COMMENT_CURSOR, state: 'open', reasons: [{ rule: 'word', action: 'reject', words: ['游标'] }] },
    { kind: 'comment', item_id: COMMENT_INDEX, state: 'open', reasons: [{ rule: 'word', action: 'flag', words: ['索引'] }] },
    { kind: 'issue', item_id: ISSUE_OFFSET, state: 'open', reasons: [{ rule: 'word', action: 'hold', words: ['OFFSET'] }] },
    {
      kind: 'user',
      item_id: XIAOMING,
      state: 'open',
      reasons: [
        { rule: 'word', action: 'flag', words: ['小明'] },
        { rule: 'word', action: 'hold', words: ['前端'] },
      ],
    },
  ];

  it('--dry-run counts what the rules would hold and flag, and writes no flag', async () => {
    const { report } = await importFrom(mdb(), DUMP, { dryRun: true });
    expect(report.moderation.records.map((r) => [r.kind, r.id, r.outcome])).toEqual([
      ['user', XIAOMING, 'flagged'],
      ['issue', ISSUE_OFFSET, 'held'],
      ['comment', COMMENT_CURSOR, 'held'],
      ['comment', COMMENT_INDEX, 'flagged'],
    ]);
    expect(await flags()).toEqual([]);
  });

  it('refuses no record: a 拒绝 or 待审 word holds it, a 标记 word publishes and flags it, each in 审核台 with its rule', async () => {
    const { report } = await importFrom(mdb(), DUMP);
    expect(table(report)).toEqual(README_TABLE);
    expect(report.collections.map((c) => [c.collection, c.held, c.flagged])).toEqual([
      ['types', 0, 0],
      ['admins', 0, 0],
      ['users', 0, 1],
      ['books', 0, 0],
      ['interviews', 0, 0],
      ['issues', 1, 0],
      ['comments', 1, 1],
    ]);
    expect(report.moderation.counts).toEqual([
      { kind: 'user', outcome: 'flagged', rule: 'word', action: 'flag', records: 1 },
      { kind: 'user', outcome: 'flagged', rule: 'word', action: 'hold', records: 1 },
      { kind: 'issue', outcome: 'held', rule: 'word', action: 'hold', records: 1 },
      { kind: 'comment', outcome: 'held', rule: 'word', action: 'reject', records: 1 },
      { kind: 'comment', outcome: 'flagged', rule: 'word', action: 'flag', records: 1 },
    ]);
    expect(report.moderation.records.find((r) => r.id === COMMENT_CURSOR)).toMatchObject({
      collection: 'comments',
      line: 234,
      reason: '待审：敏感词「游标」（拒绝）',
    });
    const printed = formatReport(report);
    expect(printed).toMatch(/comments\s+4\s+3\s+0\s+1\s+1\s+0\s+1\s+1/);
    expect(printed).toContain('审核规则：待审 2 条，标记 2 条，都已进入审核台：');
    expect(printed).toContain('  评论 待审 敏感词（拒绝）1 条');
    expect(printed).toContain(`  comments ${COMMENT_CURSOR}（第 234 行）：待审：敏感词「游标」（拒绝）`);

    // Held: the question unpublished, the comment hidden; flagged: published as the dump says.
    const issueRows = await queryRows<{ id: string; issue_status: boolean; comment_number: number }>(
      mdb(),
      sql`select id, issue_status, comment_number from issues order by id`,
    );
    // The held comment is not counted on its question: visitors read one comment there.
    expect(issueRows).toEqual([
      { id: ISSUE_OFFSET, issue_status: false, comment_number: 1 },
      { id: ISSUE_AWAITING, issue_status: false, comment_number: 0 },
    ]);
    const commentRows = await queryRows<{ id: string; held: boolean }>(mdb(), sql`select id, held from comments order by id`);
    expect(commentRows).toEqual([
      { id: COMMENT_CURSOR, held: true },
      { id: '64a1f0c2a1b2c3d4e5f60602', held: false },
      { id: COMMENT_INDEX, held: false },
    ]);
    expect(await one<{ n: number }>(`select count(*)::int as n from users`, mdb())).toEqual({ n: 3 });
    expect(await flags()).toEqual(EXPECTED_FLAGS);

    // 审核台 lists each with its rule (and the question the dump left unapproved, awaiting approval).
    const waiting = await queue('?pageSize=20');
    expect(waiting.count).toBe(5);
    const byId = new Map(waiting.data.map((item) => [item.id, item]));
    for (const flag of EXPECTED_FLAGS) expect(byId.get(flag.item_id)).toMatchObject({ kind: flag.kind, reasons: flag.reasons });
    expect(byId.get(ISSUE_AWAITING)).toMatchObject({ reasons: [{ rule: AWAITING_APPROVAL_RULE }] });
    expect((await queue('?rule=word')).count).toBe(4);

    const logged = await queryRows<{ changes: Array<{ field: string; after: string }> }>(
      mdb(),
      sql`select changes from audit_log where entity = 'import' order by id`,
    );
    expect(logged[0].changes).toContainEqual({
      field: 'comments',
      after: '读取 4，导入 3，更新 0，跳过 1，修正 1，图片 0，待审 1，标记 1',
    });
  });

  it('running it again, with or without --update, adds no flag; an approved record stays approved', async () => {
    const again = await importFrom(mdb(), DUMP);
    expect(again.report.moderation.records).toEqual([]);
    expect(await flags()).toEqual(EXPECTED_FLAGS);

    const updated = await importFrom(mdb(), DUMP, { update: true });
    expect(updated.report.moderation.records).toHaveLength(4);
    expect(await flags()).toEqual(EXPECTED_FLAGS);
    expect(await one(`select held from comments where id = '${COMMENT_CURSOR}'`, mdb())).toEqual({ held: true });

    const approved = await m.inject({
      method: 'POST',
      url: '/api/review/decisions',
      headers: bearer(root),
      payload: { items: [{ kind: 'comment', id: COMMENT_CURSOR }], decision: 'approve' },
    });
    expect(approved.statusCode).toBe(200);
    const afterDecision = await importFrom(mdb(), DUMP, { update: true });
    expect(afterDecision.report.moderation.records.map((r) => r.id)).not.toContain(COMMENT_CURSOR);
    expect(await one(`select held from comments where id = '${COMMENT_CURSOR}'`, mdb())).toEqual({ held: false });
    expect((await flags()).filter((f) => f.item_id === COMMENT_CURSOR).map((f) => f.state)).toEqual(['approved']);
    expect((await flags()).filter((f) => f.state === 'open')).toHaveLength(3);
  });

  it('--update takes a waiting record out of 审核台 when no rule fires on it any more, and says so', async () => {
    const words = (await m.inject({ method: 'GET', url: '/api/moderation/words?pageSize=100', headers: bearer(root) })).json().data
      .data as Array<{ _id: string; word: string }>;
    for (const word of words.filter((w) => w.word === 'OFFSET' || w.word === '索引')) {
      const removed = await m.inject({ method: 'DELETE', url: `/api/moderation/words/${word._id}`, headers: bearer(root) });
      expect(removed.statusCode).toBe(200);
    }
    const { report } = await importFrom(mdb(), DUMP, { update: true });
    expect(report.moderation.released.map((r) => [r.kind, r.id])).toEqual([
      ['issue', ISSUE_OFFSET],
      ['comment', COMMENT_INDEX],
    ]);
    expect(formatReport(report)).toContain('不再命中审核规则、已移出审核台的记录（2 条）：');
    // Written as the dump says: the question published again; neither has an open flag.
    expect(await one(`select issue_status from issues where id = '${ISSUE_OFFSET}'`, mdb())).toEqual({ issue_status: true });
    const open = (await flags()).filter((f) => f.state === 'open').map((f) => f.item_id);
    expect(open).not.toContain(ISSUE_OFFSET);
    expect(open).not.toContain(COMMENT_INDEX);
    expect(open).toContain(XIAOMING);
    const waiting = await queue('?pageSize=20');
    expect(waiting.data.map((item) => item.id)).not.toContain(COMMENT_INDEX);
    expect(waiting.data.map((item) => item.id)).not.toContain(ISSUE_OFFSET);
    // A second run has nothing more to release.
    expect((await importFrom(mdb(), DUMP, { update: true })).report.moderation.released).toEqual([]);
  });

  it('先审后发 of an author already in the database holds the imported posts; the other account rules do not apply', async () => {
    await mdb().execute(sql`update users set review_first = true where id = '64a1f0c2a1b2c3d4e5f60202'`);
    // Hold every account's first 5 posts, and links from accounts younger than 30 days: banned_bob
    // (registered 1677628800000) posted his link a day after signing up, both his first posts.
    await mdb().execute(sql`update moderation_settings set hold_first_posts = 5, hold_links_days = 30`);
    const file = path.join(dir, 'more.js');
    const comment = (id: string, userId: string, content: string, date: number) =>
      `db.getCollection("comments").insert([ { _id: ObjectId("${id}"), userId: ObjectId("${userId}"), bookId: ObjectId("64a1f0c2a1b2c3d4e5f60301"), commentContent: "${content}", commentDate: "${date}", commentType: Int32("2") } ]);\n`;
    fs.writeFileSync(
      file,
      comment('64a1f0c2a1b2c3d4e5f6ac01', '64a1f0c2a1b2c3d4e5f60202', '好书', 1690000000000) +
        comment('64a1f0c2a1b2c3d4e5f6ac02', '64a1f0c2a1b2c3d4e5f60203', '下载：https://example.com/book', 1677700000000),
    );
    const { report } = await importFrom(mdb(), file);
    expect(report.moderation.records.map((r) => [r.id, r.outcome, r.reasons])).toEqual([
      ['64a1f0c2a1b2c3d4e5f6ac01', 'held', [{ rule: 'reviewFirst', action: 'hold', words: [] }]],
    ]);
    const rows = await queryRows<{ id: string; held: boolean }>(
      mdb(),
      sql`select id, held from comments where id like '64a1f0c2a1b2c3d4e5f6ac%' order by id`,
    );
    expect(rows).toEqual([
      { id: '64a1f0c2a1b2c3d4e5f6ac01', held: true },
      { id: '64a1f0c2a1b2c3d4e5f6ac02', held: false },
    ]);
    // The book counts its published comments only: the one of the sample and the link.
    expect(await one(`select comment_number from books where id = '64a1f0c2a1b2c3d4e5f60301'`, mdb())).toEqual({ comment_number: 2 });
  });
});

describe('npm run import: a malformed dump is refused with its line and nothing is imported', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-import-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const good = (id: string, text: string) =>
    `db.getCollection("types").insert([ {\n    _id: ObjectId("${id}"),\n    typeName: ${text}\n} ]);\n`;

  it.each([
    [
      'an unclosed bracket',
      `${good('64a1f0c2a1b2c3d4e5f6aa01', '"一"')}db.getCollection("types").insert([ {\n  _id: ObjectId("64a1f0c2a1b2c3d4e5f6aa02"),\n  typeName: "二"\n}\n`,
      5,
    ],
    ['an unknown constructor', `${good('64a1f0c2a1b2c3d4e5f6aa01', '"一"')}${good('64a1f0c2a1b2c3d4e5f6aa02', 'Code("x")')}`, 7],
    ['process.exit() outside a string', `${good('64a1f0c2a1b2c3d4e5f6aa01', '"一"')}\nprocess.exit();\n`, 6],
    ['a call inside a document', `${good('64a1f0c2a1b2c3d4e5f6aa01', 'process.exit()')}`, 3],
    ['an unterminated string', `${good('64a1f0c2a1b2c3d4e5f6aa01', '"一')}`, 3],
  ])('%s', async (_name, text, line) => {
    const before = await snapshot(db);
    const file = write('bad.js', text);
    const error = await importFrom(db, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DumpSyntaxError);
    expect((error as DumpSyntaxError).line).toBe(line);
    expect((error as Error).message).toContain(`第 ${line} 行`);
    expect(await snapshot(db)).toEqual(before);
  });

  it('process.exit() inside a string is only text, and escapes and comments are read', async () => {
    const file = write(
      'ok.js',
      `// a comment\n/* a block\n comment */\ndb.getCollection("types").insert([ { _id: ObjectId("64a1f0c2a1b2c3d4e5f6aa03"), typeName: "process.exit()" }, {\n  _id: ObjectId("64a1f0c2a1b2c3d4e5f6aa04"), // after a value\n  typeName: 'it\\'s \\u4e09 \\"x\\"'\n} ]);`,
    );
    const { report } = await importFrom(db, file, { dryRun: true });
    expect(report.collections.find((c) => c.collection === 'types')).toMatchObject({ read: 2, imported: 2 });
    const parsed = await readSource(file);
    expect(parsed.collections.get('types')!.map((d) => [d.doc.typeName, d.line])).toEqual([
      ['process.exit()', 4],
      ['it\'s 三 "x"', 4],
    ]);
  });
});

describe('npm run import: the command', () => {
  it('refuses, saying why, while another process holds the embedded database', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-import-lock-'));
    const release = lockDataDir(dataDir);
    try {
      const run = runFromSource('server/src/import/cli.ts', [DUMP, '--static', STATIC], { DATA_DIR: dataDir, NODE_ENV: 'test' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('正被另一个服务进程');
    } finally {
      release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 70_000);
});
