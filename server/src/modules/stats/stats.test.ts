import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { dayEdges } from './stats.service';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('stats-reader', 2)).token;
});
afterAll(() => t.close());

/** Local midnight `daysAgo` days before now, plus `hours`. */
function localTime(daysAgo: number, hours = 0): number {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, hours).getTime();
}

function localDate(daysAgo: number): string {
  const day = new Date(localTime(daysAgo));
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

describe('GET /api/stats', () => {
  it('answers zero counts and 30 empty days on a fresh database', async () => {
    const ctx = await createTestContext();
    try {
      const response = await ctx.inject({ method: 'GET', url: '/api/stats', headers: bearer(await ctx.rootToken()) });
      expect(response.statusCode).toBe(200);
      const { counts, daily } = response.json().data;
      expect(counts).toEqual({ admins: 1, users: 0, books: 0, interviews: 0, issuesWaiting: 0, issuesApproved: 0, comments: 0, types: 0 });
      expect(daily).toHaveLength(30);
      expect(daily[0]).toEqual({ date: localDate(29), users: 0, issues: 0, comments: 0 });
      expect(daily[29]).toEqual({ date: localDate(0), users: 0, issues: 0, comments: 0 });
    } finally {
      await ctx.close();
    }
  });

  it('counts everything and buckets the last 30 days by local date', async () => {
    const f = contentFixtures(t.database.db);
    const typeId = await f.type();
    await f.type();
    const today = await f.user({ registerDate: localTime(0, 1) });
    await f.user({ registerDate: localTime(0, 23) });
    await f.user({ registerDate: localTime(29) });
    await f.user({ registerDate: localTime(30, 23) });
    const issue = await f.issue(today, typeId, { issueDate: localTime(3, 12), issueStatus: true });
    await f.issue(today, typeId, { issueDate: localTime(3, 13) });
    await f.issue(today, typeId, { issueDate: localTime(40) });
    const book = await f.book(typeId);
    await f.interview(typeId);
    await f.comment({ userId: today, typeId, issueId: issue, commentDate: localTime(1, 8) });
    await f.comment({ userId: today, typeId, bookId: book, commentDate: localTime(1, 9) });
    await f.comment({ userId: today, typeId, bookId: book, commentDate: localTime(29, 0) });

    const response = await t.inject({ method: 'GET', url: '/api/stats', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const { counts, daily } = response.json().data;
    expect(counts).toEqual({ admins: 2, users: 4, books: 1, interviews: 1, issuesWaiting: 2, issuesApproved: 1, comments: 3, types: 2 });

    const byDate = new Map(daily.map((d: { date: string }) => [d.date, d]));
    expect(daily).toHaveLength(30);
    expect(new Set(daily.map((d: { date: string }) => d.date)).size).toBe(30);
    expect(byDate.get(localDate(0))).toEqual({ date: localDate(0), users: 2, issues: 0, comments: 0 });
    expect(byDate.get(localDate(1))).toEqual({ date: localDate(1), users: 0, issues: 0, comments: 2 });
    expect(byDate.get(localDate(3))).toEqual({ date: localDate(3), users: 0, issues: 2, comments: 0 });
    expect(byDate.get(localDate(29))).toEqual({ date: localDate(29), users: 1, issues: 0, comments: 1 });
    expect(byDate.has(localDate(30))).toBe(false);
    const totals = daily.reduce(
      (sum: { users: number; issues: number; comments: number }, d: { users: number; issues: number; comments: number }) => ({
        users: sum.users + d.users,
        issues: sum.issues + d.issues,
        comments: sum.comments + d.comments,
      }),
      { users: 0, issues: 0, comments: 0 },
    );
    expect(totals).toEqual({ users: 3, issues: 2, comments: 3 });
  });

  it('needs a token', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(401);
  });
});

describe('dayEdges', () => {
  it('gives consecutive local days ending today, and the end of today', () => {
    const now = new Date(2024, 4, 15, 13, 30).getTime();
    const { dates, edges } = dayEdges(now, 3);
    expect(dates).toEqual(['2024-05-13', '2024-05-14', '2024-05-15']);
    expect(edges).toEqual([
      new Date(2024, 4, 13).getTime(),
      new Date(2024, 4, 14).getTime(),
      new Date(2024, 4, 15).getTime(),
      new Date(2024, 4, 16).getTime(),
    ]);
  });

  it('keeps a day that daylight saving time makes 23 hours long as one day', () => {
    // The time zone is fixed when a process starts, so this runs in a child process in Berlin,
    // where summer time began on 2024-03-31 at 02:00.
    const script = `
      const { dayEdges } = require(${JSON.stringify(path.join(__dirname, 'stats.service.ts'))});
      process.stdout.write(JSON.stringify(dayEdges(new Date(2024, 3, 1, 12).getTime(), 3)));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, TZ: 'Europe/Berlin' } });
    const { dates, edges } = JSON.parse(output.toString()) as { dates: string[]; edges: number[] };
    expect(dates).toEqual(['2024-03-30', '2024-03-31', '2024-04-01']);
    expect(edges[1] - edges[0]).toBe(24 * 60 * 60 * 1000);
    expect(edges[2] - edges[1]).toBe(23 * 60 * 60 * 1000);
    expect(new Date(edges[1]).toISOString()).toBe('2024-03-30T23:00:00.000Z');
  });
});
