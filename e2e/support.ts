import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '..');
export const CAPTCHA = 'e2e9';
export const ADMIN_LOGIN = 'admin';
export const ADMIN_PASSWORD = 'e2e-admin-password';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** The built server on an empty data folder, on a free loopback port; it dies with the tests. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const bundle = path.join(ROOT, 'server/dist/main.cjs');
  if (!fs.existsSync(bundle) || !fs.existsSync(path.join(ROOT, 'dist/index.html'))) {
    throw new Error('the app is not built: run `npm run test:e2e`, which builds it first');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-e2e-'));
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [bundle], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      CAPTCHA_TEST_ANSWER: CAPTCHA,
      ADMIN_LOGIN_ID: ADMIN_LOGIN,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    output: () => log,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    // playwright gives every launch a fresh temporary profile of its own.
    args: CHROMIUM_FLAGS,
  });
}

/** Fills the login card and submits it. */
export async function signIn(page: Page, baseUrl: string, loginId: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByPlaceholder('请输入账号').fill(loginId);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByPlaceholder('请输入验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
}

/** antd shows messages in .ant-message; waits for one with this text. */
export async function expectMessage(page: Page, text: string) {
  await page.locator('.ant-message').getByText(text).first().waitFor({ timeout: 10_000 });
}

/**
 * Records every antd message text the page shows, across navigations: a message shown just before
 * the app navigates away (history.back on /login) is gone before a locator could see it.
 */
export async function recordMessages(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__e2eMessage', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    const report = (window as unknown as { __e2eMessage: (text: string) => void }).__e2eMessage;
    new MutationObserver(() => {
      document.querySelectorAll('.ant-message-notice').forEach((notice) => {
        const element = notice as HTMLElement;
        if (element.dataset.e2eSeen) return;
        element.dataset.e2eSeen = '1';
        report(element.textContent ?? '');
      });
    }).observe(document, { childList: true, subtree: true });
  });
  return seen;
}

/** A signed-in API client for setting up records a browser test then works on. */
export interface ApiClient {
  token: string;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function apiSignIn(baseUrl: string, loginId: string, password: string): Promise<ApiClient> {
  const captcha = await fetch(`${baseUrl}/res/captcha`);
  const cookie = (captcha.headers.get('set-cookie') ?? '').split(';')[0];
  const login = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ loginId, loginPwd: password, captcha: CAPTCHA, remember: false }),
  });
  const answer = (await login.json()) as { success: boolean; msg: string; data: { token: string } };
  if (!answer.success) throw new Error(`API sign-in as ${loginId} failed: ${answer.msg}`);
  const token = answer.data.token;
  return {
    token,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = (await response.json()) as { success: boolean; msg: string; data: T };
      if (!envelope.success) throw new Error(`${method} ${path} answered ${response.status}: ${envelope.msg}`);
      return envelope.data;
    },
  };
}
