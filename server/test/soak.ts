/**
 * `npm run soak`: the built server under a steady mixed workload (list, search, read, create, edit,
 * delete, approve, upload) at a fixed rate for a set time, then the verdict: no 5xx, every answer
 * the expected one, p50/p99, memory at the end within 10% of after warm-up, and a database whose
 * counters equal its counts and that holds every acknowledged write.
 *
 *   npm run soak                               5 minutes at 20 calls/s on the embedded database
 *   npm run soak -- --duration 20 --rate 10    a short run (CI)
 *   DATABASE_URL=postgres://… npm run soak     on PostgreSQL: a throwaway database on that server
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, queryRows, type Database } from '../src/db/client';
import { scratchDatabase } from './live/postgres';
import { seed } from '../src/seed/seed';
import { sql } from 'drizzle-orm';
import { call, imageForm, pngWithTail, signIn, type Answer } from './live/client';
import { consistencyProblems, tableCounts } from './live/consistency';
import { embeddedDataDir, ServerProcess, sleep } from './live/server-process';
import { COMMENT_TYPES } from '#contract/comment';

const USAGE = `用法：npm run soak -- [--duration 秒] [--rate 每秒请求数] [--warmup 秒] [--seed N]
  --duration  运行时长，默认 300 秒
  --rate      固定请求速率，默认 20 次/秒
  --warmup    预热时长（内存基线取预热结束时），默认 duration 的 1/5，最多 60 秒
  --seed      随机数种子，默认 1（同一种子产生同样的请求序列）
设置 DATABASE_URL 时在该 PostgreSQL 上新建一个临时数据库运行，结束后删除。`;

const SOAK_SIZES = { users: 300, books: 60, interviews: 60, issues: 300, comments: 1500 };
const MAX_IN_FLIGHT = 64;
const RSS_GROWTH_LIMIT = 0.1;

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '300' },
      rate: { type: 'string', default: '20' },
      warmup: { type: 'string' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (name: string, raw: string, min: number) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} 应为不小于 ${min} 的数，收到 "${raw}"`);
    return value;
  };
  const duration = number('duration', values.duration!, 5);
  return {
    durationMs: duration * 1000,
    rate: number('rate', values.rate!, 1),
    warmupMs: number('warmup', values.warmup ?? String(Math.min(60, duration / 5)), 1) * 1000,
    seed: number('seed', values.seed!, 0),
  };
}

/** mulberry32: a small seeded generator, so that a run can be repeated call for call. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(items: T[]): T {
      return items[Math.floor(next() * items.length)];
    },
  };
}

/**
 * Rows the soak made and may edit or delete. A row is leased while a call uses it, and only a row
 * nobody holds may be taken for deletion: so no call ever races a deletion of its own making.
 */
class Pool<T extends { id: string }> {
  private items: Array<T & { leases: number }> = [];

  add(item: T) {
    this.items.push({ ...item, leases: 0 });
  }

  get size() {
    return this.items.length;
  }

  lease(rand: () => number, where: (item: T) => boolean = () => true): (T & { leases: number }) | null {
    const candidates = this.items.filter(where);
    if (!candidates.length) return null;
    const item = candidates[Math.floor(rand() * candidates.length)];
    item.leases++;
    return item;
  }

  release(item: { leases: number }) {
    item.leases--;
  }

  /** Removes and answers a row no call holds. */
  take(rand: () => number, where: (item: T) => boolean = () => true): T | null {
    const candidates = this.items.filter((item) => item.leases === 0 && where(item));
    if (!candidates.length) return null;
    const item = candidates[Math.floor(rand() * candidates.length)];
    this.items.splice(this.items.indexOf(item), 1);
    return item;
  }

  /** Removes and answers every row `where` picks: what a deletion takes with it. */
  removeWhere(where: (item: T) => boolean): T[] {
    const removed = this.items.filter(where);
    this.items = this.items.filter((item) => !where(item));
    return removed;
  }

  all(): Array<T & { leases: number }> {
    return this.items;
  }
}

interface IssueRow {
  id: string;
  /** The soak's own user who asked it, if any. */
  userId: string | null;
  approved: boolean;
}

interface CommentRow {
  id: string;
  userId: string | null;
  issueId: string | null;
  bookId: string | null;
}

interface Operation {
  kind: string;
  method: string;
  path: string;
  expect: number;
  body?: unknown;
  form?: FormData;
  onAnswer?: (answer: Answer) => void;
}

interface Outcome {
  kind: string;
  status: number | 'no answer';
  ms: number;
  at: number;
  unexpected: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function prepareDatabase(): Promise<{
  dataDir: string;
  databaseUrl?: string;
  open: () => Promise<Database>;
  drop: () => Promise<void>;
}> {
  const dataDir = await embeddedDataDir();
  const adminUrl = process.env.DATABASE_URL?.trim();
  if (!adminUrl) {
    return {
      dataDir,
      open: () => openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'pglite') }),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await scratchDatabase(adminUrl, 'cs_soak');
  return {
    dataDir,
    databaseUrl: scratch.url,
    open: () => openDatabase({ kind: 'postgres', url: scratch.url }),
    drop: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await scratch.drop();
    },
  };
}

async function main() {
  const { durationMs, rate, warmupMs, seed: seedNumber } = options();
  const rand = generator(seedNumber);
  const target = await prepareDatabase();
  const where = target.databaseUrl
    ? `PostgreSQL（临时数据库 ${new URL(target.databaseUrl).pathname.slice(1)}）`
    : `内置数据库（${target.dataDir}）`;
  console.log(`soak：${where}，${rate} 次/秒，${durationMs / 1000} 秒，预热 ${warmupMs / 1000} 秒`);

  // Seed before the server opens the database (the embedded one admits a single process).
  {
    const database = await target.open();
    await database.migrate();
    await seed(database.db, SOAK_SIZES);
    const problems = await consistencyProblems(database.db);
    await database.close();
    if (problems.length) throw new Error(`the seeded database is already inconsistent:\n${problems.join('\n')}`);
  }

  const server = await ServerProcess.start({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  let failed = false;
  try {
    const token = await signIn(server.url);
    const get = async (p: string) => (await call(server.url, 'GET', p, { token })).body.data;
    const ids = async (p: string) => ((await get(p)).data as Array<{ _id: string }>).map((r) => r._id);
    const typeIds = ((await get('/api/type')) as Array<{ _id: string }>).map((t) => t._id);
    const seeded = {
      users: await ids('/api/user?pageSize=100'),
      books: await ids('/api/book?pageSize=60'),
      issues: await ids('/api/issue?pageSize=100'),
      interviews: await ids('/api/interview?pageSize=60'),
    };

    const created = {
      users: new Pool<{ id: string }>(),
      books: new Pool<{ id: string }>(),
      issues: new Pool<IssueRow>(),
      comments: new Pool<CommentRow>(),
      uploads: [] as Array<{ path: string; bytes: Buffer }>,
    };
    // Rows a deletion answered 200 for, with what went with them: none of them may remain.
    const deleted = { users: [] as string[], books: [] as string[], issues: [] as string[], comments: [] as string[] };
    const deletions = { users: 0, books: 0, issues: 0, comments: 0 };
    /** Leases the soak's own parents of a comment while a call about it runs. */
    const holdParents = (comment: CommentRow) => {
      const held = [
        created.users.all().find((u) => u.id === comment.userId),
        created.issues.all().find((i) => i.id === comment.issueId),
        created.books.all().find((b) => b.id === comment.bookId),
      ].filter((item): item is NonNullable<typeof item> => item !== undefined);
      for (const item of held) item.leases++;
      return () => {
        for (const item of held) item.leases--;
      };
    };
    const deletion = (table: keyof typeof deleted, id: string, cascade: Partial<Record<keyof typeof deleted, string[]>> = {}) => ({
      kind: 'delete',
      method: 'DELETE',
      path: `/api/${table.slice(0, -1)}/${id}`,
      expect: 200,
      onAnswer: (a: Answer) => {
        if (a.status !== 200) return;
        deletions[table]++;
        deleted[table].push(id);
        for (const [t, ids] of Object.entries(cascade)) deleted[t as keyof typeof deleted].push(...ids);
      },
    });
    const words = ['前端', 'React', '算法', '数据库', 'Node', '面试', '性能', 'a', '%', '_'];
    let serial = 0;

    const operations: Array<[number, () => Operation | null]> = [
      // list
      [5, () => ({ kind: 'list', method: 'GET', path: `/api/user?current=${1 + rand.int(3)}&pageSize=20`, expect: 200 })],
      [4, () => ({ kind: 'list', method: 'GET', path: `/api/issue?current=${1 + rand.int(3)}`, expect: 200 })],
      [4, () => ({ kind: 'list', method: 'GET', path: `/api/comment/${1 + rand.int(2)}?current=${1 + rand.int(3)}`, expect: 200 })],
      [3, () => ({ kind: 'list', method: 'GET', path: `/api/book?typeId=${rand.pick(typeIds)}`, expect: 200 })],
      [2, () => ({ kind: 'list', method: 'GET', path: '/api/interview', expect: 200 })],
      [1, () => ({ kind: 'list', method: 'GET', path: '/api/stats', expect: 200 })],
      [1, () => ({ kind: 'list', method: 'GET', path: '/api/type', expect: 200 })],
      // search
      [
        3,
        () => ({
          kind: 'search',
          method: 'GET',
          path: `/api/user?nickname=${encodeURIComponent(rand.pick(['张', '李', '小', '码']))}`,
          expect: 200,
        }),
      ],
      [
        3,
        () => ({
          kind: 'search',
          method: 'GET',
          path: `/api/issue?issueTitle=${encodeURIComponent(rand.pick(words))}&issueStatus=${rand.pick(['true', 'false'])}`,
          expect: 200,
        }),
      ],
      [3, () => ({ kind: 'search', method: 'GET', path: `/api/book?bookTitle=${encodeURIComponent(rand.pick(words))}`, expect: 200 })],
      [
        2,
        () => ({
          kind: 'search',
          method: 'GET',
          path: `/api/comment/1?commentContent=${encodeURIComponent(rand.pick(words))}`,
          expect: 200,
        }),
      ],
      // read
      [5, () => ({ kind: 'read', method: 'GET', path: `/api/user/${rand.pick(seeded.users)}`, expect: 200 })],
      [4, () => ({ kind: 'read', method: 'GET', path: `/api/issue/${rand.pick(seeded.issues)}`, expect: 200 })],
      [3, () => ({ kind: 'read', method: 'GET', path: `/api/book/${rand.pick(seeded.books)}`, expect: 200 })],
      [2, () => ({ kind: 'read', method: 'GET', path: `/api/interview/${rand.pick(seeded.interviews)}`, expect: 200 })],
      [3, () => ({ kind: 'read', method: 'GET', path: `/api/comment/issuecomment/${rand.pick(seeded.issues)}`, expect: 200 })],
      [2, () => (created.uploads.length ? { kind: 'read', method: 'GET', path: rand.pick(created.uploads).path, expect: 200 } : null)],
      // create
      [
        1,
        () => ({
          kind: 'create',
          method: 'POST',
          path: '/api/user',
          expect: 201,
          body: { loginId: `soak-${seedNumber}-${serial++}`, loginPwd: 'soak-password', nickname: `浸泡用户${serial}` },
          onAnswer: (a) => created.users.add({ id: a.body.data._id }),
        }),
      ],
      [
        3,
        () => {
          const user = created.users.lease(rand.next);
          return {
            kind: 'create',
            method: 'POST',
            path: '/api/issue',
            expect: 201,
            body: {
              issueTitle: `浸泡问答 ${serial++}`,
              issueContent: '<p>内容</p>',
              userId: user?.id ?? rand.pick(seeded.users),
              typeId: rand.pick(typeIds),
            },
            onAnswer: (a) => {
              if (user) created.users.release(user);
              if (a.status === 201) created.issues.add({ id: a.body.data._id, userId: user?.id ?? null, approved: false });
            },
          };
        },
      ],
      [
        2,
        () => ({
          kind: 'create',
          method: 'POST',
          path: '/api/book',
          expect: 201,
          body: {
            bookTitle: `浸泡书籍 ${serial++}`,
            downloadLink: 'https://example.com/soak',
            bookIntro: '<p>简介</p>',
            requirePoints: rand.int(50),
            typeId: rand.pick(typeIds),
          },
          onAnswer: (a) => created.books.add({ id: a.body.data._id }),
        }),
      ],
      [
        5,
        () => {
          // Comments from the soak's own users too, so that deleting a user has counters to put right.
          const user = created.users.lease(rand.next);
          const onBook = rand.next() < 0.4;
          const book = onBook ? created.books.lease(rand.next) : null;
          const issue = onBook ? null : created.issues.lease(rand.next);
          const target = onBook
            ? { commentType: COMMENT_TYPES.book, bookId: book?.id ?? rand.pick(seeded.books) }
            : { commentType: COMMENT_TYPES.issue, issueId: issue?.id ?? rand.pick(seeded.issues) };
          return {
            kind: 'create',
            method: 'POST',
            path: '/api/comment',
            expect: 201,
            body: { userId: user?.id ?? rand.pick(seeded.users), ...target, commentContent: `<p>浸泡评论 ${serial++}</p>` },
            onAnswer: (a) => {
              for (const item of [user, book, issue]) if (item) item.leases--;
              if (a.status === 201) {
                created.comments.add({
                  id: a.body.data._id,
                  userId: user?.id ?? null,
                  issueId: issue?.id ?? null,
                  bookId: book?.id ?? null,
                });
              }
            },
          };
        },
      ],
      // edit
      [
        3,
        () => ({
          kind: 'edit',
          method: 'PATCH',
          path: `/api/user/${rand.pick(seeded.users)}`,
          expect: 200,
          body: { intro: `改于 ${Date.now()}` },
        }),
      ],
      [
        2,
        () => ({
          kind: 'edit',
          method: 'PATCH',
          path: `/api/book/${rand.pick(seeded.books)}`,
          expect: 200,
          body: { requirePoints: rand.int(100) },
        }),
      ],
      [
        2,
        () => ({
          kind: 'edit',
          method: 'PATCH',
          path: `/api/interview/${rand.pick(seeded.interviews)}`,
          expect: 200,
          body: { interviewTitle: `面试题 ${serial++}` },
        }),
      ],
      [
        2,
        () => {
          const issue = created.issues.lease(rand.next);
          if (!issue) return null;
          return {
            kind: 'edit',
            method: 'PATCH',
            path: `/api/issue/${issue.id}`,
            expect: 200,
            body: { issueTitle: `改过的问答 ${serial++}` },
            onAnswer: () => created.issues.release(issue),
          };
        },
      ],
      // approve
      [
        3,
        () => {
          const issue = created.issues.lease(rand.next, (i) => !i.approved);
          if (!issue) return null;
          return {
            kind: 'approve',
            method: 'PATCH',
            path: `/api/issue/${issue.id}`,
            expect: 200,
            body: { issueStatus: true },
            onAnswer: (a) => {
              created.issues.release(issue);
              if (a.status === 200) issue.approved = true;
            },
          };
        },
      ],
      // delete: only rows nobody is using; what goes with them leaves the pools at once.
      [
        3,
        () => {
          const comment = created.comments.take(rand.next);
          if (!comment) return null;
          const letGo = holdParents(comment);
          const operation = deletion('comments', comment.id);
          return {
            ...operation,
            onAnswer: (a) => {
              letGo();
              return operation.onAnswer(a);
            },
          };
        },
      ],
      [
        1,
        () => {
          const issue = created.issues.size > 3 ? created.issues.take(rand.next) : null;
          if (!issue) return null;
          const comments = created.comments.removeWhere((c) => c.issueId === issue.id).map((c) => c.id);
          return deletion('issues', issue.id, { comments });
        },
      ],
      [
        1,
        () => {
          const book = created.books.size > 2 ? created.books.take(rand.next) : null;
          if (!book) return null;
          const comments = created.comments.removeWhere((c) => c.bookId === book.id).map((c) => c.id);
          return deletion('books', book.id, { comments });
        },
      ],
      [
        1,
        () => {
          const idle = (u: { id: string }) => created.issues.all().every((i) => i.userId !== u.id || i.leases === 0);
          const user = created.users.size > 2 ? created.users.take(rand.next, idle) : null;
          if (!user) return null;
          // Deleting a user takes their issues, the comments under those, and every comment they wrote.
          const issues = created.issues.removeWhere((i) => i.userId === user.id).map((i) => i.id);
          const comments = created.comments
            .removeWhere((c) => c.userId === user.id || (c.issueId !== null && issues.includes(c.issueId)))
            .map((c) => c.id);
          return deletion('users', user.id, { issues, comments });
        },
      ],
      // upload
      [
        2,
        () => {
          const bytes = pngWithTail(serial++, 2048 + rand.int(30_000));
          return {
            kind: 'upload',
            method: 'POST',
            path: '/api/upload',
            expect: 200,
            form: imageForm(bytes),
            onAnswer: (a) => a.status === 200 && created.uploads.push({ path: a.body.data, bytes }),
          };
        },
      ],
    ];
    const totalWeight = operations.reduce((sum, [w]) => sum + w, 0);
    const choose = (): Operation => {
      for (;;) {
        let roll = rand.next() * totalWeight;
        for (const [weight, make] of operations) {
          roll -= weight;
          if (roll <= 0) {
            const operation = make();
            if (operation) return operation;
            break;
          }
        }
      }
    };

    const outcomes: Outcome[] = [];
    let inFlight = 0;
    let skipped = 0;
    const pending = new Set<Promise<void>>();
    const fire = (operation: Operation) => {
      inFlight++;
      const at = performance.now();
      const done = (async () => {
        let outcome: Outcome;
        try {
          const answer = await call(server.url, operation.method, operation.path, {
            token,
            body: operation.body,
            form: operation.form,
            timeoutMs: 30_000,
          });
          operation.onAnswer?.(answer);
          outcome = { kind: operation.kind, status: answer.status, ms: answer.ms, at, unexpected: answer.status !== operation.expect };
          if (outcome.unexpected)
            console.error(`意外的应答：${operation.method} ${operation.path} → ${answer.status} ${JSON.stringify(answer.body)}`);
        } catch (error) {
          operation.onAnswer?.({ status: 0, body: null, ms: 0, headers: new Headers() });
          outcome = { kind: operation.kind, status: 'no answer', ms: performance.now() - at, at, unexpected: true };
          console.error(`无应答：${operation.method} ${operation.path}：${String((error as Error).cause ?? error)}`);
        }
        outcomes.push(outcome);
        inFlight--;
      })();
      pending.add(done);
      void done.then(() => pending.delete(done));
    };

    const rss: Array<{ at: number; bytes: number }> = [];
    const started = performance.now();
    const sampler = setInterval(() => rss.push({ at: performance.now() - started, bytes: server.rssBytes() }), 1000);
    const interval = 1000 / rate;
    let lastReport = 0;
    for (let i = 0; ; i++) {
      const due = started + i * interval;
      if (due - started >= durationMs) break;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (!server.running) throw new Error(`the server died:\n${server.output().slice(-5000)}`);
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
      } else {
        fire(choose());
      }
      const elapsed = performance.now() - started;
      if (elapsed - lastReport >= 10_000) {
        lastReport = elapsed;
        const errors = outcomes.filter((o) => o.unexpected).length;
        console.log(
          `  ${Math.round(elapsed / 1000)} 秒：${outcomes.length} 个应答，${errors} 个意外，进行中 ${inFlight}，RSS ${mb(server.rssBytes())}`,
        );
      }
    }
    await Promise.all(pending);
    clearInterval(sampler);

    // The verdict.
    const failures: string[] = [];
    const fiveXX = outcomes.filter((o) => typeof o.status === 'number' && o.status >= 500);
    const unexpected = outcomes.filter((o) => o.unexpected);
    if (fiveXX.length) failures.push(`${fiveXX.length} 个 5xx 应答`);
    if (unexpected.length) failures.push(`${unexpected.length} 个与预期不同的应答`);
    if (skipped) failures.push(`服务器跟不上固定速率：${skipped} 个请求因进行中的请求达到 ${MAX_IN_FLIGHT} 个而未发出`);

    const warm = rss.filter((s) => s.at >= warmupMs && s.at < warmupMs + 5000).map((s) => s.bytes);
    const end = rss.slice(-5).map((s) => s.bytes);
    const rssWarm = median(warm.length ? warm : rss.slice(0, 5).map((s) => s.bytes));
    const rssEnd = median(end);
    const growth = (rssEnd - rssWarm) / rssWarm;
    if (growth > RSS_GROWTH_LIMIT) failures.push(`内存增长 ${(growth * 100).toFixed(1)}%，超过 ${RSS_GROWTH_LIMIT * 100}%`);

    const exit = await server.terminate();
    if (exit.code !== 0) failures.push(`服务器停止时退出码 ${JSON.stringify(exit)}`);

    const database = await target.open();
    let counts: Record<string, number>;
    let lost = 0;
    try {
      for (const problem of await consistencyProblems(database.db)) failures.push(`数据不一致：${problem}`);
      const present = async (table: string, list: string[]) => {
        if (!list.length) return new Set<string>();
        const rows = await queryRows<{ id: string }>(
          database.db,
          sql`select id from ${sql.identifier(table)} where id = any(${`{${list.join(',')}}`}::text[])`,
        );
        return new Set(rows.map((r) => r.id));
      };
      for (const table of ['users', 'books', 'issues', 'comments'] as const) {
        const kept = created[table].all().map((r) => r.id);
        const found = await present(table, kept);
        const missing = kept.filter((id) => !found.has(id));
        lost += missing.length;
        if (missing.length) failures.push(`${missing.length} 条已确认的 ${table} 丢失，例如 ${missing.slice(0, 3).join(', ')}`);
        const back = await present(table, deleted[table]);
        if (back.size) failures.push(`${back.size} 条已删除的 ${table} 又出现了`);
      }
      for (const upload of created.uploads) {
        const id = /\/([0-9a-f]{24})\./.exec(upload.path)?.[1] ?? '';
        const [row] = await queryRows<{ data: Uint8Array }>(database.db, sql`select data from uploads where id = ${id}`);
        if (!row || !Buffer.from(row.data).equals(upload.bytes)) {
          lost++;
          failures.push(`上传的文件 ${upload.path} 丢失或被改变`);
        }
      }
      counts = await tableCounts(database.db);
    } finally {
      await database.close();
    }

    const byKind = new Map<string, number[]>();
    for (const o of outcomes) byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o.ms]);
    const all = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const seconds = durationMs / 1000;
    console.log('');
    console.log(
      `请求：${outcomes.length}（目标 ${Math.floor(seconds * rate)}，实际 ${(outcomes.length / seconds).toFixed(1)} 次/秒），5xx：${fiveXX.length}，意外应答：${unexpected.length}，未发出：${skipped}`,
    );
    console.log(
      `延迟：p50 ${percentile(all, 50).toFixed(1)} ms，p99 ${percentile(all, 99).toFixed(1)} ms，最大 ${percentile(all, 100).toFixed(1)} ms`,
    );
    for (const [kind, values] of [...byKind].sort()) {
      values.sort((a, b) => a - b);
      console.log(
        `  ${kind.padEnd(8)} ${String(values.length).padStart(6)} 次  p50 ${percentile(values, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(values, 99).toFixed(1).padStart(7)} ms`,
      );
    }
    console.log(
      `内存（RSS）：预热后 ${mb(rssWarm)}，结束时 ${mb(rssEnd)}，变化 ${(growth * 100).toFixed(1)}%（上限 +${RSS_GROWTH_LIMIT * 100}%）`,
    );
    const writes = (kind: string) => outcomes.filter((o) => o.kind === kind && !o.unexpected).length;
    console.log(
      `写入：新增 ${writes('create')} 条、修改 ${writes('edit')} 条、审核 ${writes('approve')} 条、上传 ${writes('upload')} 个；删除用户 ${deletions.users}、书籍 ${deletions.books}、问答 ${deletions.issues}、评论 ${deletions.comments}（连带删除的问答与评论共 ${deleted.issues.length + deleted.comments.length - deletions.issues - deletions.comments} 条）`,
    );
    console.log(
      `结束时的数据：${JSON.stringify(counts!)}；计数器与实际一致：${failures.some((f) => f.startsWith('数据不一致')) ? '否' : '是'}；丢失记录：${lost}`,
    );
    if (failures.length) {
      failed = true;
      console.log(`\nsoak 失败：\n- ${failures.join('\n- ')}`);
    } else {
      console.log('\nsoak 通过。');
    }
  } catch (error) {
    failed = true;
    console.error(error);
  } finally {
    if (server.running) await server.kill9();
    await target.drop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
