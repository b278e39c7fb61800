/**
 * Single-request latencies (issue 15, item 5): every paged list, unfiltered (page 1 and its last
 * page) and filtered by each kind of search term an administrator types, one request at a time on
 * a warm server. The load runs say how much a server does at once; this says how long one person
 * waits for one search.
 */
import type { BenchServer } from './server';

export type LatencyDatabase = 'PostgreSQL' | 'embedded';

/** The kinds of search term the targets name: Chinese of one, two and three or more characters, and Latin. */
export type TermKind = '1 Chinese character' | '2 Chinese characters' | '3+ Chinese characters' | 'Latin';

interface SearchTerm {
  kind: TermKind;
  /** The list's text filter the term goes into. */
  filter: string;
  term: string;
}

export interface ListSpec {
  list: string;
  path: string;
  /** Terms from the seed's pools (server/src/seed/content.ts): some match a few rows, some many, some none. */
  terms: SearchTerm[];
}

/**
 * Every paged list with a text filter. The reference terms are here: nickname 「张伟」 and
 * 「张」, comment content 「好」, issue title 「分页」, book title `JavaScript`, loginId `user_1`.
 * The admin list is not paged (a few dozen rows, paged in the browser); the audit log and the
 * recycle bin have no text filter.
 */
export const LATENCY_LISTS: ListSpec[] = [
  {
    list: 'users',
    path: '/api/user',
    terms: [
      { kind: '1 Chinese character', filter: 'nickname', term: '张' },
      { kind: '2 Chinese characters', filter: 'nickname', term: '张伟' },
      { kind: '3+ Chinese characters', filter: 'nickname', term: '不秃头的' },
      { kind: 'Latin', filter: 'loginId', term: 'user_1' },
    ],
  },
  {
    list: 'books',
    path: '/api/book',
    terms: [
      { kind: '1 Chinese character', filter: 'bookTitle', term: '圣' },
      { kind: '2 Chinese characters', filter: 'bookTitle', term: '设计' },
      { kind: '3+ Chinese characters', filter: 'bookTitle', term: '深入浅出' },
      { kind: 'Latin', filter: 'bookTitle', term: 'JavaScript' },
    ],
  },
  {
    list: 'interviews',
    path: '/api/interview',
    terms: [
      { kind: '1 Chinese character', filter: 'interviewTitle', term: '的' },
      { kind: '2 Chinese characters', filter: 'interviewTitle', term: '闭包' },
      { kind: '3+ Chinese characters', filter: 'interviewTitle', term: '事件循环' },
      { kind: 'Latin', filter: 'interviewTitle', term: 'React' },
    ],
  },
  {
    list: 'issues',
    path: '/api/issue',
    terms: [
      { kind: '1 Chinese character', filter: 'issueTitle', term: '吗' },
      { kind: '2 Chinese characters', filter: 'issueTitle', term: '分页' },
      { kind: '3+ Chinese characters', filter: 'issueTitle', term: '怎么选' },
      { kind: 'Latin', filter: 'issueTitle', term: 'webpack' },
    ],
  },
  {
    list: 'comments',
    path: '/api/comment/1',
    terms: [
      { kind: '1 Chinese character', filter: 'commentContent', term: '好' },
      { kind: '2 Chinese characters', filter: 'commentContent', term: '问题' },
      { kind: '3+ Chinese characters', filter: 'commentContent', term: '蹲一个答案' },
      { kind: 'Latin', filter: 'commentContent', term: 'allSettled' },
    ],
  },
];

export const LATENCY_TARGET = { p50Ms: 50, p99Ms: 150 };

export interface LatencyRow {
  database: LatencyDatabase;
  list: string;
  /** `page 1`, `last page (N)` or the term's kind and the term. */
  request: string;
  path: string;
  p50: number;
  p99: number;
  requests: number;
  /** Requests answered with an error (a statement time-out is a 503): their time still counts. */
  failed: number;
  count: number;
  /** The answer's count is an estimate (`countEstimated`), beyond the exact counting's cap. */
  estimated: boolean;
  /** For a last page: the row of the same request's page 1 (item 6 compares the two). */
  pageOne: LatencyRow | null;
}

/** The rows of each database and list, in the order measured. */
function byList(rows: LatencyRow[]): Map<string, LatencyRow[]> {
  const groups = new Map<string, LatencyRow[]>();
  for (const row of rows) {
    const key = `${row.database}: ${row.list}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return groups;
}

interface PageAnswer {
  count: number;
  totalPage: number;
  countEstimated?: boolean;
}

async function timedGet(url: string, token: string): Promise<{ ms: number; page: PageAnswer | null }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { success: boolean; msg: string; data: PageAnswer };
  const ms = performance.now() - started;
  if (!body.success) console.error(`    GET ${url}: ${response.status} ${body.msg}`);
  return { ms, page: body.success ? body.data : null };
}

/** The nearest-rank percentile of `sorted` (ascending). */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `warmup` requests not counted, then `requests` one after another. */
async function measureOne(url: string, token: string, warmup: number, requests: number) {
  let page: PageAnswer = { count: 0, totalPage: 0 };
  for (let i = 0; i < warmup; i++) page = (await timedGet(url, token)).page ?? page;
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < requests; i++) {
    const answer = await timedGet(url, token);
    times.push(answer.ms);
    if (answer.page) page = answer.page;
    else failed++;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), failed, page };
}

/** Every request of `lists` on `server`, one at a time. */
export async function measureLatencies(
  database: LatencyDatabase,
  server: BenchServer,
  token: string,
  lists: ListSpec[],
  { warmup, requests }: { warmup: number; requests: number },
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const one = async (list: string, request: string, path: string, pageOne: LatencyRow | null = null) => {
    const { p50, p99, failed, page } = await measureOne(`${server.url}${path}`, token, warmup, requests);
    const row = {
      database,
      list,
      request,
      path,
      p50,
      p99,
      requests,
      failed,
      count: page.count,
      estimated: page.countEstimated === true,
      pageOne,
    };
    rows.push(row);
    return { row, page };
  };
  for (const spec of lists) {
    console.error(`  ${database}: single requests, ${spec.list}`);
    const first = await one(spec.list, 'page 1', `${spec.path}?current=1&pageSize=10`);
    const last = Math.max(1, first.page.totalPage);
    await one(spec.list, `last page (${last.toLocaleString('en')})`, `${spec.path}?current=${last}&pageSize=10`, first.row);
    for (const { kind, filter, term } of spec.terms) {
      const search = `${spec.path}?pageSize=10&${filter}=${encodeURIComponent(term)}`;
      const found = await one(spec.list, `${filter} 「${term}」 (${kind})`, `${search}&current=1`);
      // Item 6: any page of a filtered list too; the last one is the farthest from page 1.
      const { totalPage } = found.page;
      if (totalPage > 1) {
        const last = await one(
          spec.list,
          `${filter} 「${term}」 (${kind}), last page (${totalPage.toLocaleString('en')})`,
          `${search}&current=${totalPage}`,
          found.row,
        );
        // The last page of an estimate may lie past the true end, which answers the exact count:
        // the page the administrator goes to next is the true last one.
        const trueLast = last.page.totalPage;
        if (trueLast >= 1 && trueLast !== totalPage) {
          await one(
            spec.list,
            `${filter} 「${term}」 (${kind}), true last page (${trueLast.toLocaleString('en')})`,
            `${search}&current=${trueLast}`,
            found.row,
          );
        }
      }
    }
  }
  return rows;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const countText = (row: LatencyRow) => (row.estimated ? `约 ${row.count.toLocaleString('en')}` : row.count.toLocaleString('en'));

/** One target row per database and list: its slowest request by p50 and by p99. */
export function latencyTargets(rows: LatencyRow[]): Array<{ target: string; measured: string; met: boolean }> {
  return [...byList(rows)].map(([key, group]) => {
    const worstP50 = group.reduce((a, b) => (b.p50 > a.p50 ? b : a));
    const worstP99 = group.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    return {
      target: `${key} list, one request at a time (page 1, last page, each kind of search term, its last page): p50 ≤ ${LATENCY_TARGET.p50Ms} ms, p99 ≤ ${LATENCY_TARGET.p99Ms} ms`,
      measured: `slowest p50 ${ms(worstP50.p50)} (${worstP50.request}), slowest p99 ${ms(worstP99.p99)} (${worstP99.request})`,
      met: worstP50.p50 <= LATENCY_TARGET.p50Ms && worstP99.p99 <= LATENCY_TARGET.p99Ms && group.every((row) => row.failed === 0),
    };
  });
}

/**
 * Item 6 in the single requests: each list's last page, unfiltered and for each search term,
 * within 2× of the same request's page 1 (p50, warm). Cold first requests are measured by
 * `bench/deep-pages.ts`, which starts a server per round.
 */
export function deepPageTargets(rows: LatencyRow[]): Array<{ target: string; measured: string; met: boolean }> {
  const out: Array<{ target: string; measured: string; met: boolean }> = [];
  for (const [key, group] of byList(rows)) {
    const pairs = group.flatMap((last) => (last.pageOne ? [{ first: last.pageOne, last, ratio: last.p50 / last.pageOne.p50 }] : []));
    if (!pairs.length) continue;
    const worst = pairs.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    out.push({
      target: `${key} list, every last page (unfiltered and each search) within 2× of its page 1 (p50, warm)`,
      measured: `worst ${worst.ratio.toFixed(2)}×: ${worst.last.request} ${ms(worst.last.p50)} against ${ms(worst.first.p50)}`,
      met: pairs.every((pair) => pair.ratio <= 2),
    });
  }
  return out;
}

/** The report's section: every request with its p50, p99 and the count it answered. */
export function latencySection(rows: LatencyRow[]): string[] {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const requests = rows[0]?.requests ?? 0;
  return [
    '## Single requests',
    '',
    `Each request ${requests} times one after another after a warm-up, signed in, through the built server (HTTP round trip included). ` +
      "A count marked 约 is the server's estimate (`countEstimated`): a search counts its matches exactly up to a cap, then estimates.",
    '',
    line(['database', 'list', 'request', 'p50', 'p99', 'failed', 'count']),
    line(['---', '---', '---', '---', '---', '---', '---']),
    ...rows.map((row) =>
      line([
        row.database,
        row.list,
        `${row.request} \`${decodeURIComponent(row.path)}\``,
        ms(row.p50),
        ms(row.p99),
        String(row.failed),
        countText(row),
      ]),
    ),
    '',
  ];
}
