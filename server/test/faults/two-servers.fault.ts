import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { call, captchaCookie, login, signIn } from '../live/client';
import { PostgresCluster } from '../live/postgres';
import { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA, ServerProcess, sleep } from '../live/server-process';

/**
 * Two server processes on one PostgreSQL behave as one: captchas, sessions and the login throttle
 * live in the database. Each process keeps the sessions it checked in memory, and hears of every
 * change to them from the other through LISTEN/NOTIFY (server/src/db/change-feed.ts): a session
 * revoked on one is refused by the other within a bounded delay (≤ 1 s; measured below), and
 * at once while a process is not listening.
 */

const LISTENER = 'coder-station session listener';
// The bound docs/architecture.md gives for a revocation to reach every process.
const REVOCATION_BOUND_MS = 1000;

let cluster: PostgresCluster;
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  databaseUrl = await cluster.createDatabase('shared');
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-two-'));
    dirs.push(dir);
    return dir;
  };
  // Both start at once on the empty database: migrations and the first admin must not collide.
  [a, b] = await Promise.all([
    ServerProcess.start({ dataDir: dataDir(), databaseUrl }),
    ServerProcess.start({ dataDir: dataDir(), databaseUrl }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.terminate(), b?.terminate()]);
  await cluster?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('both started on the empty database with one first admin and one token secret', async () => {
  const token = await signIn(a.url);
  const admins = await call(b.url, 'GET', '/api/admin', { token });
  expect(admins.status).toBe(200);
  expect(admins.body.data.map((admin: { loginId: string }) => admin.loginId)).toEqual([ADMIN_LOGIN]);
});

it('a captcha from one server is accepted by the other, once', async () => {
  const answer = await login(b.url, ADMIN_LOGIN, ADMIN_PASSWORD, a.url);
  expect(answer.status).toBe(200);

  const cookie = await captchaCookie(a.url);
  const body = { loginId: ADMIN_LOGIN, loginPwd: ADMIN_PASSWORD, captcha: CAPTCHA, remember: false };
  expect((await call(b.url, 'POST', '/api/admin/login', { headers: { cookie }, body })).status).toBe(200);
  const reused = await call(a.url, 'POST', '/api/admin/login', { headers: { cookie }, body });
  expect(reused.status).toBe(400);
  expect(reused.body.msg).toBe('验证码错误');
});

// Issue 15: the other server keeps the session it checked in memory, so "at once" became "within
// REVOCATION_BOUND_MS" (measured in the test after the next); the answer is the same.
it('logout on one server kills the token on the other', async () => {
  const token = await signIn(a.url);
  expect((await call(b.url, 'GET', '/api/admin/whoami', { token })).status).toBe(200);
  expect((await call(a.url, 'POST', '/api/admin/logout', { token })).status).toBe(200);
  const revoked = performance.now();
  let after = await call(b.url, 'GET', '/api/admin/whoami', { token });
  while (after.status === 200 && performance.now() - revoked < REVOCATION_BOUND_MS) {
    after = await call(b.url, 'GET', '/api/admin/whoami', { token });
  }
  expect(after.status).toBe(401);
  expect(after.body).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', data: null, errorCode: 'SESSION_ENDED' });
  expect((await call(b.url, 'GET', '/api/type', { token })).status).toBe(401);
});

const whoami = (server: ServerProcess, token: string) => call(server.url, 'GET', '/api/admin/whoami', { token });

async function onCluster<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: cluster.url() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const listeners = () =>
  onCluster(
    async (client) =>
      (
        await client.query('select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = $2', [
          'shared',
          LISTENER,
        ])
      ).rows[0].n as number,
  );

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Signs in on `a`, lets `b` check (and remember) the token, logs out on `a`: how long until `b` refuses it. */
async function revocationDelay(): Promise<number> {
  const token = await signIn(a.url);
  for (let i = 0; i < 3; i++) expect((await whoami(b, token)).status).toBe(200);
  expect((await call(a.url, 'POST', '/api/admin/logout', { token })).status).toBe(200);
  const revoked = performance.now();
  for (;;) {
    const answer = await whoami(b, token);
    if (answer.status === 401) return performance.now() - revoked;
    expect(answer.status).toBe(200);
    if (performance.now() - revoked > 5000) throw new Error('the revoked token was still accepted after 5 s');
  }
}

it(`a session revoked on one server is refused by the other within ${REVOCATION_BOUND_MS} ms`, async () => {
  await until(async () => (await listeners()) === 2, 10_000, 'both servers listening');
  const delays: number[] = [];
  for (let i = 0; i < 10; i++) delays.push(await revocationDelay());
  console.log(`revocation seen by the other server after ${delays.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  expect(Math.max(...delays)).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
});

it('with its listening connection killed, a server checks every session in the database and refuses a revoked one at once', async () => {
  await until(async () => (await listeners()) === 2, 10_000, 'both servers listening');
  const revoked = await signIn(a.url);
  const kept = await signIn(a.url);
  for (const token of [revoked, kept]) for (let i = 0; i < 3; i++) expect((await whoami(b, token)).status).toBe(200);
  try {
    // The listeners cannot come back while nobody may connect; the servers' pools keep theirs.
    await onCluster(async (client) => {
      await client.query('alter database shared allow_connections false');
      const killed = await client.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        ['shared', LISTENER],
      );
      expect(killed.rowCount).toBe(2);
    });
    await until(() => b.output().includes('会话变更通知中断'), 5000, 'the server noticing its listener is gone');
    expect((await call(a.url, 'POST', '/api/admin/logout', { token: revoked })).status).toBe(200);
    expect((await whoami(b, revoked)).status).toBe(401);
    expect((await whoami(b, kept)).status).toBe(200);
  } finally {
    await onCluster((client) => client.query('alter database shared allow_connections true'));
  }
  // Back: listening again, and revocations reach the other server within the bound again.
  await until(async () => (await listeners()) === 2, 15_000, 'both servers listening again');
  await until(() => b.output().includes('会话变更通知已恢复'), 5000, 'the server saying its listener is back');
  expect(await revocationDelay()).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
});

// Last: it locks this address out of signing in for the rest of the file.
it('failed logins spread over both servers count against one throttle', async () => {
  const guess = (server: ServerProcess) => login(server.url, 'throttled-admin', 'wrong-password');
  for (let i = 0; i < 5; i++) {
    const answer = await guess(i % 2 ? b : a);
    expect(answer.status).toBe(401);
    expect(answer.body.msg).toBe('账号或密码不正确');
  }
  for (const server of [a, b]) {
    const answer = await guess(server);
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ success: false, code: 429, msg: '登录尝试过于频繁，请稍后再试', errorCode: 'RATE_LIMITED', data: null });
  }
});
