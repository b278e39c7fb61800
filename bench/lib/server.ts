import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerProcess } from '../../server/test/live/server-process';
import { ROOT } from './options';

export { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA } from '../../server/test/live/server-process';
export { signIn } from '../../server/test/live/client';

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
export async function startServer(
  database: { DATABASE_URL: string } | { DATA_DIR: string },
  logFile: string,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  // On PostgreSQL the data folder holds nothing but the lock; it still has to exist.
  const scratch = 'DATA_DIR' in database ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bench-'));
  const dataDir = scratch ?? (database as { DATA_DIR: string }).DATA_DIR;
  const server = await ServerProcess.spawn({
    dataDir,
    databaseUrl: 'DATABASE_URL' in database ? database.DATABASE_URL : undefined,
    webRoot: path.join(ROOT, 'dist'),
    logFile,
    // Anything but production (CAPTCHA_TEST_ANSWER is refused there); the product's log level.
    env: { NODE_ENV: 'benchmark', LOG_LEVEL: 'info', ...env },
  });
  await server.ready(120_000);
  const startupMs = performance.now() - server.spawnedAt;

  return {
    url: server.url,
    pid: server.pid,
    startupMs,
    rssMb: () => server.rssBytes() / (1024 * 1024),
    async stop() {
      try {
        await server.terminate(15_000);
      } catch {
        await server.kill9();
      }
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
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

export async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { success: boolean; msg: string; data: T };
  if (!body.success) throw new Error(`GET ${url}: ${response.status} ${body.msg}`);
  return body.data;
}
