/**
 * The floor servers (bench/floor/server.ts) beside the product: what each call would cost with
 * nothing around the SQL but Fastify, node-postgres and JSON. "floor" sends every statement the
 * product sends for the call, its token check included; "list-only floor" leaves the token
 * check out, as a product that knows its sessions without asking the database would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { Client } from 'pg';
import { DEFAULT_POOL_SIZE, SESSION_SETTINGS } from '../../server/src/db/client';
import { measure, type LoadResult } from './load';
import { ROOT, type BenchOptions } from './options';
import type { CapturedCall } from './postgres';
import type { ApiRow, Target } from './report';

/** What a floor process serves: per request URL, its statements and its answer as a JS expression. */
export interface FloorSpec {
  databaseUrl: string;
  poolSize: number;
  /** The product's connection settings (SESSION_SETTINGS): the same plans' costs on both sides. */
  connectionOptions: string;
  calls: Array<{ url: string; statements: Array<{ name: string; text: string; values: unknown[] }>; answer: string }>;
}

export type FloorKind = 'floor' | 'listOnly';

export const FLOOR_LABELS: Record<FloorKind, string> = { floor: 'floor', listOnly: 'list-only floor' };

/** Whether a JSON value of the answer is what a column of a row holds (pg gives bigints as text). */
function same(value: unknown, cell: unknown): boolean {
  if (value === null || cell === null) return value === cell;
  return value === cell || (typeof value !== 'object' && String(value) === String(cell));
}

/** A JS expression for the value found at `cell` of `row`, as the product writes it in JSON. */
function columnExpression(row: string, index: number, value: unknown, cell: unknown): string {
  const read = `${row}[${index}]`;
  return typeof value === 'number' && typeof cell === 'string' ? `(${read} === null ? null : Number(${read}))` : read;
}

/**
 * The expression that builds, from the rows of the call's last statement, the objects the product
 * answered in `items` (one per row): each field read from the column that holds its value in
 * every row. A field no column holds must be the same in every row (a constant).
 */
function rowsExpression(items: unknown[], rows: unknown[][], row: string): string {
  const first = items[0];
  if (first === null || typeof first !== 'object' || Array.isArray(first)) {
    const index = rows[0].findIndex((_, j) => items.every((item, i) => same(item, rows[i][j])));
    if (index >= 0) return columnExpression(row, index, first, rows[0][index]);
    if (items.every((item) => JSON.stringify(item) === JSON.stringify(first))) return JSON.stringify(first);
    throw new Error(`floor: no column of the statement holds the answer's value ${JSON.stringify(first)}`);
  }
  const fields = Object.keys(first).map(
    (key) =>
      `${JSON.stringify(key)}: ${rowsExpression(
        items.map((item) => (item as Record<string, unknown>)[key]),
        rows,
        row,
      )}`,
  );
  return `{ ${fields.join(', ')} }`;
}

/**
 * The product's answer as an expression over `rows` (the last statement's rows, as arrays) and
 * `row` (the first of them): an array with one element per row is built from the rows; a single
 * row's object (whoami, one book) from `row`; everything else (the envelope, the page numbers)
 * is written as the product answered it, since the floor answers one fixed call.
 */
function answerExpression(value: unknown, rows: unknown[][] | null): string {
  if (rows === null || value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.length === rows.length) return `rows.map((r) => (${rowsExpression(value, rows, 'r')}))`;
    return JSON.stringify(value);
  }
  const record = value as Record<string, unknown>;
  // The answer's `data` of a one-row statement is that row.
  if (rows.length === 1 && 'success' in record && record.data !== null && typeof record.data === 'object' && !Array.isArray(record.data)) {
    const inner = record.data as Record<string, unknown>;
    const page = Object.values(inner).some((v) => Array.isArray(v));
    if (!page) {
      const rest = Object.entries(record).filter(([key]) => key !== 'data');
      return `{ ${[...rest.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`), `"data": ${rowsExpression([inner], rows, 'row')}`].join(', ')} }`;
    }
  }
  return `{ ${Object.entries(record)
    .map(([key, item]) => `${JSON.stringify(key)}: ${answerExpression(item, rows)}`)
    .join(', ')} }`;
}

/** The token check: the statement every guarded call starts with (null with fewer than two calls). */
function sessionStatement(calls: Map<string, CapturedCall>): string | null {
  // A visitor's call has no token to check: only the calls made with one share the check.
  const withToken = [...calls.values()].filter((call) => !call.anonymous);
  const firsts = new Set(withToken.map((call) => call.statements[0]?.sql));
  return withToken.length > 1 && firsts.size === 1 ? ([...firsts][0] ?? null) : null;
}

/**
 * The two floors' specs for the captured calls. The rows of each call's last statement are read
 * once here, to find which column holds each value of the product's answer.
 */
export async function floorSpecs(databaseUrl: string, calls: Map<string, CapturedCall>): Promise<Record<FloorKind, FloorSpec>> {
  const session = sessionStatement(calls);
  if (session === null) throw new Error('floor: the calls do not start with one common token check');
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    if (!names.has(text)) names.set(text, `floor_${names.size}`);
    return names.get(text)!;
  };
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const specs: Record<FloorKind, FloorSpec> = {
    floor: { databaseUrl, poolSize: DEFAULT_POOL_SIZE, connectionOptions: SESSION_SETTINGS, calls: [] },
    listOnly: { databaseUrl, poolSize: DEFAULT_POOL_SIZE, connectionOptions: SESSION_SETTINGS, calls: [] },
  };
  try {
    for (const [url, call] of calls) {
      const statements = call.statements.map((s) => ({ name: nameOf(s.sql), text: s.sql, values: s.params }));
      const last = statements[statements.length - 1];
      const rows = (await client.query<unknown[]>({ text: last.text, values: last.values, rowMode: 'array' })).rows;
      specs.floor.calls.push({ url, statements, answer: answerExpression(call.body, rows) });
      const listOnly = statements.filter((s) => s.text !== session);
      // Without its token check a call that sends nothing else (whoami) has no rows to build from.
      specs.listOnly.calls.push({
        url,
        statements: listOnly,
        answer: last.text === session ? answerExpression(call.body, null) : answerExpression(call.body, rows),
      });
    }
  } finally {
    await client.end();
  }
  return specs;
}

export interface FloorServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const FLOOR_SOURCE = path.join(ROOT, 'bench/floor/server.ts');
const FLOOR_BUNDLE = path.join(ROOT, 'bench/tmp/floor.cjs');

/** The floor as plain JavaScript (as the product runs from its bundle); packages stay in node_modules. */
async function bundleFloor(): Promise<string> {
  await build({
    entryPoints: [FLOOR_SOURCE],
    outfile: FLOOR_BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    logLevel: 'warning',
  });
  return FLOOR_BUNDLE;
}

async function startFloor(bundle: string, spec: FloorSpec, specFile: string, logFile: string): Promise<FloorServer> {
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const log = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, [bundle, specFile], { cwd: ROOT, stdio: ['pipe', 'pipe', log] });
  fs.closeSync(log);
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the floor did not start within 30 s (see ${logFile})`)), 30_000);
    child.once('exit', (code) => reject(new Error(`the floor exited (${code}) before listening (see ${logFile})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      process.removeListener('exit', reap);
      child.stdin?.end();
      const late = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(late);
    },
  };
}

export type Floors = Record<FloorKind, FloorServer> & { stop(): Promise<void> };

/** Both floors, started for the captured calls on `databaseUrl`; their output goes to `workDir`. */
export async function startFloors(databaseUrl: string, calls: Map<string, CapturedCall>, workDir: string): Promise<Floors> {
  const specs = await floorSpecs(databaseUrl, calls);
  const bundle = await bundleFloor();
  const floor = await startFloor(bundle, specs.floor, path.join(workDir, 'floor.json'), path.join(workDir, 'floor.log'));
  const listOnly = await startFloor(bundle, specs.listOnly, path.join(workDir, 'floor-list-only.json'), path.join(workDir, 'floor.log'));
  for (const server of [floor, listOnly]) {
    for (const url of calls.keys()) {
      const response = await fetch(`${server.url}${url}`);
      if (!response.ok) throw new Error(`the floor answered ${response.status} to ${url}`);
      await response.arrayBuffer();
    }
  }
  return {
    floor,
    listOnly,
    async stop() {
      await Promise.all([floor.stop(), listOnly.stop()]);
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * One call loaded on several servers in turn, in rounds (up to 4, of at least 2 s each) that
 * together last `duration`: a neighbour that loads the shared machine for a while weighs on all
 * of them alike instead of on whichever ran then. Each server is warmed up once, before its first
 * round. Per server: req/s and CPU per request over all its rounds, p50 and p99 the median of
 * the rounds'.
 */
export async function measureSideBySide(
  target: string,
  token: string | null,
  servers: Array<{ url: string; pid: number }>,
  options: Pick<BenchOptions, 'connections' | 'duration' | 'warmup'>,
): Promise<LoadResult[]> {
  const rounds = Math.max(1, Math.min(4, Math.floor(options.duration / 2)));
  const seconds = options.duration / rounds;
  const runs: LoadResult[][] = servers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, server] of servers.entries()) {
      runs[i].push(
        await measure(`${server.url}${target}`, token, server.pid, options.connections, seconds, round === 0 ? options.warmup : 0),
      );
    }
  }
  return runs.map((results) => {
    const requests = results.reduce((sum, r) => sum + r.requests, 0);
    const cpu = results.reduce((sum, r) => sum + (r.requests ? r.serverCpuMs * r.requests : 0), 0);
    return {
      rps: requests / options.duration,
      serverCpuMs: requests ? cpu / requests : Number.NaN,
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      failures: results.reduce((sum, r) => sum + r.failures, 0),
      requests,
    };
  });
}

// The calls with a floor target: every list at ≥ 0.85× (issue 23; CPU per request is reported, no
// longer a target), the public site's visitor reads at ≥ 0.8× (issue 24), whoami at issue 15's 0.8×.
const TARGET_CALLS = /^(user list|issue list|comment list|whoami|visitor:)/;
const isVisitor = (row: ApiRow) => row.label.startsWith('visitor:');
const floorShare = (label: string) => (/^(user list|issue list|comment list)/.test(label) ? 0.85 : 0.8);
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);

/**
 * Per call: the product with its session looked up in the database (the same statements as the
 * floor) against the floor's req/s; the product as it runs (sessions in memory) at ≥ 0.7× the
 * list-only floor's req/s. A visitor's call has no session to look up: the product as visitors
 * get it (its answers kept in memory until a write, docs/decisions/0021) is compared with the
 * floor, and the run with nothing kept (SESSIONS_IN_MEMORY=false) is in the table beside it.
 */
export function floorTargets(rows: ApiRow[]): Target[] {
  const out: Target[] = [];
  for (const row of rows.filter((r) => r.database === 'PostgreSQL' && TARGET_CALLS.test(r.label))) {
    const { floor, listOnlyFloor } = row;
    const checked = isVisitor(row) ? row.http : (row.sessionInDb ?? row.http);
    if (floor) {
      const speed = ratio(checked.rps, floor.rps);
      const cpu = ratio(checked.serverCpuMs, floor.serverCpuMs);
      const share = floorShare(row.label);
      out.push({
        target: `${row.label}: ≥ ${share}× the floor's req/s (same statements)`,
        measured: `${speed.toFixed(2)}× req/s (CPU per request ${cpu.toFixed(2)}×: ${checked.serverCpuMs.toFixed(3)} vs ${floor.serverCpuMs.toFixed(3)} ms)`,
        met: speed >= share && checked.failures === 0,
      });
    }
    if (listOnlyFloor) {
      const speed = ratio(row.http.rps, listOnlyFloor.rps);
      out.push({
        target: `${row.label}: ≥ 0.7× the list-only floor's req/s`,
        measured: `${speed.toFixed(2)}× (${row.http.rps.toFixed(0)} vs ${listOnlyFloor.rps.toFixed(0)} req/s)`,
        met: speed >= 0.7 && row.http.failures === 0,
      });
    }
  }
  return out;
}

/** The product, its session-in-database run, both floors and pgbench side by side, per call. */
export function floorTable(rows: ApiRow[]): string | null {
  const measured = rows.filter((r) => r.floor);
  if (!measured.length) return null;
  const cells = (result: LoadResult | undefined) =>
    result ? [result.rps.toFixed(0), ms(result.p99), `${result.serverCpuMs.toFixed(3)} ms`] : ['—', '—', '—'];
  const head = ['call', 'server', 'req/s', 'p99', 'CPU per request'];
  const lines = measured.flatMap((row) => [
    [row.label, 'product', ...cells(row.http)],
    [
      row.label,
      isVisitor(row) ? 'product, nothing kept in memory (SESSIONS_IN_MEMORY=false)' : 'product, session looked up in the database',
      ...cells(row.sessionInDb),
    ],
    [row.label, FLOOR_LABELS.floor, ...cells(row.floor)],
    [row.label, FLOOR_LABELS.listOnly, ...cells(row.listOnlyFloor)],
    [row.label, 'pgbench', row.pgbench ? row.pgbench.tps.toFixed(0) : '—', row.pgbench ? ms(row.pgbench.p99) : '—', '—'],
  ]);
  const line = (c: string[]) => `| ${c.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...lines.map(line)].join('\n');
}
