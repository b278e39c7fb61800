/**
 * `npx tsx bench/deep-pages.ts --database-url postgres://…/db`: single-request latencies of page 1
 * against a middle page and the last page of every list and of each filter combination its pages
 * are counted by, on an already seeded PostgreSQL database (the figures of
 * docs/decisions/0008-deep-pages.md). Cold: the first request of a server started for it (its
 * connections new, their statements not yet prepared); warm: the median and the slowest of the
 * next requests, one at a time. It only reads; the server it starts migrates the database first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getJson, signIn, startServer } from './lib/server';

interface Scenario {
  list: string;
  filter: string;
  /** The list's path with the filter's query, without paging. */
  path: string;
}

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    repeats: { type: 'string', default: '21' },
    only: { type: 'string' },
  },
});
const url = values['database-url'];
if (!url) throw new Error('--database-url is required');
const repeats = Number(values.repeats);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function scenarios(serverUrl: string, token: string): Promise<Scenario[]> {
  const types = await getJson<Array<{ _id: string }>>(`${serverUrl}/api/type`, token);
  const type = types[0]._id;
  return [
    { list: 'users', filter: 'none', path: '/api/user?' },
    { list: 'users', filter: 'enabled=false', path: '/api/user?enabled=false' },
    { list: 'users', filter: 'enabled=true', path: '/api/user?enabled=true' },
    { list: 'issues', filter: 'none', path: '/api/issue?' },
    { list: 'issues', filter: 'status', path: '/api/issue?issueStatus=true' },
    { list: 'issues', filter: 'type', path: `/api/issue?typeId=${type}` },
    { list: 'issues', filter: 'status+type', path: `/api/issue?issueStatus=true&typeId=${type}` },
    { list: 'comments', filter: 'type 1', path: '/api/comment/1?' },
    { list: 'comments', filter: 'type 2', path: '/api/comment/2?' },
    { list: 'comments', filter: 'type 1+typeId', path: `/api/comment/1?typeId=${type}` },
    { list: 'books', filter: 'none', path: '/api/book?' },
    { list: 'books', filter: 'type', path: `/api/book?typeId=${type}` },
    { list: 'interviews', filter: 'none', path: '/api/interview?' },
    { list: 'interviews', filter: 'type', path: `/api/interview?typeId=${type}` },
    { list: 'audit', filter: 'none', path: '/api/audit?' },
    { list: 'audit', filter: 'entity', path: '/api/audit?entity=user' },
    { list: 'trash', filter: 'none', path: '/api/trash?' },
  ].filter((s) => !values.only || s.list === values.only);
}

/** Milliseconds to a whole answer; an answer that is not a success counts as Infinity (shown as its status). */
const failures = new Map<string, number>();
async function timed(serverUrl: string, target: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${serverUrl}${target}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { success: boolean; msg: string };
  const ms = performance.now() - started;
  if (body.success) return ms;
  failures.set(target, response.status);
  return Number.POSITIVE_INFINITY;
}

const show = (ms: number, digits: number) => (Number.isFinite(ms) ? ms.toFixed(digits) : 'failed');

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-deep-'));
  const log = path.join(work, 'server.log');
  const start = async () => {
    const server = await startServer({ DATABASE_URL: url! }, log);
    return { server, token: await signIn(server.url) };
  };
  const first = await start();
  const list = await scenarios(first.server.url, first.token);
  const plans: Array<Scenario & { rows: number; pages: number[] }> = [];
  for (const scenario of list) {
    const page = await getJson<{ count: number; totalPage: number }>(
      `${first.server.url}${scenario.path}&current=1&pageSize=10`,
      first.token,
    );
    const last = Math.max(1, page.totalPage);
    plans.push({ ...scenario, rows: page.count, pages: [...new Set([1, Math.ceil(last / 2), last])] });
  }
  await first.server.stop();

  console.log(`load before: ${load()}`);
  console.log('| list | filter | rows | page | cold ms | warm p50 ms | warm max ms |');
  console.log('| ---- | ------ | ---: | ---: | ------: | ----------: | ----------: |');
  for (const plan of plans) {
    for (const current of plan.pages) {
      const target = `${plan.path}&current=${current}&pageSize=10`;
      const { server, token } = await start();
      try {
        const cold = await timed(server.url, target, token);
        const warm: number[] = [];
        for (let i = 0; i < repeats; i++) warm.push(await timed(server.url, target, token));
        warm.sort((a, b) => a - b);
        const p50 = warm[Math.floor(warm.length / 2)];
        console.log(
          `| ${plan.list} | ${plan.filter} | ${plan.rows} | ${current} | ${show(cold, 1)} | ${show(p50, 2)} | ${show(warm[warm.length - 1], 2)} |`,
        );
      } finally {
        await server.stop();
      }
      await sleep(200);
    }
  }
  console.log(`load after: ${load()}`);
  for (const [target, status] of failures) console.log(`failed: ${target} answered ${status}`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
