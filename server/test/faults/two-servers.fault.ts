import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, captchaCookie, login, signIn } from '../live/client';
import { PostgresCluster } from '../live/postgres';
import { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA, ServerProcess } from '../live/server-process';

/**
 * Two server processes on one PostgreSQL behave as one: captchas, sessions and the login throttle
 * live in the database, not in a process's memory.
 */

let cluster: PostgresCluster;
let a: ServerProcess;
let b: ServerProcess;
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  const databaseUrl = await cluster.createDatabase('shared');
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

it('logout on one server kills the token on the other', async () => {
  const token = await signIn(a.url);
  expect((await call(b.url, 'GET', '/api/admin/whoami', { token })).status).toBe(200);
  expect((await call(a.url, 'POST', '/api/admin/logout', { token })).status).toBe(200);
  const after = await call(b.url, 'GET', '/api/admin/whoami', { token });
  expect(after.status).toBe(401);
  expect(after.body).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', data: null });
  expect((await call(b.url, 'GET', '/api/type', { token })).status).toBe(401);
});

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
    expect(answer.body).toEqual({ success: false, code: 429, msg: '登录尝试过于频繁，请稍后再试', data: null });
  }
});
