import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { ConfigError, loadConfig } from '../../config';
import { type CsvValue, csvDisposition, csvStream, zonedDate } from '../../lib/csv';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, ROOT_PASSWORD, type TestContext } from '../../../test/harness';
import { createUserRepository } from '../user/user.repository';

let t: TestContext;
let root: Record<string, string>;
let fixtures: ReturnType<typeof contentFixtures>;
let typeA: string;
let typeB: string;
beforeAll(async () => {
  t = await createTestContext();
  root = bearer(await t.rootToken());
  fixtures = contentFixtures(t.database.db);
  typeA = await fixtures.type('导出分类A');
  typeB = await fixtures.type('导出分类B');
}, 120_000);
afterAll(() => t.close());

const BOM = '\uFEFF';

/** The rows of a CSV answer, BOM checked and removed (a small parser: quoted cells, "" inside). */
function parseCsv(body: string): string[][] {
  expect(body.startsWith(BOM)).toBe(true);
  const text = body.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell).toBe('');
  return rows;
}

async function exported(url: string) {
  const response = await t.inject({ method: 'GET', url, headers: root });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return { response, rows: parseCsv(response.body) };
}

/** Every row of a list, all pages, as the list answers them. */
async function everyListed(url: string): Promise<Array<Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  for (let current = 1; ; current++) {
    const page = (
      await t.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}pageSize=7&current=${current}`, headers: root })
    ).json().data;
    all.push(...page.data);
    if (current >= page.totalPage) return all;
  }
}

/** Each value as the one cell of a row, written by the exports' own stream: the file's lines after its header. */
async function cells(values: CsvValue[]): Promise<string> {
  let text = '';
  for await (const chunk of csvStream(
    [{ header: 'h', value: (v: CsvValue) => v }],
    (async function* () {
      yield values.slice(0, 2);
      yield values.slice(2);
    })(),
  ))
    text += chunk.toString();
  expect(text.startsWith(`${BOM}h\r\n`)).toBe(true);
  return text.slice(`${BOM}h\r\n`.length);
}

describe('CSV writer', () => {
  it('prefixes what a spreadsheet would run as a formula, quotes what needs it, leaves numbers alone', async () => {
    expect(await cells(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', '中文'])).toBe(
      ["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", `"'\rx"`, 'plain', '中文', ''].join('\r\n'),
    );
    expect(await cells(['a,b', 'say "hi"', 'two\nlines', 'cr\r', '=HYPERLINK("x")'])).toBe(
      ['"a,b"', '"say ""hi"""', '"two\nlines"', '"cr\r"', `"'=HYPERLINK(""x"")"`, ''].join('\r\n'),
    );
    expect(await cells([-5, 0, null, undefined, true, false])).toBe(['-5', '0', '', '', 'true', 'false', ''].join('\r\n'));
  });

  it('writes dates in the installation time zone and names the file in Chinese (RFC 5987)', () => {
    // 2026-11-23 16:30:05 UTC is 2026-11-24 00:30:05 in Shanghai.
    const at = Date.UTC(2026, 10, 23, 16, 30, 5);
    expect(zonedDate(at, 'Asia/Shanghai')).toBe('2026-11-24 00:30:05');
    expect(zonedDate(at, 'UTC')).toBe('2026-11-23 16:30:05');
    // Daylight saving time is the zone's: New York is UTC-4 in July, UTC-5 in November.
    expect(zonedDate(Date.UTC(2026, 6, 1, 12), 'America/New_York')).toBe('2026-07-01 08:00:00');
    expect(zonedDate(at, 'America/New_York')).toBe('2026-11-23 11:30:05');
    expect(zonedDate(null, 'UTC')).toBe('');
    expect(csvDisposition('用户列表', Date.UTC(2026, 10, 23, 4), 'Asia/Shanghai')).toBe(
      `attachment; filename="export-20261123.csv"; filename*=UTF-8''${encodeURIComponent('用户列表-20261123.csv')}`,
    );
    // The moment the bug was seen: the 27th in Shanghai is still the 26th in UTC.
    expect(csvDisposition('用户列表', Date.UTC(2026, 10, 26, 17), 'Asia/Shanghai')).toContain('export-20261127.csv');
    expect(csvDisposition('用户列表', Date.UTC(2026, 10, 26, 17), 'UTC')).toContain('export-20261126.csv');
  });

  it('TIME_ZONE: an IANA name, Asia/Shanghai by default; anything else stops the start', () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TIME_ZONE: ' Europe/Berlin ' }).timeZone).toBe('Europe/Berlin');
    expect(loadConfig({ TIME_ZONE: 'UTC' }).timeZone).toBe('UTC');
    for (const bad of ['Mars/Olympus', '+08:00', 'Asia/Shanghai; drop', 'GMT+8 ']) {
      expect(() => loadConfig({ TIME_ZONE: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TIME_ZONE: 'Nowhere/Town' })).toThrow('环境变量 TIME_ZONE 无效');
  });
});

describe('GET /api/{resource}/export', () => {
  it('user: BOM, Chinese headers, every matching row, no password or hash, escaped and quoted cells', async () => {
    const registerDate = Date.UTC(2026, 0, 2, 3, 4, 5);
    await fixtures.user({ loginId: 'csv-formula', nickname: '=cmd|calc', points: 7, registerDate });
    await fixtures.user({ loginId: 'csv-quote', nickname: 'a "quoted", nick\nname', enabled: false, registerDate: registerDate + 1 });
    const { response, rows } = await exported('/api/user/export?loginId=csv-');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="export-\d{8}\.csv"; filename\*=UTF-8''%E7%94%A8%E6%88%B7%E5%88%97%E8%A1%A8-\d{8}\.csv$/,
    );
    expect(rows).toEqual([
      ['登录账号', '昵称', '头像', '积分', '注册时间', '账号状态'],
      ['csv-quote', 'a "quoted", nick\nname', '/default-avatar.svg', '100', '2026-01-02 11:04:05', '禁用'],
      ['csv-formula', "'=cmd|calc", '/default-avatar.svg', '7', '2026-01-02 11:04:05', '启用'],
    ]);
    expect(response.body).not.toMatch(/not-a-real-hash|password/i);
  });

  it("user: the filters are the list's, and every page of it is exported in its order", async () => {
    for (let i = 0; i < 12; i++) await fixtures.user({ loginId: `csv-many-${i}`, nickname: i % 3 ? '甲' : '乙', enabled: i % 2 === 0 });
    for (const query of [
      '',
      'loginId=csv-many',
      'loginId=csv-many&enabled=false',
      'nickname=乙',
      'enabled=true',
      'loginId=nobody-has-this',
    ]) {
      const listed = await everyListed(`/api/user?${query}`);
      const { rows } = await exported(`/api/user/export?${query}`);
      expect({ query, rows: rows.slice(1).map((r) => r[0]) }).toEqual({ query, rows: listed.map((u) => u.loginId) });
    }
    expect((await t.inject({ method: 'GET', url: '/api/user/export?enabled=maybe', headers: root })).statusCode).toBe(400);
  });

  it("book, interview, issue and comment: the list's columns, type names, plain text, filters", async () => {
    const user = await fixtures.user({ loginId: 'csv-asker', nickname: '提问者' });
    const book = await fixtures.book(typeA, {
      bookTitle: '导出书',
      bookIntro: '<p>简介 &amp; <b>粗体</b></p>',
      onShelfDate: Date.UTC(2026, 5, 1),
    });
    await fixtures.book(typeB, { bookTitle: '另一本' });
    await fixtures.interview(typeA, { interviewTitle: '-1 题', onShelfDate: Date.UTC(2026, 5, 1) });
    const issue = await fixtures.issue(user, typeA, {
      issueTitle: '导出问答',
      issueContent: '<p>描述</p>',
      issueStatus: true,
      issueDate: Date.UTC(2026, 5, 1, 16),
    });
    await fixtures.issue(user, typeB, { issueTitle: '待审问答' });
    await t.inject({
      method: 'POST',
      url: '/api/comment',
      headers: root,
      payload: { userId: user, commentType: 1, issueId: issue, commentContent: '<p>@评论</p>' },
    });
    await t.inject({
      method: 'POST',
      url: '/api/comment',
      headers: root,
      payload: { userId: user, commentType: 2, bookId: book, commentContent: '<p>书评</p>' },
    });

    expect((await exported(`/api/book/export?typeId=${typeA}`)).rows).toEqual([
      ['书籍名称', '书籍分类', '书籍简介', '书籍封面', '浏览数', '评论数', '上架日期'],
      ['导出书', '导出分类A', '简介 & 粗体', '/default-cover.svg', '0', '1', '2026-06-01 08:00:00'],
    ]);
    expect((await exported(`/api/interview/export?interviewTitle=${encodeURIComponent('-1')}`)).rows).toEqual([
      ['题目名称', '题目分类', '上架日期'],
      ["'-1 题", '导出分类A', '2026-06-01 08:00:00'],
    ]);
    expect((await exported('/api/issue/export?issueStatus=true')).rows).toEqual([
      ['ID', '问答标题', '问答描述', '提问用户', '浏览数', '评论数', '问题分类', '审核状态', '提问时间'],
      [issue, '导出问答', '描述', '提问者', '0', '1', '导出分类A', '已通过', '2026-06-02 00:00:00'],
    ]);
    const issueComments = (await exported('/api/comment/export?commentType=1')).rows;
    expect(issueComments[0]).toEqual(['问题标题', '评论内容', '评论用户', '评论分类', '评论日期']);
    expect(issueComments.slice(1).map((r) => r.slice(0, 4))).toEqual([['导出问答', "'@评论", '提问者', '导出分类A']]);
    const bookComments = await exported(`/api/comment/export?commentType=2&typeId=${typeA}`);
    expect(bookComments.rows.map((r) => r[0])).toEqual(['书籍标题', '导出书']);
    expect(bookComments.response.headers['content-disposition']).toContain(encodeURIComponent('书籍评论列表'));
    // Without a comment type: comments on issues, as the list screen opens.
    expect((await exported('/api/comment/export')).rows[0][0]).toBe('问题标题');
    expect((await t.inject({ method: 'GET', url: '/api/comment/export?commentType=3', headers: root })).statusCode).toBe(400);

    for (const [list, query] of [
      ['/api/book', `typeId=${typeB}`],
      ['/api/issue', 'issueStatus=false'],
      ['/api/interview', `typeId=${typeA}`],
    ]) {
      const listed = await everyListed(`${list}?${query}`);
      const { rows } = await exported(`${list}/export?${query}`);
      expect(rows.length - 1).toBe(listed.length);
    }
  });

  it("reads by keyset in batches: ties on the date, every row once, in the list's order", async () => {
    const at = Date.UTC(2026, 2, 3);
    for (let i = 0; i < 23; i++) await fixtures.user({ loginId: `csv-tie-${i}`, registerDate: at });
    const batches = [];
    for await (const batch of createUserRepository(t.database.db).scan({ loginId: 'csv-tie-' }, 5))
      batches.push(batch.map((u) => u.loginId));
    expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 5, 3]);
    const listed = await everyListed('/api/user?loginId=csv-tie-');
    expect(batches.flat()).toEqual(listed.map((u) => u.loginId));
  });

  it('reads only as fast as the client takes it, and stops reading when the client goes away', async () => {
    const db = t.database.db;
    // About 23 MB of CSV: more than the socket buffers of both ends hold, so backpressure must act.
    // In slices: on PostgreSQL each statement has the server's 2 s statement time-out. The bulk is
    // in the avatar path, which no search indexes: a 400-character nickname (the API takes 32)
    // would spend the test's time cutting it into search pieces (migration 0008).
    for (let from = 1; from <= 50_000; from += 2_000) {
      await db.execute(sql`insert into users (id, login_id, password_hash, nickname, avatar, register_date, last_login_date)
        select lpad(to_hex(g), 24, '0'), 'csv-abort-' || g, 'x', 'n', '/default-avatar.svg?' || repeat('n', 400), ${Date.UTC(2020, 0, 1)}::bigint + g, 0
        from generate_series(${from}::int, ${from + 1_999}::int) g`);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let request!: http.ClientRequest;
    const paused = await t.countQueries(async () => {
      await new Promise<void>((resolve, reject) => {
        request = http.get({ port, path: '/api/user/export?loginId=csv-abort-', headers: root }, (response) => {
          expect(response.statusCode).toBe(200);
          response.pause();
          resolve();
        });
        request.on('error', reject);
      });
      // The client reads nothing: the server fills the buffers and then waits.
      await sleep(1500);
    });
    // 50 batches of 1,000 would be the whole export; a paused client got only what the buffers hold.
    expect(paused).toBeLessThan(45);
    request.on('error', () => undefined);
    request.destroy();
    await sleep(300);
    // The export's own statements read the users; the listening app's background jobs (the
    // webhooks' every 5 s) send theirs whenever they are due, which a slow machine's test reached.
    expect(
      await t.countQueries(
        () => sleep(500),
        (statement) => statement.includes('"users"'),
      ),
    ).toBe(0);
    if (process.env.TEST_DATABASE_URL) {
      const running = await queryRows(
        db,
        sql`select query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
      );
      expect(running).toEqual([]);
    }
  });
});

describe('the export file name', () => {
  it("is dated by the installation's calendar at the moment of export, where UTC is still on the day before", async () => {
    // The next 17:30 UTC: 01:30 of the next day in Shanghai (within a day, so the session lives).
    const current = t.clock.now();
    let target = Math.floor(current / 86_400_000) * 86_400_000 + 17.5 * 3_600_000;
    if (target <= current) target += 86_400_000;
    t.clock.advance(target - current);
    // Hours later: an export needs a fresh proof of identity (REAUTH_WINDOW_SECONDS).
    await t.prove(await t.rootToken(), ROOT_PASSWORD);
    const { response } = await exported('/api/user/export?loginId=nobody-here');
    const utcDay = new Date(target).toISOString().slice(0, 10).replaceAll('-', '');
    const shanghaiDay = new Date(target + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect(shanghaiDay).not.toBe(utcDay);
    expect(response.headers['content-disposition']).toContain(`filename="export-${shanghaiDay}.csv"`);
    expect(response.headers['content-disposition']).toContain(encodeURIComponent(`用户列表-${shanghaiDay}.csv`));
  });
});
