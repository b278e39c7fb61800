import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, type NetworkEntry, recordNetwork } from '../../e2e/support';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface PageLoad {
  /** Milliseconds from navigation start until the page is usable. */
  usableMs: number;
  /** gzip -9 bytes of the JavaScript and CSS requested before that moment. */
  jsGzip: number;
  cssGzip: number;
  files: number;
  /** When the requests named in `watch` were first sent, in milliseconds after navigation start. */
  sentAtMs: Record<string, number>;
  /** The same address opened again in the same browser profile, with the cache the first visit left. */
  repeat: RepeatVisit;
}

export interface RepeatVisit {
  usableMs: number;
  /** Scripts and style sheets that went to the server (a 304 is one), and the bytes they took. */
  assetRequests: number;
  assetBytes: number;
  /** Scripts and style sheets the page took from the cache without asking. */
  assetsFromCache: number;
}

interface Loaded {
  type: 'script' | 'stylesheet';
  startedAt: number;
  body: Promise<Buffer | null>;
}

interface Visit {
  usableMs: number;
  origin: number;
  loaded: Loaded[];
  network: NetworkEntry[];
}

/** Opens `url` in a new tab of `context` and waits until `usable` holds in the page. */
async function visit(context: BrowserContext, url: string, usable: (page: Page) => Promise<number>): Promise<Visit> {
  const page = await context.newPage();
  try {
    const network = await recordNetwork(page);
    const loaded: Loaded[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      loaded.push({ type, startedAt: response.request().timing().startTime, body: response.body().catch(() => null) });
    });
    await page.goto(url);
    const usableMs = await usable(page);
    const origin = await page.evaluate(() => performance.timeOrigin);
    // The bodies are read while the page is still open.
    await Promise.all(loaded.map((entry) => entry.body));
    await network.stop();
    return { usableMs, origin, loaded, network: network.entries };
  } finally {
    await page.close();
  }
}

/**
 * Opens `url` in a fresh browser context (its own empty cache) and waits until `usable` holds in
 * the page; counts the scripts and style sheets the page had asked for by then. Then opens it
 * again in a new tab of the same context, as an administrator coming back, and counts what that
 * second visit still fetched.
 */
async function load(
  browser: Browser,
  url: string,
  usable: (page: Page) => Promise<number>,
  token: string | null,
  watch: Record<string, RegExp> = {},
): Promise<PageLoad> {
  const context = await browser.newContext();
  try {
    if (token) await context.addInitScript((value) => localStorage.setItem('adminToken', value), token);
    const first = await visit(context, url, usable);
    const before = first.loaded.filter((entry) => entry.startedAt <= first.origin + first.usableMs);
    let jsGzip = 0;
    let cssGzip = 0;
    for (const entry of before) {
      const body = await entry.body;
      const size = body ? zlib.gzipSync(body, { level: 9 }).length : 0;
      if (entry.type === 'script') jsGzip += size;
      else cssGzip += size;
    }
    const sentAtMs: Record<string, number> = {};
    for (const [name, pattern] of Object.entries(watch)) {
      const entry = first.network.find((e) => pattern.test(new URL(e.url).pathname + new URL(e.url).search));
      if (entry) sentAtMs[name] = entry.startedAt - first.origin;
    }

    const second = await visit(context, url, usable);
    const assets = second.network.filter((entry) => entry.type === 'Script' || entry.type === 'Stylesheet');
    const sent = assets.filter((entry) => !entry.fromCache);
    const repeat: RepeatVisit = {
      usableMs: second.usableMs,
      assetRequests: sent.length,
      assetBytes: sent.reduce((sum, entry) => sum + entry.bytes, 0),
      assetsFromCache: assets.length - sent.length,
    };
    return { usableMs: first.usableMs, jsGzip, cssGzip, files: before.length, sentAtMs, repeat };
  } finally {
    await context.close();
  }
}

/** The login card can be filled in and sent: the account field and the 登录 button are on screen. */
function loginUsable(page: Page): Promise<number> {
  return page
    .waitForFunction(
      () => {
        const input = document.querySelector<HTMLInputElement>('input[placeholder="请输入账号"]');
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.replace(/\s/g, '') === '登录');
        return input && !input.disabled && button && button.getBoundingClientRect().height > 0 ? performance.now() : 0;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    )
    .then((handle) => handle.jsonValue());
}

/** The user table shows rows from the server. */
function userRowsShown(page: Page): Promise<number> {
  return page
    .waitForFunction(() => (document.querySelector('.ant-table-tbody tr.ant-table-row') ? performance.now() : 0), undefined, {
      polling: 'raf',
      timeout: 60_000,
    })
    .then((handle) => handle.jsonValue());
}

export async function measurePageLoads(baseUrl: string, token: string): Promise<{ login: PageLoad; userList: PageLoad; chromium: string }> {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_FLAGS });
  try {
    const login = await load(browser, `${baseUrl}/login`, loginUsable, null);
    const userList = await load(browser, `${baseUrl}/user/userList`, userRowsShown, token, {
      'page chunk': /^\/p__User__UserList\./,
      whoami: /^\/api\/admin\/whoami/,
      'list request': /^\/api\/user\?/,
    });
    return { login, userList, chromium: browser.version() };
  } finally {
    await browser.close();
  }
}

export interface LighthouseResult {
  score: number;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
}

/**
 * Lighthouse's desktop preset on a fresh Chromium (chrome-launcher gives each launch an empty
 * profile, so the cache is cold). A signed-in page needs the token in localStorage before the app
 * starts: playwright-core attaches to the same Chromium, writes it on /healthz (a JSON answer, so
 * none of the app's files are cached by that), and Lighthouse runs with its storage reset off so
 * that the token stays.
 */
export async function lighthouseRun(url: string, token: string | null): Promise<LighthouseResult> {
  const { launch } = await import('chrome-launcher');
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: CHROMIUM_FLAGS });
  try {
    if (token) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await browser.contexts()[0].newPage();
      await page.goto(`${new URL(url).origin}/healthz`);
      await page.evaluate((value) => localStorage.setItem('adminToken', value), token);
      await page.close();
      await browser.close();
    }
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
      desktopConfig,
    );
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.message}`);
    if (token && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`lighthouse on ${url} ended on ${lhr.finalDisplayedUrl}: the token was not taken`);
    }
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      tbtMs: lhr.audits['total-blocking-time'].numericValue ?? NaN,
      fcpMs: lhr.audits['first-contentful-paint'].numericValue ?? NaN,
      lcpMs: lhr.audits['largest-contentful-paint'].numericValue ?? NaN,
    };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse's runtime errors that say the recording failed and ask to run it again (the trace
 * lost its navigation start): the page is not at fault, and the run is made again, once.
 */
const RUN_AGAIN = /\((NO_NAVSTART|NO_TRACING_STARTED|NO_RESOURCE_REQUEST)\)/;

/** The median run of `times` by score (Lighthouse's own advice against single runs). */
export async function lighthouseMedian(url: string, token: string | null, times: number): Promise<LighthouseResult> {
  const runs: LighthouseResult[] = [];
  const run = () =>
    lighthouseRun(url, token).catch((error: unknown) => {
      if (!(error instanceof Error && RUN_AGAIN.test(error.message))) throw error;
      console.error(`  ${error.message}: running it again`);
      return lighthouseRun(url, token);
    });
  for (let i = 0; i < times; i++) runs.push(await run());
  runs.sort((a, b) => a.score - b.score || b.tbtMs - a.tbtMs);
  return runs[Math.floor(runs.length / 2)];
}
