import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, signIn } from '../live/client';
import { PostgresCluster } from '../live/postgres';
import { ServerProcess, sleep } from '../live/server-process';

/**
 * GET /readyz follows the database and the stop: 503 within 1 s of PostgreSQL stopping, 200
 * within 2 s of its return, 503 at once on SIGTERM while calls are still served for
 * STOP_DELAY_MS. PostgreSQL is a throwaway cluster of this test (initdb / pg_ctl, its own port).
 */

const STOP_DELAY_MS = 1500;
let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  const databaseUrl = await cluster.createDatabase('readiness');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-readiness-'));
  server = await ServerProcess.start({ dataDir, databaseUrl, env: { STOP_DELAY_MS: String(STOP_DELAY_MS) } });
}, 180_000);

afterAll(async () => {
  await server?.terminate();
  await cluster?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** /readyz's status, or 0 when it did not answer within a second. */
async function readyz(): Promise<number> {
  try {
    return (await call(server.url, 'GET', '/readyz', { timeoutMs: 1000 })).status;
  } catch {
    return 0;
  }
}

/** Polls /readyz every 50 ms until it answers `status`; resolves the time it did (Date.now()). */
async function until(status: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await readyz()) === status) return Date.now();
    if (Date.now() > deadline) throw new Error(`/readyz did not answer ${status} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

it.each([
  ['a crash (pg_ctl stop -m immediate)', 'immediate' as const],
  ['a clean stop (pg_ctl stop -m fast)', 'fast' as const],
])(
  '%s: /readyz 503 within 1 s, 200 within 2 s of its return; /livez 200 throughout',
  async (_label, mode) => {
    expect(await readyz()).toBe(200);
    await cluster.stop(mode);
    const downAt = Date.now();
    const notReadyAt = await until(503, 5000);
    expect((await call(server.url, 'GET', '/livez')).status).toBe(200);
    await sleep(500);
    await cluster.start();
    const upAt = Date.now();
    const readyAt = await until(200, 5000);
    console.log(`PostgreSQL ${mode} stop: /readyz 503 after ${notReadyAt - downAt} ms, 200 again ${readyAt - upAt} ms after its return`);
    expect(notReadyAt - downAt).toBeLessThanOrEqual(1000);
    expect(readyAt - upAt).toBeLessThanOrEqual(2000);
  },
  60_000,
);

it('a hung PostgreSQL (SIGSTOP): /readyz 503 within 1 s, 200 within 2 s of it being continued', async () => {
  expect(await until(200, 5000)).toBeGreaterThan(0);
  cluster.pause();
  const pausedAt = Date.now();
  let notReadyAt: number;
  try {
    notReadyAt = await until(503, 5000);
  } finally {
    cluster.resume();
  }
  const resumedAt = Date.now();
  const readyAt = await until(200, 5000);
  console.log(`PostgreSQL paused: /readyz 503 after ${notReadyAt - pausedAt} ms, 200 again ${readyAt - resumedAt} ms after it continued`);
  expect(notReadyAt - pausedAt).toBeLessThanOrEqual(1000);
  expect(readyAt - resumedAt).toBeLessThanOrEqual(2000);
}, 30_000);

it('on SIGTERM: /readyz 503 at once while calls are still served for STOP_DELAY_MS, then the process ends', async () => {
  const token = await signIn(server.url);
  expect(await readyz()).toBe(200);
  const signalledAt = Date.now();
  process.kill(server.pid, 'SIGTERM');
  const notReadyAt = await until(503, 1000);
  const served = await call(server.url, 'GET', '/api/user', { token });
  expect(served.status).toBe(200);
  expect(Date.now() - signalledAt).toBeLessThan(STOP_DELAY_MS);
  const exit = await server.exited;
  console.log(`SIGTERM: /readyz 503 after ${notReadyAt - signalledAt} ms, exit after ${Date.now() - signalledAt} ms`);
  expect(exit.code).toBe(0);
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(STOP_DELAY_MS);
}, 30_000);
