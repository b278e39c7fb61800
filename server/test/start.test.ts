import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { signIn } from './live/client';
import { CAPTCHA } from './live/server-process';
import { spawnFromSource } from './live/source-process';

/**
 * The first start as an operator meets it when something is in the way: the port is taken. The
 * start stops with a message saying so, without a stack, and the first super admin it made on
 * the way is not locked out: its generated password is shown then, since the banner never is.
 */
let dataDir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-start-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server from its source; resolves with what it printed once it exits or prints its banner. */
function start(port: number): Promise<{ status: number | null; stdout: string; stderr: string; url?: string }> {
  const child = spawnFromSource('server/src/main.ts', [], {
    NODE_ENV: 'test',
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /已启动：(http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve({ status: null, stdout, stderr, url });
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A port someone else holds, on the address the server listens on. */
async function takenPort(): Promise<net.Server> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return holder;
}

it('a taken port stops the first start with a message, shows the password it made, and the next start signs in with it', async () => {
  const holder = await takenPort();
  const port = (holder.address() as net.AddressInfo).port;
  let failed: Awaited<ReturnType<typeof start>>;
  try {
    failed = await start(port);
  } finally {
    holder.close();
  }
  expect(failed.status).toBe(1);
  expect(failed.stdout).not.toContain('已启动');
  expect(failed.stderr).toContain(`端口 ${port} 已被占用（127.0.0.1:${port}）：请先停止占用它的程序，或用 PORT 换一个端口。`);
  expect(failed.stderr).not.toMatch(/\n\s+at /);
  const password = /超级管理员账号 admin 已在这次启动中创建，初始密码：(\S+)（只显示这一次/.exec(failed.stderr)?.[1];
  expect(password).toBeDefined();

  // The data folder was given back, and the account made then is the one that signs in now.
  const started = await start(0);
  expect(started.url).toBeDefined();
  expect(started.stdout).toContain('密码：首次启动时设置的密码');
  // At the loopback address, where no passkey can work, the banner names the address where one does.
  const startedPort = new URL(started.url!).port;
  expect(started.stdout).toContain(`通行密钥登录请用 http://localhost:${startedPort} 打开（浏览器不接受 IP 地址）`);
  expect(await signIn(started.url!, 'admin', password)).toEqual(expect.any(String));
}, 120_000);
