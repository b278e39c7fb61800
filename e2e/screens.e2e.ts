import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  apiSignIn,
  CAPTCHA,
  captchaImage,
  launchBrowser,
  signIn,
  startServer,
  type ApiClient,
  type RunningServer,
} from './support';
import { axeViolations as axeViolationsOn, visit as visitScreen, wrappedTexts as wrappedTextsOn } from './page-checks';
import { eventually } from './suite';

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
  // Another admin (whose row has every action) and an entry in 回收站, for the layout checks.
  await root.call('POST', '/api/admin', { loginId: 'layout-admin', nickname: '版式管理员', permission: 2 });
  const binned = await root.call<{ _id: string }>('POST', '/api/user', { loginId: 'layout-binned', nickname: '回收站里的用户' });
  await root.call('DELETE', `/api/user/${binned._id}`);
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

// Two tests walk every screen (37 s alone); the browser tests run two files at a time on two cores.
jest.setTimeout(180_000);

/** Opens `path` in the signed-in app and waits until `ready` shows and no table is loading. */
const visit = (path: string, ready: string) => visitScreen(page, `${server.url}${path}`, ready);

const wrappedTexts = (selector: string) => wrappedTextsOn(page, selector);

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

  for (const width of [1280, 1440, 1920]) {
    it(`lays out the admin list and 回收站 with each header and each row’s actions on one line at ${width} px`, async () => {
      await openContext(width);
      await signInAsRoot();
      for (const [path, title, row] of [
        ['/admin/adminList', '管理员列表', 'layout-admin'],
        ['/trash', '回收站', 'layout-binned'],
      ]) {
        await visit(path, title);
        await page.locator('.ant-table-tbody tr.ant-table-row', { hasText: row }).waitFor();
        expect({ path, headers: await wrappedTexts('.ant-table-thead th') }).toEqual({ path, headers: [] });
        expect({ path, actions: await wrappedTexts('.ant-table-tbody td:last-child') }).toEqual({ path, actions: [] });
      }
      // The signed-in admin's own row names itself rather than showing a switch.
      await visit('/admin/adminList', '管理员列表');
      await page.locator('.ant-table-tbody tr', { hasText: '当前账号' }).getByText('admin', { exact: true }).waitFor();
    });
  }

  it('shows one title on every screen: each list’s in its table header, not again as a page heading', async () => {
    await openContext(1280);
    await signInAsRoot();
    // [path, its title, a text that shows once the screen is there, a list?]
    const screens: [string, string, string, boolean][] = [
      ['/home', '首页', '近 30 天新增用户', false],
      ['/admin/adminList', '管理员列表', '登录账号', true],
      ['/admin/addAdmin', '添加管理员', '管理员账号', false],
      ['/user/userList', '用户列表', '注册时间', true],
      ['/user/addUser', '添加用户', '登录账号', false],
      [`/user/editUser/${ids.user}`, '编辑用户', '登录账号', false],
      ['/book/bookList', '书籍列表', '书籍封面', true],
      ['/book/addBook', '添加书籍', '书籍标题', false],
      [`/book/editBook/${ids.book}`, '编辑书籍信息', '书籍标题', false],
      ['/interview/interviewList', '题目列表', '题目名称', true],
      ['/interview/addInterview', '添加题目', '题目标题', false],
      [`/interview/editInterview/${ids.interview}`, '编辑题目', '题目标题', false],
      [`/interview/interviewList/${ids.interview}`, '题目详情', '题目详情', false],
      ['/issue', '问答列表', '问答标题', true],
      [`/issue/${ids.issue}`, '问答详情', '问题描述', false],
      ['/commentList', '评论列表', '评论内容', true],
      ['/audit', '操作日志', '变更', true],
      ['/typeList', '分类信息', '分类名称', true],
      ['/trash', '回收站', '到期时间', true],
      ['/settings', '个人设置', '基本资料', false],
    ];
    for (const [path, title, ready, list] of screens) {
      await visit(path, ready);
      // The page heading and the tables' header titles, as drawn: a detail page's own table (问答评论)
      // names a part of the page, after the page's title.
      const shown = await page
        .locator('.ant-page-header-heading-title, .ant-pro-table-list-toolbar-title')
        .evaluateAll((elements) =>
          elements.filter((element) => (element as HTMLElement).offsetParent !== null).map((element) => element.textContent?.trim()),
        );
      expect({ path, first: shown[0], times: shown.filter((text) => text === title).length }).toEqual({ path, first: title, times: 1 });
      if (list) expect({ path, headings: await page.locator('.ant-page-header-heading-title').count() }).toEqual({ path, headings: 0 });
    }
  });

  it('does not carry a failed attempt’s 验证码错误 to /home after the next attempt signs in', async () => {
    await openContext(1280);
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('请输入账号').fill(ADMIN_LOGIN);
    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.getByPlaceholder('请输入验证码').fill(`${CAPTCHA}x`);
    const refused = await captchaImage(page).getAttribute('src');
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.locator('.ant-message').getByText('验证码错误').waitFor();
    // The refusal used the captcha up; the next attempt waits for the new one the page loads.
    await eventually(async () => (await captchaImage(page).getAttribute('src')) !== refused, true);

    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.getByPlaceholder('请输入验证码').fill(CAPTCHA);
    // The first attempt's spinner can linger in the button, mid-way through its leaving animation
    // (invisible, 0 px wide), and lend the button its name 「loading」; 使用通行密钥登录 is another button.
    await page.getByRole('button', { name: /^(loading\s*)?登\s*录$/ }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.ant-message').getByText('登录成功').waitFor();
    // Gone at once (its closing animation aside), well before its own three seconds are up.
    await page.locator('.ant-message').getByText('验证码错误').waitFor({ state: 'detached', timeout: 1000 });
  });
});

const axeViolations = () => axeViolationsOn(page);

describe('accessibility (axe-core) of every kind of screen', () => {
  beforeEach(async () => {
    await openContext(1280);
  });

  it('the login page', async () => {
    await page.goto(`${server.url}/login`);
    await captchaImage(page).waitFor();
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
