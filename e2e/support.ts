import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { call, signIn as apiToken } from '../server/test/live/client';
import { scratchDatabase } from '../server/test/live/postgres';
import { CAPTCHA, embeddedDataDir, ROOT, ServerProcess } from '../server/test/live/server-process';

export { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA, ROOT } from '../server/test/live/server-process';

/** DEVELOPERS.md's flags for Debian's Chromium; the benchmark launches it the same way. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface RunningServer {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The built app and server on an empty data folder, on a free loopback port; it dies with the tests.
 * `args` go to the server (`--demo`: the demo content); `prepare` runs on the data folder before the
 * server starts (an import into a fresh install). With `E2E_DATABASE_URL` (a PostgreSQL server) the
 * server runs on a throwaway database there instead of the embedded one, so the screens are tried
 * on both databases.
 */
export async function startServer(
  env: Record<string, string> = {},
  { args = [], prepare }: { args?: string[]; prepare?: (dataDir: string) => void } = {},
): Promise<RunningServer> {
  const webRoot = path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) {
    throw new Error('the app is not built: run `npm run test:e2e`, which builds it first');
  }
  const postgres = process.env.E2E_DATABASE_URL ? await scratchDatabase(process.env.E2E_DATABASE_URL, 'cs_e2e') : null;
  // A copy of a first start's embedded database (migrated, its first super admin made) unless the
  // file prepares the folder itself: a first start from nothing costs each file about 4 s more.
  const dataDir = prepare || postgres ? fs.mkdtempSync(path.join(os.tmpdir(), 'cs-e2e-')) : await embeddedDataDir();
  prepare?.(dataDir);
  const server = await ServerProcess.start({ dataDir, webRoot, env, args, databaseUrl: postgres?.url });
  return {
    url: server.url,
    output: () => server.output(),
    async stop() {
      try {
        await server.terminate(10_000);
      } catch {
        await server.kill9();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
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

/**
 * The login card's captcha image. Its answer is tied to the cookie the image's call sets, so a
 * sign-in sent before the image shows (a person cannot type the captcha sooner) is refused with
 * 验证码错误: a test that signs in waits for it, and after a refusal for the next one.
 */
export const captchaImage = (page: Page) => page.getByRole('button', { name: '验证码，点击换一张' }).locator('img');

/** Fills the login card and submits it, once its captcha is shown. */
export async function signIn(page: Page, baseUrl: string, loginId: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await captchaImage(page).waitFor();
  await page.getByPlaceholder('请输入账号').fill(loginId);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByPlaceholder('请输入验证码').fill(CAPTCHA);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
}

/** What a watched page did lately, and the API calls it still waits on. */
interface PageLog {
  lines: string[];
  pending: Map<Request, number>;
  started: number;
}
const pageLogs = new WeakMap<Page, PageLog>();
const PAGE_LOG_LINES = 40;

const isApi = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
const callOf = (request: Request) => {
  const url = new URL(request.url());
  return `${request.method()} ${url.pathname}${url.search}`;
};

/**
 * Keeps the page's last API calls and answers, failed requests and console errors: a browser test
 * that times out on a loaded CI machine then says what the page did, not only what it did not show.
 */
export function watchPage(page: Page) {
  const log: PageLog = { lines: [], pending: new Map(), started: Date.now() };
  pageLogs.set(page, log);
  const add = (line: string) => {
    log.lines.push(`+${Date.now() - log.started} ms ${line}`);
    if (log.lines.length > PAGE_LOG_LINES) log.lines.shift();
  };
  page.on('request', (request) => {
    if (!isApi(request)) return;
    log.pending.set(request, Date.now());
    add(`-> ${callOf(request)}`);
  });
  page.on('response', (response) => {
    const request = response.request();
    if (!isApi(request)) return;
    log.pending.delete(request);
    add(`<- ${callOf(request)} ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    log.pending.delete(request);
    add(`failed ${callOf(request)}: ${request.failure()?.errorText}`);
  });
  page.on('console', (entry) => {
    if (entry.type() === 'error' || entry.type() === 'warning') add(`console ${entry.type()}: ${entry.text()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) add(`at ${frame.url()}`);
  });
}

/** The watched page's story for a failure message. */
function pageStory(page: Page): string[] {
  const log = pageLogs.get(page);
  if (!log) return ['(page not watched)'];
  const now = Date.now();
  const waiting = [...log.pending].map(([request, since]) => `  ${callOf(request)} for ${now - since} ms`);
  return [
    `the page lately (now +${now - log.started} ms):`,
    ...log.lines,
    'answers still awaited:',
    ...(waiting.length ? waiting : ['  none']),
  ];
}

/**
 * Waits for `step`; when it fails, the error says what the watched page did meanwhile: the
 * messages it shows, where it is, its last API calls and the answers it still awaits.
 */
export async function explained<T>(page: Page, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const shown = await page
      .locator('.ant-message')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      [`${(error as Error).message}`, `messages shown: ${JSON.stringify(shown)}`, `at ${page.url()}`, ...pageStory(page)].join('\n'),
    );
  }
}

/** antd shows messages in .ant-message; waits for one with this text. */
export async function expectMessage(page: Page, text: string) {
  await explained(page, page.locator('.ant-message').getByText(text).first().waitFor({ timeout: 10_000 }));
}

/**
 * Records every antd message text the page shows, across navigations: a message shown just before
 * the app navigates away (history.back on /login) is gone before a locator could see it.
 */
export async function recordMessages(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__e2eMessage', (text: string) => seen.push(text));
  const observe = () => {
    const report = (window as unknown as { __e2eMessage: (text: string) => void }).__e2eMessage;
    new MutationObserver(() => {
      document.querySelectorAll('.ant-message-notice').forEach((notice) => {
        const element = notice as HTMLElement;
        if (element.dataset.e2eSeen) return;
        element.dataset.e2eSeen = '1';
        report(element.textContent ?? '');
      });
    }).observe(document, { childList: true, subtree: true });
  };
  // Every document the page loads from now on, and the one it shows now.
  await page.addInitScript(observe);
  await page.evaluate(observe);
  return seen;
}

/** A signed-in API client for setting up records a browser test then works on. */
export interface ApiClient {
  token: string;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function apiSignIn(baseUrl: string, loginId: string, password: string): Promise<ApiClient> {
  const token = await apiToken(baseUrl, loginId, password);
  return {
    token,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const answer = await call(baseUrl, method, path, { token, body });
      if (answer.body?.success !== true) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body?.msg}`);
      return answer.body.data as T;
    },
  };
}

/** One request a page made, as Chromium's DevTools protocol tells it. */
export interface NetworkEntry {
  url: string;
  /** DevTools' resource type: Document, Script, Stylesheet, XHR, Fetch, Image, ... */
  type: string;
  /** When it was sent, epoch milliseconds (minus the page's performance.timeOrigin: since navigation). */
  startedAt: number;
  /** Answered from the browser's memory or disk cache: nothing was sent to the server. */
  fromCache: boolean;
  status: number;
  /** Bytes received from the network for it, headers included (0 from the cache). */
  bytes: number;
}

export interface NetworkLog {
  entries: NetworkEntry[];
  /** Scripts and style sheets that went to the server (a 304 counts: it is a request). */
  sentAssets(): NetworkEntry[];
  stop(): Promise<void>;
}

/**
 * Records every request of `page` from now on through a DevTools session of its own, which sees
 * what playwright's events do not: whether an answer came from the cache without any request.
 */
export async function recordNetwork(page: Page): Promise<NetworkLog> {
  const session = await page.context().newCDPSession(page);
  const byId = new Map<string, NetworkEntry>();
  const entries: NetworkEntry[] = [];
  session.on('Network.requestWillBeSent', (event) => {
    // A redirect reuses the id: the earlier hop stays as it was recorded.
    const entry: NetworkEntry = {
      url: event.request.url,
      type: event.type ?? 'Other',
      startedAt: event.wallTime * 1000,
      fromCache: false,
      status: 0,
      bytes: 0,
    };
    byId.set(event.requestId, entry);
    entries.push(entry);
  });
  session.on('Network.requestServedFromCache', (event) => {
    const entry = byId.get(event.requestId);
    if (entry) entry.fromCache = true;
  });
  session.on('Network.responseReceived', (event) => {
    const entry = byId.get(event.requestId);
    if (!entry) return;
    entry.status = event.response.status;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache || event.response.fromServiceWorker) entry.fromCache = true;
  });
  session.on('Network.loadingFinished', (event) => {
    const entry = byId.get(event.requestId);
    if (entry && !entry.fromCache) entry.bytes = event.encodedDataLength;
  });
  await session.send('Network.enable');
  return {
    entries,
    sentAssets: () => entries.filter((entry) => (entry.type === 'Script' || entry.type === 'Stylesheet') && !entry.fromCache),
    async stop() {
      await session.detach().catch(() => undefined);
    },
  };
}
