import path from 'node:path';
import { parseArgs } from 'node:util';

export const ROOT = path.resolve(__dirname, '../..');

export interface BenchOptions {
  users: number;
  issues: number;
  comments: number;
  books: number;
  interviews: number;
  embeddedUsers: number;
  /** Seconds each load run (autocannon and pgbench alike) lasts, after its warm-up. */
  duration: number;
  warmup: number;
  connections: number;
  deepPage: number;
  nickname: string;
  /** postgres:// URL of a database on the server the bench may create and drop `bench` on. */
  adminUrl: string;
  benchDb: string;
  /** Reuse the bench database when it already holds the requested sizes. */
  keep: boolean;
  postgres: boolean;
  embedded: boolean;
  web: boolean;
  out: string;
  quick: boolean;
  /** The moderation section (issue 25, bench/lib/moderation.ts): words in the list, items waiting in 审核台. */
  moderation: boolean;
  moderationWords: number;
  waiting: number;
  /** The list calls at growing sizes instead of the main run (bench/lib/scale.ts). */
  scale: boolean;
  /** The sizes, in users, of the --scale run. */
  scaleSizes: number[];
  /** The --scale run's databases are this name and `_<users>`. */
  scaleDatabase: string;
}

const USAGE = `npm run bench -- [options]
  --users N            users on PostgreSQL (1000000)
  --issues N           issues (200000)
  --comments N         comments (1000000)
  --books N            books (100000)
  --interviews N       interview questions (1000)
  --embedded-users N   users on the embedded database (100000)
  --duration S         seconds per measured run, autocannon and pgbench alike (20)
  --warmup S           seconds of load before each measured run (3)
  --connections N      concurrent connections (32)
  --deep-page N        the deep page of the user list (5000, or the last page when there are fewer)
  --nickname TEXT      the nickname substring filter (张子轩)
  --database-url URL   a PostgreSQL server the bench may create and drop the database "bench" on
                       ("bench_quick" with --quick)
                       (BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
  --database NAME      the bench database's name (bench; bench_quick with --quick)
  --keep               reuse the bench database when it already holds these sizes (no re-seed)
  --moderation-words N words in the list for the moderation section (10000)
  --waiting N          items waiting in 审核台 for its queue page (100000)
  --no-postgres, --no-embedded, --no-web, --no-moderation   leave a part out
  --out FILE           where the report goes (bench/RESULTS.md)
  --quick              smoke run: tiny sizes, 1 s runs without warm-up (CI)
  --scale              instead: the list calls at growing sizes, each on a database of its own
                       (kept for --keep), written to bench/SCALE.md unless --out is given
  --scale-sizes N,N    the sizes in users (100000,1000000,10000000; 3000,30000 with --quick);
                       issues and books a tenth of them, as many comments
  --scale-database S   the --scale databases are S_<users> (bench_scale)`;

const FULL = {
  users: 1_000_000,
  issues: 200_000,
  comments: 1_000_000,
  books: 100_000,
  interviews: 1000,
  embeddedUsers: 100_000,
  duration: 20,
  warmup: 3,
  moderationWords: 10_000,
  waiting: 100_000,
};
const QUICK = {
  users: 3000,
  issues: 600,
  comments: 3000,
  books: 300,
  interviews: 30,
  embeddedUsers: 3000,
  duration: 1,
  warmup: 0,
  moderationWords: 300,
  waiting: 300,
};

function count(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`--${name} takes a whole number, got "${raw}"`);
  return Number(raw);
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      users: { type: 'string' },
      issues: { type: 'string' },
      comments: { type: 'string' },
      books: { type: 'string' },
      interviews: { type: 'string' },
      'embedded-users': { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'deep-page': { type: 'string' },
      nickname: { type: 'string' },
      'database-url': { type: 'string' },
      database: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'no-postgres': { type: 'boolean', default: false },
      'no-embedded': { type: 'boolean', default: false },
      'no-web': { type: 'boolean', default: false },
      'no-moderation': { type: 'boolean', default: false },
      'moderation-words': { type: 'string' },
      waiting: { type: 'string' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      'scale-sizes': { type: 'string' },
      'scale-database': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const base = values.quick ? QUICK : FULL;
  const duration = count(values.duration, 'duration', base.duration);
  if (duration < 1) throw new Error('--duration must be at least 1 second');
  return {
    users: count(values.users, 'users', base.users),
    issues: count(values.issues, 'issues', base.issues),
    comments: count(values.comments, 'comments', base.comments),
    books: Math.max(1, count(values.books, 'books', base.books)),
    interviews: count(values.interviews, 'interviews', base.interviews),
    embeddedUsers: count(values['embedded-users'], 'embedded-users', base.embeddedUsers),
    duration,
    warmup: count(values.warmup, 'warmup', base.warmup),
    connections: Math.max(1, count(values.connections, 'connections', 32)),
    deepPage: Math.max(1, count(values['deep-page'], 'deep-page', 5000)),
    nickname: values.nickname ?? '张子轩',
    adminUrl: values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    // The smoke run has a database of its own, so it never drops a full-size one kept for --keep.
    benchDb: values.database ?? (values.quick ? 'bench_quick' : 'bench'),
    keep: values.keep ?? false,
    postgres: !values['no-postgres'],
    embedded: !values['no-embedded'],
    web: !values['no-web'],
    moderation: !values['no-moderation'],
    moderationWords: count(values['moderation-words'], 'moderation-words', base.moderationWords),
    waiting: count(values.waiting, 'waiting', base.waiting),
    out: path.resolve(values.out ?? path.join(ROOT, values.scale ? 'bench/SCALE.md' : 'bench/RESULTS.md')),
    quick: values.quick ?? false,
    scale: values.scale ?? false,
    scaleSizes: (values['scale-sizes'] ?? (values.quick ? '3000,30000' : '100000,1000000,10000000'))
      .split(',')
      .map((size) => count(size.trim(), 'scale-sizes', 0)),
    scaleDatabase: values['scale-database'] ?? (values.quick ? 'bench_quick_scale' : 'bench_scale'),
  };
}

/** The deep page asked for, or the last page when the list is shorter. */
export function deepPageFor(options: BenchOptions, rows: number, pageSize = 10): number {
  return Math.max(1, Math.min(options.deepPage, Math.ceil(rows / pageSize)));
}
