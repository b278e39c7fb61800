import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/client';
import { call, CLIENT_TIMEOUT_MS, signIn, type Answer } from '../live/client';
import { describeSample, load, type Sample } from '../live/load';
import { consistencyProblems } from '../live/consistency';
import { PostgresCluster } from '../live/postgres';
import { ServerProcess, sleep } from '../live/server-process';

/**
 * PostgreSQL goes away under load and comes back: while it is away every call is answered 503
 * (the envelope) within the front end's 3000 ms time-out, and afterwards the same server process
 * works again, with no restart.
 */

let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;
let databaseUrl: string;

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  databaseUrl = await cluster.createDatabase('restarted');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-pgrestart-'));
  server = await ServerProcess.start({ dataDir, databaseUrl });
}, 180_000);

afterAll(async () => {
  await server?.terminate();
  await cluster?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it.each([
  ['a crash (pg_ctl stop -m immediate)', 'immediate' as const],
  ['a clean restart (pg_ctl stop -m fast)', 'fast' as const],
])(
  '%s: 503 within 3000 ms while it is down, served again once it is back',
  async (_label, mode) => {
    const token = await signIn(server.url);
    const type = await call(server.url, 'POST', '/api/type', { token, body: { typeName: `重启-${mode}` } });
    expect(type.status).toBe(201);

    const running = load(server.url, token, type.body.data._id);
    await sleep(1000);
    // Hold the type's row so that the book creations wait inside their transactions: the stop then
    // cuts connections that are checked out of the pool, mid-transaction.
    const blocking = Date.now();
    const blocker = new Client({ connectionString: databaseUrl });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from types where id = $1 for update', [type.body.data._id]);
    const blockedAt = Date.now();
    await sleep(300);
    const stopping = Date.now();
    await cluster.stop(mode);
    const downAt = Date.now();
    await blocker.end().catch(() => undefined);
    await sleep(2500);
    const starting = Date.now();
    await cluster.start();
    const upAt = Date.now();
    await sleep(3000);
    await running.stop();

    const { samples } = running;
    const broken = samples.filter((s) => {
      if ('error' in s.answer) return true;
      const { status, body, ms } = s.answer;
      if (ms >= CLIENT_TIMEOUT_MS) return true;
      if (status === 503)
        return (
          JSON.stringify(body) !==
          JSON.stringify({ success: false, code: 503, msg: '服务暂时不可用，请稍后重试', errorCode: 'UNAVAILABLE', data: null })
        );
      return status !== 200 && status !== 201;
    });
    if (!server.running) throw new Error(`the server died:\n${server.output().slice(-5000)}`);
    expect(broken.map(describeSample)).toEqual([]);

    const before = samples.filter((s) => 'ms' in s.answer && s.sentAt + s.answer.ms < blocking);
    const cutMidTransaction = samples.filter((s) => s.what === 'create book' && s.sentAt > blockedAt && s.sentAt < stopping);
    const during = samples.filter((s) => s.sentAt > downAt && s.sentAt < starting);
    // The pool may still be handing out its first new connections just as the database comes up.
    const after = samples.filter((s) => s.sentAt > upAt + 500);
    const status = (s: Sample) => (s.answer as Answer).status;
    expect(before.length).toBeGreaterThan(10);
    expect(before.filter((s) => status(s) >= 300).map(describeSample)).toEqual([]);
    expect(cutMidTransaction.length).toBeGreaterThan(0);
    expect(cutMidTransaction.filter((s) => status(s) !== 503).map(describeSample)).toEqual([]);
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((s) => status(s) !== 503).map(describeSample)).toEqual([]);
    expect(after.length).toBeGreaterThan(10);
    expect(after.filter((s) => status(s) >= 300).map(describeSample)).toEqual([]);

    const slowest = Math.max(...during.map((s) => (s.answer as Answer).ms));
    console.log(
      `PostgreSQL ${mode} stop: ${samples.length} calls, ${during.length} while down (all 503, slowest ${Math.round(slowest)} ms), ${after.length} after (all 2xx), no server restart`,
    );
  },
  60_000,
);

it('the counters hold after the restarts', async () => {
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    expect(await consistencyProblems(database.db)).toEqual([]);
  } finally {
    await database.close();
  }
});
