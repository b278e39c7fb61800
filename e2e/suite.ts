/**
 * The jest side of the browser tests: the hooks every file needs and small helpers. Kept apart
 * from support.ts, which the benchmark imports too and which must not need jest's globals.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  type ApiClient,
  apiSignIn,
  explained,
  launchBrowser,
  type RunningServer,
  signIn,
  startServer,
  watchPage,
} from './support';

/** What a browser test file works with: set up once per file, a fresh context and page per test. */
export interface BrowserSuite {
  server: RunningServer;
  browser: Browser;
  /** The first super admin, signed in through the API. */
  root: ApiClient;
  context: BrowserContext;
  page: Page;
}

export interface BrowserSuiteOptions {
  /** For startServer: the server's environment, its arguments and a step on its data folder. */
  env?: Record<string, string>;
  args?: string[];
  prepare?: (dataDir: string) => void;
  /** Runs once the server answers, with the root admin's client: the records the tests work on. */
  setup?: (root: ApiClient) => Promise<void>;
  setupTimeoutMs?: number;
  /** Each test's browser context, beside the Chinese locale and a 1440×900 window. */
  context?: BrowserContextOptions;
  /** How long a step (a locator, a navigation) may wait: 15 s unless given. */
  stepTimeoutMs?: number;
  /** Each test starts signed in as the first super admin, on /home. */
  signedIn?: boolean;
  /** `false`: no API client for the first super admin (after an import there is none). */
  root?: boolean;
}

/**
 * The hooks every browser test file needs: the built server on a fresh data folder and Chromium
 * for the file, a fresh context and page for each test (a step that cannot happen fails on its own
 * locator, well before the test's time runs out), everything closed afterwards. `use` receives
 * the suite whenever it changes, so that a file keeps its own `server`, `page` and `root` names.
 */
export function browserSuite(options: BrowserSuiteOptions, use: (suite: BrowserSuite) => void) {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startServer(options.env, { args: options.args, prepare: options.prepare });
    suite.browser = await launchBrowser();
    if (options.root !== false) {
      suite.root = await apiSignIn(suite.server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
      await options.setup?.(suite.root);
    }
    use(suite);
  }, options.setupTimeoutMs ?? 120_000);

  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });

  beforeEach(async () => {
    suite.context = await suite.browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 }, ...options.context });
    suite.page = await suite.context.newPage();
    watchPage(suite.page);
    suite.page.setDefaultTimeout(options.stepTimeoutMs ?? 15_000);
    use(suite);
    if (options.signedIn) {
      await signIn(suite.page, suite.server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
      await explained(suite.page, suite.page.waitForURL(/\/home$/));
    }
  });

  afterEach(async () => {
    await suite.context?.close();
  });
}

/** Retries `read` until it gives `expected` (the screens update after their calls return). */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last: T = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    last = await read();
  }
  expect(last).toBe(expected);
}

/** antd puts a space between two Chinese characters on a button: 「查 询」. */
export const button = (scope: Page | Locator, text: string) =>
  scope.getByRole('button', { name: new RegExp(`^${text.split('').join('\\s*')}$`) });

/** A record as the API answers it when made: its id. */
export interface Saved {
  _id: string;
}
