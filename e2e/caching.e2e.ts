import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  apiSignIn,
  launchBrowser,
  type NetworkEntry,
  recordNetwork,
  startServer,
  type RunningServer,
} from './support';

/*
 * Nothing downloaded twice (docs/api.md, caching): the built scripts and style sheets are named by
 * their content and kept by the browser for good, so an administrator coming back to a page in the
 * same browser fetches none of them, not even to ask whether they changed. The page itself and the
 * API are asked again every time.
 */

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let token: string;

beforeAll(async () => {
  // The demo content, so that the user list has rows to show.
  server = await startServer({}, { args: ['--demo'] });
  browser = await launchBrowser();
  token = (await apiSignIn(server.url, ADMIN_LOGIN, ADMIN_PASSWORD)).token;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(async () => {
  await context?.close();
});

const pathOf = (entry: NetworkEntry) => new URL(entry.url).pathname;

interface Seen {
  network: NetworkEntry[];
  /** Cache-Control of each answer that came from the server, by path. */
  cacheControl: Map<string, string | null>;
}

/** Opens `path` in a new tab of the context and waits until `ready` is on screen. */
async function visit(path: string, ready: (page: Page) => Promise<unknown>): Promise<Seen> {
  const page = await context.newPage();
  const cacheControl = new Map<string, string | null>();
  page.on('response', async (response) => {
    if (!response.fromServiceWorker()) cacheControl.set(new URL(response.url()).pathname, await response.headerValue('cache-control'));
  });
  const network = await recordNetwork(page);
  await page.goto(`${server.url}${path}`);
  await ready(page);
  await network.stop();
  await page.close();
  return { network: network.entries, cacheControl };
}

const isAsset = (entry: NetworkEntry) => entry.type === 'Script' || entry.type === 'Stylesheet';

function expectFirstVisitCacheable(first: Seen) {
  const assets = first.network.filter(isAsset);
  // The first visit fetched them (so the second visit's silence means something), each to be kept.
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((entry) => entry.fromCache)).toEqual([]);
  for (const entry of assets) {
    expect([pathOf(entry), first.cacheControl.get(pathOf(entry))]).toEqual([pathOf(entry), 'public, max-age=31536000, immutable']);
  }
  const page = first.network.find((entry) => entry.type === 'Document');
  expect(page && first.cacheControl.get(pathOf(page))).toBe('no-cache');
  return assets.length;
}

function expectSecondVisitFetchesNoAsset(second: Seen, firstAssets: number) {
  const assets = second.network.filter(isAsset);
  expect(assets.filter((entry) => !entry.fromCache).map(pathOf)).toEqual([]);
  expect(assets.reduce((sum, entry) => sum + entry.bytes, 0)).toBe(0);
  expect(assets.length).toBeGreaterThanOrEqual(firstAssets);
  // The page itself is still asked for, so a new build shows on the next visit.
  const page = second.network.find((entry) => entry.type === 'Document');
  expect(page?.fromCache).toBe(false);
}

describe('a second visit in the same browser', () => {
  it('/login takes every script and style sheet from the cache, asking the server for none', async () => {
    context = await browser.newContext({ locale: 'zh-CN' });
    const ready = (page: Page) => page.getByPlaceholder('请输入账号').waitFor();
    const first = await visit('/login', ready);
    const firstAssets = expectFirstVisitCacheable(first);
    expectSecondVisitFetchesNoAsset(await visit('/login', ready), firstAssets);
  });

  it('/user/userList shows fresh rows without fetching a script or style sheet', async () => {
    context = await browser.newContext({ locale: 'zh-CN' });
    await context.addInitScript((value) => localStorage.setItem('adminToken', value), token);
    const ready = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    const first = await visit('/user/userList', ready);
    const firstAssets = expectFirstVisitCacheable(first);
    const list = first.network.find((entry) => pathOf(entry) === '/api/user');
    expect(list && first.cacheControl.get('/api/user')).toBe('no-store');

    const second = await visit('/user/userList', ready);
    expectSecondVisitFetchesNoAsset(second, firstAssets);
    // The rows come from the server again, not from a cache.
    expect(second.network.filter((entry) => pathOf(entry) === '/api/user' && !entry.fromCache).length).toBeGreaterThan(0);
  });
});
