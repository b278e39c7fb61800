import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase, SESSION_SETTINGS } from '../../server/src/db/client';
import { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA } from './server';
import { ROOT } from './options';

export interface SeedSizes {
  users: number;
  issues: number;
  comments: number;
  books: number;
  interviews: number;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function serverVersion(adminUrl: string): Promise<string> {
  return withClient(adminUrl, async (client) => (await client.query('show server_version')).rows[0].server_version as string);
}

/** What the bench database holds now, or null when there is no such database. */
async function currentSizes(adminUrl: string, name: string): Promise<SeedSizes | null> {
  const exists = await withClient(
    adminUrl,
    async (client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount,
  );
  if (!exists) return null;
  try {
    return await withClient(databaseUrl(adminUrl, name), async (client) => {
      const { rows } = await client.query(`select
        (select count(*) from users)::int as users, (select count(*) from issues)::int as issues,
        (select count(*) from comments)::int as comments, (select count(*) from books)::int as books,
        (select count(*) from interviews)::int as interviews`);
      return rows[0] as SeedSizes;
    });
  } catch {
    return null;
  }
}

function seedFlags(sizes: SeedSizes): string[] {
  return Object.entries(sizes).flatMap(([key, value]) => [`--${key}`, String(value)]);
}

/** `npm run seed` with these sizes on the database `env` names; answers the seconds it took. */
export async function runSeed(sizes: SeedSizes, env: { DATABASE_URL: string } | { DATA_DIR: string }): Promise<number> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', 'seed', '--', ...seedFlags(sizes)], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run seed failed (exit ${code})`);
  return (performance.now() - started) / 1000;
}

/** The seconds the seeding of a kept database took, written on the database itself when it was seeded. */
async function recordedSeedSeconds(adminUrl: string, name: string): Promise<number | null> {
  return withClient(adminUrl, async (client) => {
    const { rows } = await client.query('select shobj_description(oid, $2) as note from pg_database where datname = $1', [
      name,
      'pg_database',
    ]);
    const seconds = Number(/seeded in ([\d.]+) s/.exec(String(rows[0]?.note ?? ''))?.[1]);
    return Number.isFinite(seconds) ? seconds : null;
  });
}

/**
 * A fresh `bench` database seeded to `sizes`, or the existing one when `keep` is set and it already
 * holds exactly that. Only this one database is ever dropped. `seedSeconds` is the seeding's time
 * either way (a kept database carries it in its comment; null if it was seeded before that was
 * written), `reused` says which.
 */
export async function prepareBenchDatabase(
  adminUrl: string,
  name: string,
  sizes: SeedSizes,
  keep: boolean,
): Promise<{ url: string; seedSeconds: number | null; reused: boolean }> {
  const url = databaseUrl(adminUrl, name);
  if (keep) {
    const current = await currentSizes(adminUrl, name);
    if (current && (Object.keys(sizes) as Array<keyof SeedSizes>).every((key) => current[key] === sizes[key])) {
      console.error(`reusing database "${name}" (${JSON.stringify(current)})`);
      return { url, seedSeconds: await recordedSeedSeconds(adminUrl, name), reused: true };
    }
  }
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  const seedSeconds = await runSeed(sizes, { DATABASE_URL: url });
  await withClient(adminUrl, async (client) => {
    await client.query(`comment on database "${name}" is 'seeded in ${seedSeconds.toFixed(1)} s on ${new Date().toISOString()}'`);
    // The seed leaves gigabytes of pages dirty: written out now, they are not written out during
    // the measured runs that follow.
    // CHECKPOINT needs a superuser (or pg_checkpoint): a bench run as another role goes on without.
    await client.query('checkpoint').catch((error: Error) => console.error(`no checkpoint after the seed: ${error.message}`));
  });
  return { url, seedSeconds, reused: false };
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The statement with its parameters written in, as pgbench needs it. */
export function inlineParameters(sql: string, params: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/** One GET as the server answers it: the statements it sends, in order, and its JSON answer. */
export interface CapturedCall {
  statements: Array<{ sql: string; params: unknown[] }>;
  body: unknown;
  /** Made without a token (a visitor of the public site). */
  anonymous?: boolean;
}

/**
 * Every statement the server sends to answer each GET, captured from the server's own code (the
 * same modules the bundle is built from) running in this process on the same database, with the
 * drizzle query hook, and the answer it gave. The token check's lookup is one of them: this app
 * keeps no session in memory (it does not listen for session changes), so it asks the database
 * on every call, as the product does whenever its notification channel is down.
 */
export async function captureCalls(
  url: string,
  paths: string[],
  anonymous: ReadonlySet<string> = new Set(),
): Promise<Map<string, CapturedCall>> {
  let recording: CapturedCall['statements'] | null = null;
  const database = await openDatabase({
    kind: 'postgres',
    url,
    poolSize: 2,
    onQuery: (sql, params) => recording?.push({ sql, params }),
  });
  const config = loadConfig({
    NODE_ENV: 'benchmark',
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    ADMIN_LOGIN_ID: ADMIN_LOGIN,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database });
  try {
    const captcha = await app.inject({ method: 'GET', url: '/res/captcha' });
    const cookie = captcha.cookies.find((c) => c.name === 'captcha_id');
    const login = await app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { cookie: `captcha_id=${cookie?.value}` },
      payload: { loginId: ADMIN_LOGIN, loginPwd: ADMIN_PASSWORD, captcha: CAPTCHA, remember: true },
    });
    if (login.statusCode !== 200) throw new Error(`capturing: sign-in failed: ${login.statusCode} ${login.body}`);
    const token = login.json<{ data: { token: string } }>().data.token;
    const calls = new Map<string, CapturedCall>();
    for (const target of paths) {
      recording = [];
      const visitor = anonymous.has(target);
      const response = await app.inject({ method: 'GET', url: target, headers: visitor ? {} : { authorization: `Bearer ${token}` } });
      if (response.statusCode !== 200) throw new Error(`capturing ${target}: ${response.statusCode} ${response.body}`);
      calls.set(target, { statements: recording, body: response.json(), anonymous: visitor });
      recording = null;
    }
    return calls;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The statements of each call with their parameters written in, as pgbench replays them. */
export function inlinedStatements(calls: Map<string, CapturedCall>): Map<string, string[]> {
  return new Map([...calls].map(([target, call]) => [target, call.statements.map((s) => inlineParameters(s.sql, s.params))]));
}

export async function captureStatements(url: string, paths: string[]): Promise<Map<string, string[]>> {
  return inlinedStatements(await captureCalls(url, paths));
}

function pgbenchBinary(): string {
  if (spawnSync('pgbench', ['--version']).status === 0) return 'pgbench';
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = path.join(base, version, 'bin/pgbench');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('pgbench not found (Debian: apt-get install postgresql-client)');
}

export interface PgbenchResult {
  tps: number;
  p50: number;
  p99: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function pgbenchOnce(url: string, script: string, connections: number, seconds: number, logDir: string | null) {
  const target = new URL(url);
  const args = [
    '-n',
    // Parsed and planned once per connection: the database's best case, as the server's own
    // prepared statements are.
    '-M',
    'prepared',
    '-c',
    String(connections),
    '-j',
    String(Math.min(connections, os.cpus().length)),
    '-T',
    String(seconds),
    '-f',
    script,
    '-h',
    target.hostname,
    '-p',
    target.port || '5432',
    '-U',
    decodeURIComponent(target.username || 'postgres'),
  ];
  if (logDir) args.push('-l', `--log-prefix=${path.join(logDir, 'tx')}`);
  args.push(target.pathname.slice(1));
  const result = spawnSync(pgbenchBinary(), args, {
    encoding: 'utf8',
    // The product's connection settings (no JIT, no parallel workers): the same plans' costs.
    env: { ...process.env, PGPASSWORD: decodeURIComponent(target.password), PGOPTIONS: SESSION_SETTINGS },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * The database's own limit for a call: its statements, one after another on one connection, as
 * one pgbench transaction, at the same concurrency and for as long as the HTTP run.
 */
export function pgbench(url: string, statements: string[], connections: number, seconds: number, warmup: number): PgbenchResult {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-pgbench-'));
  try {
    const script = path.join(dir, 'call.sql');
    fs.writeFileSync(script, statements.map((s) => `${s};\n`).join(''));
    if (warmup > 0) pgbenchOnce(url, script, connections, warmup, null);
    const output = pgbenchOnce(url, script, connections, seconds, dir);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? NaN);
    const failures = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    // Per-transaction log lines: client, transaction number, latency in µs, ...
    const latencies = fs
      .readdirSync(dir)
      .filter((name) => name.startsWith('tx'))
      .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
      .filter(Boolean)
      .map((line) => Number(line.split(' ')[2]) / 1000)
      .sort((a, b) => a - b);
    return { tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
