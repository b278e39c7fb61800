import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ABANDON_MARGIN_MS, DEFAULT_TIMEOUTS } from '../../src/db/timeouts';
import { call, signIn, type Answer } from '../live/client';
import { describeSample, load, type Sample } from '../live/load';
import { PostgresCluster } from '../live/postgres';
import { ServerProcess, sleep } from '../live/server-process';

/**
 * PostgreSQL hangs (SIGSTOP to all its processes: connections stay open, nothing answers, so
 * nothing on the server's side fails by itself) under load: every call is answered 503 (the
 * envelope) within the configured bound on waiting for the database, none hangs, and once
 * PostgreSQL is continued the same server process serves again.
 */

// One statement on a connection that never answers is abandoned at statement + margin; a call
// that needs a new connection gives up at the acquire time-out. Plus the answer's own way back.
const BOUND_MS = Math.max(DEFAULT_TIMEOUTS.statementMs + ABANDON_MARGIN_MS, DEFAULT_TIMEOUTS.acquireMs);
const SLACK_MS = 400;

let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  const databaseUrl = await cluster.createDatabase('paused');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-pgpause-'));
  server = await ServerProcess.start({ dataDir, databaseUrl });
}, 180_000);

afterAll(async () => {
  await server?.terminate();
  await cluster?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it(`a hung PostgreSQL: every call answers 503 within ${BOUND_MS} ms, and service resumes when it is continued`, async () => {
  const token = await signIn(server.url);
  const type = await call(server.url, 'POST', '/api/type', { token, body: { typeName: '暂停测试' } });
  expect(type.status).toBe(201);

  const running = load(server.url, token, type.body.data._id);
  await sleep(1000);
  cluster.pause();
  // Taken once every process is stopped: a call sent before may still have been answered.
  const pausedAt = Date.now();
  let resumedAt: number;
  try {
    await sleep(6000);
  } finally {
    resumedAt = Date.now();
    cluster.resume();
  }
  await sleep(4000);
  await running.stop();
  if (!server.running) throw new Error(`the server died:\n${server.output().slice(-5000)}`);

  const { samples } = running;
  const status = (s: Sample) => (s.answer as Answer).status;
  const ms = (s: Sample) => (s.answer as Answer).ms;
  const unanswered = samples.filter((s) => 'error' in s.answer);
  expect(unanswered.map(describeSample)).toEqual([]);

  // Sent while it hung, and answered before it was continued: the database had no part in them.
  const during = samples.filter((s) => s.sentAt >= pausedAt && s.sentAt + ms(s) < resumedAt);
  expect(during.length).toBeGreaterThan(10);
  expect(during.filter((s) => status(s) !== 503).map(describeSample)).toEqual([]);
  const envelope = { success: false, code: 503, msg: '服务暂时不可用，请稍后重试', errorCode: 'UNAVAILABLE', data: null };
  expect(during.filter((s) => JSON.stringify((s.answer as Answer).body) !== JSON.stringify(envelope)).map(describeSample)).toEqual([]);
  expect(during.filter((s) => ms(s) > BOUND_MS + SLACK_MS).map(describeSample)).toEqual([]);
  // Nothing sent during the pause waited past the bound, even those still in flight at the resume.
  const straddling = samples.filter((s) => s.sentAt >= pausedAt && s.sentAt < resumedAt);
  expect(straddling.filter((s) => ms(s) > BOUND_MS + SLACK_MS).map(describeSample)).toEqual([]);

  const after = samples.filter((s) => s.sentAt > resumedAt + 1000);
  expect(after.length).toBeGreaterThan(10);
  expect(after.filter((s) => status(s) >= 300).map(describeSample)).toEqual([]);

  const slowest = Math.max(...during.map(ms));
  console.log(
    `PostgreSQL paused 6 s: ${samples.length} calls, ${during.length} answered while it hung (all 503, slowest ${Math.round(slowest)} ms, bound ${BOUND_MS} ms), ${after.length} after it was continued (all 2xx)`,
  );
}, 90_000);
