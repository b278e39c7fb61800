/**
 * `npx tsx bench/deep-pages.ts --database-url postgres://…/db`: single-request latencies of page 1
 * against a middle page and the last page of every list and of each filter combination its pages
 * are counted by, on an already seeded PostgreSQL database (the figures of
 * docs/decisions/0008-deep-pages.md). Cold: the first request of a server started for it (its
 * connections new, their statements not yet prepared), the median of `--colds` starts; warm: the
 * median and the slowest of `--repeats` rounds over the list's pages, one request at a time. It
 * only reads; the server it starts migrates the database first.
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
    colds: { type: 'string', default: '5' },
    only: { type: 'string' },
  },
});
const url = values['database-url'];
if (!url) throw new Error('--database-url is required');
const repeats = Number(values.repeats);
const colds = Number(values.colds);

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

  const median = (samples: number[]) => [...samples].sort((x, y) => x - y)[Math.floor(samples.length / 2)];
  const ratio = (value: number, base: number) => (Number.isFinite(value) && base > 0 ? `${(value / base).toFixed(2)}×` : '—');
  console.log(`load before: ${load()}`);
  console.log('| list | filter | rows | page | cold ms | cold ÷ page 1 | warm p50 ms | warm ÷ page 1 | warm max ms |');
  console.log('| ---- | ------ | ---: | ---: | ------: | ------------: | ----------: | ------------: | ----------: |');
  for (const plan of plans) {
    const targets = plan.pages.map((current) => `${plan.path}&current=${current}&pageSize=10`);
    // Cold: the first request of a server started for it; the pages in turn, `colds` times, and
    // the median of each, so that a noisy neighbour slows them alike.
    const coldSamples = new Map<string, number[]>(targets.map((target) => [target, []]));
    for (let i = 0; i < colds; i++) {
      for (const target of targets) {
        const { server, token } = await start();
        try {
          coldSamples.get(target)!.push(await timed(server.url, target, token));
        } finally {
          await server.stop();
        }
      }
    }
    const cold = new Map(targets.map((target) => [target, median(coldSamples.get(target)!)]));
    // Warm: the pages in turn on one server, so that a noisy neighbour slows them alike.
    const warm = new Map<string, number[]>(targets.map((target) => [target, []]));
    const { server, token } = await start();
    try {
      for (const target of targets) await timed(server.url, target, token);
      for (let i = 0; i < repeats; i++) for (const target of targets) warm.get(target)!.push(await timed(server.url, target, token));
    } finally {
      await server.stop();
    }
    const base = { cold: cold.get(targets[0])!, warm: median(warm.get(targets[0])!) };
    plan.pages.forEach((current, i) => {
      const samples = warm.get(targets[i])!;
      const p50 = median(samples);
      console.log(
        `| ${plan.list} | ${plan.filter} | ${plan.rows} | ${current} | ${show(cold.get(targets[i])!, 1)} | ${ratio(cold.get(targets[i])!, base.cold)} | ` +
          `${show(p50, 2)} | ${ratio(p50, base.warm)} | ${show(Math.max(...samples), 2)} |`,
      );
    });
    await sleep(200);
  }
  console.log(`load after: ${load()}`);
  for (const [target, status] of failures) console.log(`failed: ${target} answered ${status}`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
