import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TRUST_MS } from '../src/db/change-feed';
import { call, login, signIn } from './live/client';
import { scratchDatabase } from './live/postgres';
import { CAPTCHA } from './live/server-process';
import { runFromSource, spawnFromSource } from './live/source-process';

/**
 * `npm run admin:reset` as an operator uses it when the only super admin cannot sign in: on the
 * embedded database it refuses while the server holds the data folder; stopped, it gives the
 * account a new password that the next start signs in with (and must change), the old one no
 * longer does, and the audit log's chain still holds with the reset in it.
 */
let dataDir: string;
let server: ChildProcess | null = null;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-reset-'));
});
afterEach(() => {
  server?.kill('SIGKILL');
  server = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of the server and the tools: the embedded database in dataDir, or `databaseUrl`. */
const ENV = (databaseUrl?: string) => ({
  NODE_ENV: 'test',
  CAPTCHA_TEST_ANSWER: CAPTCHA,
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'silent',
  ...(databaseUrl && { DATABASE_URL: databaseUrl }),
});
const reset = (args: string[], databaseUrl?: string) => runFromSource('server/src/modules/admin/reset-cli.ts', args, ENV(databaseUrl));

/** Starts the server from its source; resolves with its URL and what its banner printed. */
function start(databaseUrl?: string): Promise<{ url: string; stdout: string }> {
  const child = spawnFromSource('server/src/main.ts', [], ENV(databaseUrl));
  server = child;
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /已启动：(http:\/\/\S+)/.exec(stdout)?.[1];
      // The banner's last line is the password's.
      if (url && /密码：.*\n/.test(stdout)) resolve({ url, stdout });
    });
    child.on('exit', (status) => reject(new Error(`the server stopped (${status}): ${stdout}${stderr}`)));
  });
}

async function stop() {
  const child = server!;
  server = null;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

it('resets a locked-out super admin’s sign-in with the server stopped, and the next start signs in with the new password', async () => {
  // A data folder the server never started on (a mistyped DATA_DIR) has no admins to reset.
  const empty = reset(['admin']);
  expect(empty.status).toBe(1);
  expect(empty.stderr.trim()).toBe('这个数据库里还没有 coderstation 的数据表（服务器从未在它上面启动过），没有可重置的管理员。');

  const first = await start();
  const initial = /初始密码：(\S+)（/.exec(first.stdout)?.[1];
  expect(initial).toBeDefined();
  const oldToken = await signIn(first.url, 'admin', initial);
  // The password the first start printed is to be changed at the first sign-in, as every generated one.
  expect((await call(first.url, 'GET', '/api/admin/whoami', { token: oldToken })).body).toMatchObject({
    data: { mustChangePassword: true },
  });

  // The embedded database has one process: the running server's. Nothing is changed meanwhile.
  const refused = reset(['admin']);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain(`数据目录 ${dataDir} 正被另一个服务进程`);
  expect((await call(first.url, 'GET', '/api/admin/whoami', { token: oldToken })).status).toBe(200);
  await stop();

  const unknown = reset(['admni']);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr.trim()).toBe('没有账号为 admni 的管理员。超级管理员：admin');

  const done = reset(['admin']);
  expect(done.stderr).toBe('');
  expect(done.status).toBe(0);
  expect(done.stdout).toContain('管理员 admin 的登录已重置：两步验证原本未开启，结束了 1 个会话。');
  const password = /新密码（[^）]*）：(\S+)/.exec(done.stdout)?.[1];
  expect(password).toBeDefined();
  expect(password).not.toBe(initial);

  const again = await start();
  expect((await call(again.url, 'GET', '/api/admin/whoami', { token: oldToken })).status).toBe(401);
  expect((await login(again.url, 'admin', initial)).status).toBe(401);
  const token = await signIn(again.url, 'admin', password);
  const whoami = await call(again.url, 'GET', '/api/admin/whoami', { token });
  expect(whoami.status).toBe(200);
  expect(whoami.body).toMatchObject({ data: { loginId: 'admin', mustChangePassword: true } });
  await stop();

  // The reset is in the log, and the log's hash chain is whole with it.
  const verified = runFromSource('server/src/modules/audit/verify-cli.ts', [], ENV());
  expect(verified.stdout).toMatch(/^日志链完整：核对了 \d+ 条记录。/);
  expect(verified.status).toBe(0);
}, 180_000);

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

onPostgres(
  'on PostgreSQL, resets while the server runs, and the running server refuses the old session',
  async () => {
    const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'cs_reset');
    try {
      const running = await start(scratch.url);
      const initial = /初始密码：(\S+)（/.exec(running.stdout)?.[1];
      const oldToken = await signIn(running.url, 'admin', initial);
      expect((await call(running.url, 'GET', '/api/admin/whoami', { token: oldToken })).status).toBe(200);

      const done = reset(['admin'], scratch.url);
      expect(done.status).toBe(0);
      const password = /新密码（[^）]*）：(\S+)/.exec(done.stdout)?.[1];
      // The server keeps sessions in memory; the database's notification ends this one there too,
      // within the bound the change feed keeps (db/change-feed.ts).
      await new Promise((resolve) => setTimeout(resolve, TRUST_MS));
      expect((await call(running.url, 'GET', '/api/admin/whoami', { token: oldToken })).status).toBe(401);
      expect((await login(running.url, 'admin', initial)).status).toBe(401);
      expect(await signIn(running.url, 'admin', password)).toEqual(expect.any(String));
      await stop();
    } finally {
      await scratch.drop();
    }
  },
  180_000,
);
