/**
 * The moderation figures of issue 25, shared by `npm run bench` (run.ts), bench/moderation.ts and
 * bench/review-queue.ts: a word list and posts of a fixed seed, the matcher alone, what the word
 * check adds to a real write through the server, and the 审核台's queue with W items waiting.
 */
import os from 'node:os';
import { Client } from 'pg';
import { MODERATION_ACTIONS, type ModerationAction } from '#contract/values/moderation';
import { matchWords } from '../../server/src/modules/moderation/moderation';
import { matcherOf } from '../../server/src/modules/moderation/moderation.service';

const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞';
// No word of the list holds it: written over the first character of a hit, it makes a post pass.
const BREAK = '丁';

export type Word = { word: string; action: ModerationAction };

/** Random text of a fixed seed: every run checks the same list against the same posts. */
export class TextMaker {
  private seed = 12345;

  random(): number {
    // 32-bit arithmetic: the plain product passed 2^53, lost its low bits and fell into a short cycle.
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) & 0x7fffffff;
    return this.seed / 2 ** 31;
  }

  private pick(text: string, n: number): string {
    return Array.from({ length: n }, () => text[Math.floor(this.random() * text.length)]).join('');
  }

  private latin(): string {
    return Array.from({ length: 3 + Math.floor(this.random() * 6) }, () => String.fromCharCode(97 + Math.floor(this.random() * 26))).join(
      '',
    );
  }

  /** `n` words: 60 % Chinese of 2-4 characters, the rest Latin of 3-8 letters, actions mixed. */
  words(n: number): Word[] {
    const actions = ['reject', 'hold', 'flag'] as const;
    const words = new Map<string, Word>();
    while (words.size < n) {
      const word = words.size < n * 0.6 ? this.pick(HAN, 2 + Math.floor(this.random() * 3)) : this.latin();
      words.set(word, { word, action: actions[words.size % 3] });
    }
    return [...words.values()];
  }

  /** A post of `length` characters: Chinese prose, English words, HTML paragraphs, three disguised hits. */
  post(list: Word[], length = 2000): string {
    let text = '';
    while (text.length < length - 100) text += `<p>${this.pick(HAN, 40)} ${Array.from({ length: 6 }, () => this.latin()).join(' ')}</p>`;
    const hit = list[Math.floor(this.random() * list.length)].word;
    return `${text.slice(0, length - 100)}${hit.split('').join(' ')}${hit.toUpperCase()}`.slice(0, length).padEnd(length, '。');
  }
}

/** The same post with every word of `list` in it broken, so that a write of it passes the rules. */
export function passing(text: string, list: Word[]): string {
  const matcher = matcherOf(list);
  for (let round = 0; round < 10; round++) {
    const { spans } = matchWords(matcher, text, true);
    if (!spans.length) return text;
    const chars = text.split('');
    for (const span of spans) chars[span.start] = BREAK;
    text = chars.join('');
  }
  throw new Error('a bench post still matches the word list after 10 rounds');
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const loadNow = () => os.loadavg()[0];

export interface MatcherResult {
  words: number;
  postLength: number;
  checks: number;
  p50: number;
  p95: number;
  p99: number;
  buildMs: number;
  hits: number;
  /** When each check over 2 ms ran (performance.now()), to lay beside the garbage collections. */
  slowChecks: Array<{ start: number; end: number }>;
}

/** One word check of a post against the list, in this process: the matcher alone. */
export function measureMatcher(wordCount: number, checks: number, postLength = 2000): MatcherResult {
  const maker = new TextMaker();
  const list = maker.words(wordCount);
  const built = performance.now();
  const matcher = matcherOf(list);
  const buildMs = performance.now() - built;
  const posts = Array.from({ length: 50 }, () => maker.post(list, postLength));
  for (let i = 0; i < 200; i++) matchWords(matcher, posts[i % posts.length], true);
  const times: number[] = [];
  const slowChecks: MatcherResult['slowChecks'] = [];
  let hits = 0;
  for (let i = 0; i < checks; i++) {
    const start = performance.now();
    hits += matchWords(matcher, posts[i % posts.length], true).spans.length;
    const end = performance.now();
    times.push(end - start);
    if (end - start > 2) slowChecks.push({ start, end });
  }
  times.sort((a, b) => a - b);
  return {
    words: list.length,
    postLength,
    checks,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    p99: quantile(times, 0.99),
    buildMs,
    hits,
    slowChecks,
  };
}

export interface Timing {
  p50: number;
  p95: number;
  calls: number;
}

function timing(times: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), calls: sorted.length };
}

export interface WriteCostResult {
  words: number;
  postLength: number;
  /** POST /api/comment with an empty word list and with `words` words, alternated in rounds. */
  empty: Timing;
  full: Timing;
  /** Writes answered 503 (the server's 2-second statement time-out on a loaded machine), left out of the figures. */
  failed: { empty: number; full: number };
  matcher: MatcherResult;
  load: number;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, `${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as { data: T }).data : text) as T;
}

const wordFile = (list: Word[]) => list.map((w) => `${w.word}\t${MODERATION_ACTIONS[w.action]}\n`).join('');

/**
 * What the word check adds to a real write: POST /api/comment of 2,000-character posts (that pass
 * the list) with the list empty and with `wordCount` words, in alternating rounds so that a change
 * of the machine's load falls on both sides. The list as it was and every comment written are
 * restored and removed at the end. `token` must be fresh: a list import asks for a recent sign-in.
 */
export async function measureWriteCost(
  base: string,
  token: string,
  sizes: { words: number; postsPerSide: number; rounds: number; matcherChecks: number },
): Promise<WriteCostResult> {
  const maker = new TextMaker();
  const list = maker.words(sizes.words);
  const posts = Array.from({ length: 50 }, () => passing(maker.post(list), list));
  const user = (await api<{ data: Array<{ _id: string }> }>(base, token, 'GET', '/api/user?current=1&pageSize=1')).data[0];
  const issue = (await api<{ data: Array<{ _id: string }> }>(base, token, 'GET', '/api/issue?current=1&pageSize=1')).data[0];
  if (!user || !issue) throw new Error('the moderation bench needs a user and a question in the database');
  const before = await api<string>(base, token, 'GET', '/api/moderation/words/file');
  const created: string[] = [];
  const times = { empty: [] as number[], full: [] as number[] };
  const failed = { empty: 0, full: 0 };
  let n = 0;
  /** One write's milliseconds, or null when it answered 503: a busy machine's time-out is counted, not fatal. */
  const write = async (): Promise<number | null> => {
    const start = performance.now();
    try {
      const comment = await api<{ _id: string }>(base, token, 'POST', '/api/comment', {
        userId: user._id,
        commentType: 1,
        issueId: issue._id,
        commentContent: posts[n++ % posts.length],
      });
      created.push(comment._id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 503) return null;
      throw error;
    }
    return performance.now() - start;
  };
  const perRound = Math.max(1, Math.ceil(sizes.postsPerSide / sizes.rounds));
  try {
    for (let round = 0; round < sizes.rounds; round++) {
      for (const side of round % 2 ? (['full', 'empty'] as const) : (['empty', 'full'] as const)) {
        await api(base, token, 'POST', '/api/moderation/words/file', { text: side === 'full' ? wordFile(list) : '', mode: 'replace' });
        // The first write after a change of the list rebuilds the matcher: not part of a write's cost.
        for (let i = 0; i < 3; i++) await write();
        for (let i = 0; i < perRound; i++) {
          const ms = await write();
          if (ms === null) failed[side]++;
          else times[side].push(ms);
        }
      }
    }
  } finally {
    await api(base, token, 'POST', '/api/moderation/words/file', { text: before, mode: 'replace' });
    for (let i = 0; i < created.length; i += 200) {
      await api(base, token, 'POST', '/api/comment/batch', { action: 'delete', ids: created.slice(i, i + 200) });
    }
  }
  if (failed.empty + failed.full > sizes.postsPerSide)
    throw new Error(`${failed.empty + failed.full} of the bench's comment writes answered 503`);
  return {
    words: list.length,
    postLength: posts[0].length,
    empty: timing(times.empty),
    full: timing(times.full),
    failed,
    matcher: measureMatcher(sizes.words, sizes.matcherChecks),
    load: loadNow(),
  };
}

/** One statement (or several, separated by semicolons) on a connection of its own. */
export async function sql(url: string, text: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

// What addWaiting() changed, so that removeWaiting() undoes exactly that, even after a run that stopped.
const ADDED = 'bench_review_waiting';

export interface Waiting {
  questions: number;
  comments: number;
}

/**
 * Puts `waiting` items in the 审核台's queue on a seeded database: questions awaiting approval up to
 * half of them (new ones added when the database has fewer), and half of them held comments with
 * their open flags (the oldest comments). Answers what waits now.
 */
export async function addWaiting(url: string, waiting: number): Promise<Waiting> {
  await removeWaiting(url);
  const half = Math.floor(waiting / 2);
  await sql(
    url,
    `create table ${ADDED} (kind text not null, id text not null);
     create temp table waiting_now as select count(*)::int as n from issues where issue_status = false;
     -- New questions a minute apart going back from now; ids start with ffffff, which no ObjectId of this era does.
     with added as (
       insert into issues (id, issue_title, issue_content, issue_status, issue_date, user_id, type_id)
       select 'ffffff' || lpad(to_hex(g), 18, '0'), 'bench question ' || g, '<p>bench question ' || g || '</p>', false,
              (extract(epoch from now()) * 1000)::bigint - g::bigint * 60000, u.id, t.id
       from generate_series(1, greatest(0, ${half} - (select n from waiting_now))) g
       cross join (select id from users order by id limit 1) u
       cross join (select id from types order by id limit 1) t
       returning id)
     insert into ${ADDED} select 'issue', id from added;
     with held as (
       update comments set held = true
       where id in (select c.id from comments c where not c.held
         and not exists (select 1 from moderation_flags f where f.kind = 'comment' and f.item_id = c.id and f.state = 'open')
         order by c.id limit ${half})
       returning id, comment_date)
     , flagged as (
       insert into moderation_flags (kind, item_id, reasons, state, created_at)
       select 'comment', id, '[{"rule":"word","action":"hold","words":["spam"]}]', 'open', comment_date from held
       returning item_id)
     insert into ${ADDED} select 'comment', item_id from flagged;
     analyze issues; analyze comments; analyze moderation_flags;`,
  );
  const { rows } = await sql(
    url,
    `select (select count(*) from issues i where i.issue_status = false)::int as questions,
            (select count(*) from moderation_flags f where f.state = 'open' and f.kind = 'comment')::int as comments`,
  );
  return rows[0] as Waiting;
}

/** Undoes addWaiting(): its questions deleted, its comments no longer held, their flags gone. */
export async function removeWaiting(url: string): Promise<void> {
  const { rows } = await sql(url, `select to_regclass('${ADDED}') is not null as present`);
  if (!rows[0].present) return;
  await sql(
    url,
    `begin;
     delete from moderation_flags where kind = 'comment' and item_id in (select id from ${ADDED} where kind = 'comment');
     update comments set held = false where id in (select id from ${ADDED} where kind = 'comment');
     delete from issues where id in (select id from ${ADDED} where kind = 'issue');
     drop table ${ADDED};
     commit;
     analyze issues; analyze comments; analyze moderation_flags;`,
  );
}

export const REVIEW_PATHS = [
  '/api/review?pageSize=20',
  '/api/review?pageSize=20&kind=comment',
  '/api/review?pageSize=20&kind=issue',
  '/api/review/counts',
];

export interface ReviewRow extends Timing {
  path: string;
  load: number;
}

/** p50 and p95 of `repeats` calls of each queue request, one at a time, after 5 unmeasured ones. */
export async function timeReviewPages(base: string, token: string, repeats: number): Promise<ReviewRow[]> {
  const rows: ReviewRow[] = [];
  for (const path of REVIEW_PATHS) {
    const times: number[] = [];
    for (let i = 0; i < repeats + 5; i++) {
      const start = performance.now();
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      await response.arrayBuffer();
      if (i >= 5) times.push(performance.now() - start);
    }
    rows.push({ path, ...timing(times), load: loadNow() });
  }
  return rows;
}

export interface ModerationSection {
  write: WriteCostResult;
  waiting: Waiting;
  comments: number;
  review: ReviewRow[];
}

/**
 * The section of `npm run bench`, on the bench database after the other measurements: the write
 * cost, then the queue with `waiting` items added and removed again, so a re-run starts clean.
 */
export async function measureModeration(
  base: string,
  url: string,
  signIn: () => Promise<string>,
  options: { quick: boolean; moderationWords: number; waiting: number; comments: number },
): Promise<ModerationSection> {
  const sizes = options.quick
    ? { words: options.moderationWords, postsPerSide: 30, rounds: 2, matcherChecks: 300 }
    : { words: options.moderationWords, postsPerSide: 300, rounds: 6, matcherChecks: 2000 };
  const write = await measureWriteCost(base, await signIn(), sizes);
  const waiting = await addWaiting(url, options.waiting);
  try {
    const review = await timeReviewPages(base, await signIn(), options.quick ? 20 : 100);
    return { write, waiting, comments: options.comments, review };
  } finally {
    await removeWaiting(url);
  }
}
