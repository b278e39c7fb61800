import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { measure, type LoadResult } from './load';
import { deepPageFor, type BenchOptions } from './options';
import { databaseUrl, prepareBenchDatabase, serverVersion, type SeedSizes } from './postgres';
import { describeMachine } from './report';
import { getJson, signIn, startServer } from './server';

/**
 * `npm run bench -- --scale`: the list calls at growing sizes (issue 15, target 4: "p99 at 10M ≤
 * 1.5× p99 at 100k on every call, deep pages included"). Each size has a database of its own,
 * seeded once (kept afterwards, so `--keep` reuses it), measured by the production server under
 * the same load as the main run, one call after another. The report gives the seed times, the
 * database sizes and each call's p99 per size, and the ratio of the largest size to the smallest.
 */

/** The data of one size: `users` users, a tenth as many issues and books, as many comments. */
export function scaleSizes(users: number): SeedSizes {
  return {
    users,
    issues: Math.max(1, Math.round(users / 10)),
    comments: users,
    books: Math.max(1, Math.round(users / 10)),
    interviews: Math.min(1000, Math.max(10, Math.round(users / 100))),
  };
}

interface Call {
  label: string;
  path: string;
}

interface SizeResult {
  sizes: SeedSizes;
  /** Seconds `npm run seed` took (when the database was made, if it was reused), null if unknown. */
  seedSeconds: number | null;
  /** The database was seeded by an earlier run and kept (--keep). */
  reused: boolean;
  databaseBytes: number;
  calls: Array<Call & { http: LoadResult }>;
}

/** The calls measured at every size, named the same at each so that their rows line up. */
async function callsFor(serverUrl: string, token: string, options: BenchOptions, sizes: SeedSizes): Promise<Call[]> {
  const types = await getJson<Array<{ _id: string }>>(`${serverUrl}/api/type`, token);
  const lastPage = async (target: string) =>
    Math.max(1, (await getJson<{ totalPage: number }>(`${serverUrl}${target}&current=1&pageSize=10`, token)).totalPage);
  const issues = `/api/issue?issueStatus=true&typeId=${types[0]._id}`;
  const comments = '/api/comment/1?';
  const deep = deepPageFor(options, sizes.users);
  return [
    { label: 'user list, page 1', path: '/api/user?current=1&pageSize=10' },
    { label: `user list, page ${options.deepPage} (or the last)`, path: `/api/user?current=${deep}&pageSize=10` },
    { label: 'user list, last page', path: `/api/user?current=${Math.ceil(sizes.users / 10)}&pageSize=10` },
    {
      label: `user list, nickname contains "${options.nickname}"`,
      path: `/api/user?current=1&pageSize=10&nickname=${encodeURIComponent(options.nickname)}`,
    },
    { label: 'issue list, approved, one type, page 1', path: `${issues}&current=1&pageSize=10` },
    { label: 'issue list, approved, one type, last page', path: `${issues}&current=${await lastPage(issues)}&pageSize=10` },
    { label: 'comment list, type 1, page 1', path: `${comments}&current=1&pageSize=10` },
    { label: 'comment list, type 1, last page', path: `${comments}&current=${await lastPage(comments)}&pageSize=10` },
  ];
}

async function databaseBytes(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('select pg_database_size(current_database()) as n')).rows[0].n);
  } finally {
    await client.end();
  }
}

async function measureSize(options: BenchOptions, users: number, work: string): Promise<SizeResult> {
  const sizes = scaleSizes(users);
  const name = `${options.scaleDatabase}_${users}`;
  console.error(`scale: ${users.toLocaleString('en')} users: preparing database "${name}"`);
  const { url, seedSeconds, reused } = await prepareBenchDatabase(options.adminUrl, name, sizes, options.keep);
  const server = await startServer({ DATABASE_URL: url }, path.join(work, `server-${users}.log`));
  try {
    const token = await signIn(server.url);
    const calls: SizeResult['calls'] = [];
    for (const call of await callsFor(server.url, token, options, sizes)) {
      console.error(`  ${users.toLocaleString('en')} users: ${call.label}`);
      const http = await measure(`${server.url}${call.path}`, token, server.pid, options.connections, options.duration, options.warmup);
      calls.push({ ...call, http });
    }
    return { sizes, seedSeconds, reused, databaseBytes: await databaseBytes(url), calls };
  } finally {
    await server.stop();
  }
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const rows = (s: SeedSizes) => s.users + s.issues + s.comments + s.books + s.interviews;

function table(head: string[], body: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

export function renderScale(options: BenchOptions, machine: Record<string, string>, results: SizeResult[], failure: unknown): string {
  const parts = ['# Lists at growing sizes', ''];
  if (failure) parts.push(`**The run stopped early**: ${failure instanceof Error ? failure.message : String(failure)}.`, '');
  parts.push(
    `Written by \`npm run bench -- --scale --scale-sizes ${options.scaleSizes.join(',')}\` on ${new Date().toISOString()}. ` +
      `${options.connections} connections, ${options.duration} s per call after ${options.warmup} s of warm-up, ` +
      'one call after another, on a database per size (issues and books a tenth of the users, as many comments as users).',
    '',
    '## Machine',
    '',
    table(['', ''], Object.entries(machine)),
    '',
    '## Data',
    '',
    table(
      ['users', 'issues', 'comments', 'books', 'interviews', 'seed', 'rows/s', 'database size'],
      results.map((r) => [
        r.sizes.users.toLocaleString('en'),
        r.sizes.issues.toLocaleString('en'),
        r.sizes.comments.toLocaleString('en'),
        r.sizes.books.toLocaleString('en'),
        r.sizes.interviews.toLocaleString('en'),
        r.seedSeconds === null ? 'reused (--keep)' : `${r.seedSeconds.toFixed(0)} s${r.reused ? ' (an earlier run; reused)' : ''}`,
        r.seedSeconds === null ? '—' : Math.round(rows(r.sizes) / r.seedSeconds).toLocaleString('en'),
        gb(r.databaseBytes),
      ]),
    ),
    '',
  );
  if (results.length) {
    const labels = results[0].calls.map((c) => c.label);
    const head = ['call', ...results.flatMap((r) => [`p99 at ${r.sizes.users.toLocaleString('en')}`, 'req/s'])];
    const body = labels.map((label, i) => [
      label,
      ...results.flatMap((r) => {
        const call = r.calls[i];
        if (!call) return ['—', '—'];
        const failed = call.http.failures ? ` (${call.http.failures} failed)` : '';
        return [`${ms(call.http.p99)}${failed}`, call.http.rps.toFixed(0)];
      }),
    ]);
    parts.push('## p99 per call and size', '', table(head, body), '');
    const first = results[0];
    const last = results[results.length - 1];
    if (results.length > 1 && last.calls.length === first.calls.length) {
      parts.push(
        `## Target: p99 at ${last.sizes.users.toLocaleString('en')} users ≤ 1.5× p99 at ${first.sizes.users.toLocaleString('en')}`,
        '',
        table(
          ['call', 'ratio', 'met'],
          labels.map((label, i) => {
            const ratio = last.calls[i].http.p99 / first.calls[i].http.p99;
            const met = ratio <= 1.5 && last.calls[i].http.failures === 0;
            return [label, `${ratio.toFixed(2)}×`, met ? 'met' : 'MISSED'];
          }),
        ),
        '',
      );
    }
  }
  return parts.join('\n');
}

export async function runScale(options: BenchOptions): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-scale-'));
  const machine = describeMachine({ PostgreSQL: await serverVersion(options.adminUrl) });
  const results: SizeResult[] = [];
  let failure: unknown = null;
  console.error(`bench --scale: sizes ${options.scaleSizes.join(', ')}; server logs in ${work}`);
  try {
    for (const users of options.scaleSizes) results.push(await measureSize(options, users, work));
  } catch (error) {
    failure = error;
  }
  fs.writeFileSync(options.out, renderScale(options, machine, results, failure));
  console.error(`written: ${path.relative(process.cwd(), options.out)}`);
  for (const r of results) {
    console.error(`databases kept for --keep: ${databaseUrl(options.adminUrl, `${options.scaleDatabase}_${r.sizes.users}`)}`);
  }
  if (failure) throw failure;
  fs.rmSync(work, { recursive: true, force: true });
}
