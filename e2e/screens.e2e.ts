import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  apiSignIn,
  CAPTCHA,
  launchBrowser,
  signIn,
  startServer,
  type ApiClient,
  type RunningServer,
} from './support';
import { visit as visitScreen, wrappedTexts as wrappedTextsOf } from './layout';

/*
 * The screens as an administrator sees them, on the demo content (`--demo`): layout at the widths
 * the back office is used at, messages across the sign-in, and accessibility checked by axe-core
 * (the engine Lighthouse's accessibility score is made of) on every kind of screen.
 */

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: ApiClient;
let ids: { user: string; book: string; interview: string; issue: string };

interface Paged<T> {
  data: T[];
}

beforeAll(async () => {
  server = await startServer({}, { args: ['--demo'] });
  browser = await launchBrowser();
  root = await apiSignIn(server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
  const first = async (path: string) => (await root.call<Paged<{ _id: string }>>('GET', `${path}?current=1&pageSize=1`)).data[0]._id;
  ids = {
    user: await first('/api/user'),
    book: await first('/api/book'),
    interview: await first('/api/interview'),
    issue: await first('/api/issue'),
  };
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openContext(width: number, height = 900) {
  // bypassCSP: the server's Content-Security-Policy allows no inline script, which is how axe-core
  // is put into the page.
  context = await browser.newContext({ locale: 'zh-CN', viewport: { width, height }, bypassCSP: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
}

afterEach(async () => {
  await context?.close();
});

async function signInAsRoot() {
  await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
  await page.waitForURL(/\/home$/);
}

/** Opens `path` in the signed-in app and waits until `ready` shows and no table is loading. */
const visit = (path: string, ready: string) => visitScreen(page, `${server.url}${path}`, ready);

const wrappedTexts = (selector: string) => wrappedTextsOf(page, selector);

describe('screens in a real browser', () => {
  for (const width of [1280, 1920]) {
    it(`lays out the issue list, the comment list and the issue detail on one line per header, action and label at ${width} px`, async () => {
      await openContext(width);
      await signInAsRoot();

      await visit('/issue', '问答列表');
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      expect(await wrappedTexts('.ant-table-thead th')).toEqual([]);
      expect(await wrappedTexts('.ant-table-tbody td:last-child')).toEqual([]);
      // Titles and descriptions are cut to one line, not wrapped.
      expect(await wrappedTexts('.ant-table-tbody td')).toEqual([]);

      await visit('/commentList', '评论列表');
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      expect(await wrappedTexts('.ant-table-thead th')).toEqual([]);
      expect(await wrappedTexts('.ant-table-tbody td')).toEqual([]);

      await visit(`/issue/${ids.issue}`, '问题描述');
      expect(await wrappedTexts('.ant-descriptions-item-label')).toEqual([]);
      expect(await wrappedTexts('.ant-table-thead th')).toEqual([]);
      // The description has the card's width, not a narrow cell beside the facts.
      const [description, card] = await Promise.all([
        page.locator('th.ant-descriptions-item-label', { hasText: '问题描述' }).locator('xpath=following-sibling::td[1]').boundingBox(),
        page.locator('.ant-card').first().boundingBox(),
      ]);
      expect(description!.width).toBeGreaterThan(card!.width * 0.7);
    });
  }

  it('shows each list title once, in the table header, not again as a page heading', async () => {
    await openContext(1280);
    await signInAsRoot();
    for (const [path, title] of [
      ['/admin/adminList', '管理员列表'],
      ['/user/userList', '用户列表'],
      ['/book/bookList', '书籍列表'],
      ['/interview/interviewList', '题目列表'],
      ['/issue', '问答列表'],
      ['/commentList', '评论列表'],
      ['/typeList', '分类信息'],
    ]) {
      await visit(path, title);
      expect({ path, headings: await page.locator('.ant-page-header-heading-title').count() }).toEqual({ path, headings: 0 });
      expect({ path, titles: await page.locator('.ant-pro-table-list-toolbar-title').getByText(title).count() }).toEqual({
        path,
        titles: 1,
      });
    }
  });

  it('does not carry a failed attempt’s 验证码错误 to /home after the next attempt signs in', async () => {
    await openContext(1280);
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('请输入账号').fill(ADMIN_LOGIN);
    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.getByPlaceholder('请输入验证码').fill(`${CAPTCHA}x`);
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.locator('.ant-message').getByText('验证码错误').waitFor();

    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.getByPlaceholder('请输入验证码').fill(CAPTCHA);
    // The first attempt's spinner can linger in the button, mid-way through its leaving animation
    // (invisible, 0 px wide), and lend the button its name 「loading」.
    await page.getByRole('button', { name: /登\s*录$/ }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.ant-message').getByText('登录成功').waitFor();
    // Gone at once (its closing animation aside), well before its own three seconds are up.
    await page.locator('.ant-message').getByText('验证码错误').waitFor({ state: 'detached', timeout: 1000 });
  });
});

interface AxeNode {
  target: string[];
  html: string;
  any: { data?: { fgColor?: string; bgColor?: string } | null }[];
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/*
 * ProLayout's mixed layout draws a second, empty <header> to hold the fixed header's place, so
 * the page has two banner landmarks; neither the layout's runtime options nor the screens can
 * remove it. Only that placeholder (the first header, without content) is set aside.
 */
const PROLAYOUT_PLACEHOLDER_HEADER = new Set(['landmark-no-duplicate-banner', 'landmark-unique']);

const setAside = (violation: AxeViolation, node: AxeNode) =>
  PROLAYOUT_PLACEHOLDER_HEADER.has(violation.id) &&
  node.target.join(' ') === 'header:nth-child(1)' &&
  /^<header[^>]*><\/header>$/.test(node.html);

/** axe-core's violations on the page as it is now, as `rule (impact): element` lines. */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  });
  return violations.flatMap((violation) =>
    violation.nodes
      .filter((node) => !setAside(violation, node))
      .map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${violation.help}`),
  );
}

describe('accessibility (axe-core) of every kind of screen', () => {
  beforeEach(async () => {
    await openContext(1280);
  });

  it('the login page', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('请输入验证码').waitFor();
    await page.locator('button[aria-label^="验证码"] img').waitFor();
    expect(await axeViolations()).toEqual([]);
  });

  it('the home page, the lists, the forms, the details and the 404 page', async () => {
    await signInAsRoot();
    const screens: [string, string][] = [
      ['/home', '近 30 天新增用户'],
      ['/admin/adminList', '管理员列表'],
      ['/admin/addAdmin', '管理员账号'],
      ['/user/userList', '用户列表'],
      ['/user/addUser', '登录账号'],
      [`/user/editUser/${ids.user}`, '登录账号'],
      ['/book/bookList', '书籍列表'],
      ['/book/addBook', '书籍标题'],
      [`/book/editBook/${ids.book}`, '书籍标题'],
      ['/interview/interviewList', '题目列表'],
      ['/interview/addInterview', '题目标题'],
      [`/interview/editInterview/${ids.interview}`, '题目标题'],
      [`/interview/interviewList/${ids.interview}`, '题目详情'],
      ['/issue', '问答列表'],
      [`/issue/${ids.issue}`, '问题描述'],
      ['/commentList', '评论列表'],
      ['/typeList', '分类信息'],
      ['/no/such/page', '抱歉，你访问的页面不存在'],
    ];
    const found: string[] = [];
    for (const [path, ready] of screens) {
      await visit(path, ready);
      found.push(...(await axeViolations()).map((line) => `${path} ${line}`));
    }
    expect(found).toEqual([]);
  });

  it('the user detail modal', async () => {
    await signInAsRoot();
    await visit('/user/userList', '用户列表');
    await page.locator('.ant-table-tbody tr.ant-table-row').first().getByText('详情').click();
    await page.getByRole('dialog').getByText('上次登录').waitFor();
    expect(await axeViolations()).toEqual([]);
  });
});
