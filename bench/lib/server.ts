import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './options';

export const CAPTCHA = 'b3nc';
export const ADMIN_LOGIN = 'admin';
export const ADMIN_PASSWORD = 'bench-admin-password';
const BUNDLE = path.join(ROOT, 'server/dist/main.cjs');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BenchServer {
  url: string;
  pid: number;
  /** Milliseconds from spawning the process to its first 200 from /healthz. */
  startupMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * The production bundle, as `npm start` runs it, on `database` (DATABASE_URL or DATA_DIR). Its log
 * (pino at the product's default level, info) goes to a file, as it would in production, so the
 * bench pays for writing it but not for reading it.
 */
export async function startServer(database: { DATABASE_URL: string } | { DATA_DIR: string }, logFile: string): Promise<BenchServer> {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [BUNDLE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      // Anything but production: CAPTCHA_TEST_ANSWER is refused there.
      NODE_ENV: 'benchmark',
      HOST: '127.0.0.1',
      PORT: String(port),
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      ADMIN_LOGIN_ID: ADMIN_LOGIN,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      ...database,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);

  const url = `http://127.0.0.1:${port}`;
  let startupMs = 0;
  for (const deadline = Date.now() + 120_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the server exited during start-up; see ${logFile}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) {
        startupMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /healthz within 120 s; see ${logFile}`);
    }
    await sleep(10);
  }

  return {
    url,
    pid: child.pid!,
    startupMs,
    rssMb: () => rssMb(child.pid!),
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Samples a process's RSS while `run` goes on; answers the peak. */
export async function peakRssDuring<T>(pid: number, run: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, rssMb(pid));
    } catch {
      // the process has gone; the run itself reports that
    }
  }, 200);
  try {
    const result = await run();
    return { result, peakMb: Math.max(peakMb, rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Starts the server `times` times in a row (stopping all but the last) and answers the last one
 * with the median start-up time: one start is too easily moved by a noisy neighbour.
 */
export async function startMeasured(
  database: { DATABASE_URL: string } | { DATA_DIR: string },
  logFile: string,
  times: number,
): Promise<{ server: BenchServer; startupMs: number[] }> {
  const startupMs: number[] = [];
  for (let i = 1; ; i++) {
    const server = await startServer(database, logFile);
    startupMs.push(server.startupMs);
    if (i >= times) return { server, startupMs };
    await server.stop();
  }
}

/** Signs in as the first super admin through the captcha, as the login page does. */
export async function signIn(url: string): Promise<string> {
  const captcha = await fetch(`${url}/res/captcha`);
  const cookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('captcha_id=')) throw new Error('no captcha cookie from /res/captcha');
  const response = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ loginId: ADMIN_LOGIN, loginPwd: ADMIN_PASSWORD, captcha: CAPTCHA, remember: true }),
  });
  const body = (await response.json()) as { success: boolean; msg: string; data: { token: string } | null };
  if (!body.success || !body.data) throw new Error(`sign-in failed: ${response.status} ${body.msg}`);
  return body.data.token;
}

export async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { success: boolean; msg: string; data: T };
  if (!body.success) throw new Error(`GET ${url}: ${response.status} ${body.msg}`);
  return body.data;
}
