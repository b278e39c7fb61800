import type { Page } from 'playwright-core';
import { ADMIN_LOGIN, ADMIN_PASSWORD, signIn, expectMessage, recordMessages, type RunningServer } from './support';
import { browserSuite, eventually } from './suite';

let server: RunningServer;
let page: Page;

browserSuite({ context: { viewport: { width: 1280, height: 720 } }, stepTimeoutMs: 30_000, root: false }, (suite) => {
  ({ server, page } = suite);
});

const menu = () => page.locator('.ant-pro-sider, .ant-layout-sider').first();

async function signOut() {
  // ProLayout shows the admin's name in the header; its drop-down holds 退出登录.
  await page
    .locator('.ant-pro-global-header, .ant-layout-header')
    .getByText(/超级管理员|普通|e2e/)
    .first()
    .hover();
  await page.getByText('退出登录').click();
  await expectMessage(page, '退出登录成功');
  await page.waitForURL(/\/login$/);
}

describe('platform in a real browser', () => {
  it('super admin signs in, adds a normal admin, signs out; the normal admin cannot reach the admin screens', async () => {
    await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.waitForURL(/\/home$/);
    await menu().getByText('管理员', { exact: true }).waitFor();

    await menu().getByText('管理员', { exact: true }).click();
    await menu().getByText('管理员列表').click();
    await page.waitForURL(/\/admin\/adminList$/);
    await page.getByText('管理员列表').first().waitFor();
    await page.getByRole('cell', { name: ADMIN_LOGIN, exact: true }).waitFor();

    await menu().getByText('添加管理员').click();
    await page.waitForURL(/\/admin\/addAdmin$/);
    await page.getByLabel('管理员账号').fill('e2e-normal');
    await page.getByLabel('管理员密码').fill('normal-password');
    await page.getByLabel('管理员昵称').fill('e2e 普通管理员');
    await page.getByRole('button', { name: '确认新增' }).click();
    await expectMessage(page, '添加管理员成功');
    await page.waitForURL(/\/admin\/adminList$/);
    await page.getByRole('cell', { name: 'e2e-normal', exact: true }).waitFor();

    await signOut();

    await signIn(page, server.url, 'e2e-normal', 'normal-password');
    await page.waitForURL(/\/home$/);
    await menu().getByText('类型').waitFor();
    expect(await menu().getByText('管理员', { exact: true }).count()).toBe(0);
    expect(await menu().getByText('管理员列表').count()).toBe(0);

    await page.goto(`${server.url}/admin/adminList`);
    await page.getByText('抱歉，你无权访问该页面').waitFor();
    expect(await page.getByText('e2e-normal').count()).toBeLessThanOrEqual(1);
  });

  it('a removed or unknown token on /home goes to /login with 登录过期，请重新登录', async () => {
    await page.goto(`${server.url}/login`);
    await page.evaluate(() => localStorage.setItem('adminToken', 'not-a-live-token'));
    const messages = await recordMessages(page);
    await page.goto(`${server.url}/home`);
    await page.waitForURL(/\/login/);
    await eventually(async () => messages.includes('登录过期，请重新登录'), true);
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
  });

  it('a token revoked on the server (signed out elsewhere) also ends the session', async () => {
    await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.waitForURL(/\/home$/);
    const token = await page.evaluate(() => localStorage.getItem('adminToken'));
    // Revoked while the app is closed: an open /home would meet the revocation in its own calls
    // (its statistics, the 审核台 count) and end the session before the visit this test is about.
    await page.goto('about:blank');
    const out = await fetch(`${server.url}/api/admin/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    // Recorded as it appears: the warning lasts 3 s, which a loaded machine can spend loading /login.
    const messages = await recordMessages(page);
    await page.goto(`${server.url}/home`);
    await page.waitForURL(/\/login/);
    // Ended by someone else, not expired: the screen says which (the server's errorCode SESSION_ENDED).
    await expectEndedElsewhere(messages);
  });

  /** Signs in on /home, then ends that session through the API as another device would: the page's messages from then on. */
  async function signedInThenEndedElsewhere(): Promise<string[]> {
    const statsAnswered = page.waitForResponse((response) => response.url().endsWith('/api/stats'));
    await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.waitForURL(/\/home$/);
    await statsAnswered;
    const token = await page.evaluate(() => localStorage.getItem('adminToken'));
    const messages = await recordMessages(page);
    const out = await fetch(`${server.url}/api/admin/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    return messages;
  }

  /** On /login, told that the session was ended elsewhere (not that it expired), the token gone. */
  async function expectEndedElsewhere(messages: string[]) {
    await eventually(async () => messages.includes('你的登录已在其他地方被结束，请重新登录'), true);
    expect(messages).not.toContain('登录过期，请重新登录');
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
  }

  it('a session ended elsewhere while a page is open: its next call says so and leads to /login', async () => {
    const messages = await signedInThenEndedElsewhere();
    await menu().getByText('审核规则').click();
    await page.waitForURL(/\/login\?redirect=/);
    await expectEndedElsewhere(messages);
  });

  it('a page left open learns of a session ended elsewhere through the live stream of the 审核台 count', async () => {
    const messages = await signedInThenEndedElsewhere();
    // Nothing is clicked: the server ends the stream within 5 s and the page, refused on reconnecting, says why.
    await page.waitForURL(/\/login\?redirect=/, { timeout: 15_000 });
    await expectEndedElsewhere(messages);
  });

  it('visiting /login while signed in warns 请先退出后再登录 and goes back', async () => {
    await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.waitForURL(/\/home$/);
    await page.goto(`${server.url}/typeList`);
    await page.getByText('分类信息').first().waitFor();
    const messages = await recordMessages(page);
    await page.goto(`${server.url}/login`);
    await page.waitForURL(/\/typeList$/);
    await page.getByText('分类信息').first().waitFor();
    expect(messages).toContain('请先退出后再登录');
  });

  it('a wrong password shows 账号或密码不正确 and keeps the visitor on /login', async () => {
    await signIn(page, server.url, ADMIN_LOGIN, 'not-the-password');
    await expectMessage(page, '账号或密码不正确');
    expect(page.url()).toMatch(/\/login$/);
  });
});
