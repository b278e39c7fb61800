import type { BrowserContext, Page } from 'playwright-core';
import { focusInDialog, focusOn, pageOverflow, popconfirmOk } from './page-checks';
import { ADMIN_LOGIN, ADMIN_PASSWORD, CAPTCHA, signIn, expectMessage, type RunningServer, type ApiClient } from './support';
import { browserSuite, button, type Saved } from './suite';
import { sitePage } from './site-page';

/**
 * The community site's flow against the built server, through the old client's calls made by a
 * small page of this test (served at the server's own origin, as the old client's dev proxy did):
 * sign up, set a password, sign in, ask; the question waits in the back-office, an admin approves
 * it there, and the member comments on it. Then the member's card on the back-office user detail.
 */

let server: RunningServer;
let context: BrowserContext;
let page: Page;
let root: ApiClient;
let typeId: string;

browserSuite(
  {
    setup: async (admin) => {
      typeId = (await admin.call<Saved>('POST', '/api/type', { typeName: '社区' }))._id;
    },
  },
  (suite) => {
    ({ server, context, page, root } = suite);
  },
);

// The page: each button makes one of the old client's calls with fetch and prints the answer.
const SITE_PAGE = sitePage(
  `<div id="captcha"></div>
<label>账号 <input id="loginId"></label><label>密码 <input id="password"></label><label>验证码 <input id="code"></label>
<label>标题 <input id="title"></label><label>评论 <input id="comment"></label>
<button id="captchaBtn">验证码</button><button id="signUp">注册</button><button id="setPassword">设置密码</button>
<button id="signInBtn">登录</button><button id="ask">提问</button><button id="say">评论</button>
`,
  `$('captchaBtn').onclick = async () => { $('captcha').innerHTML = await (await fetch('/res/captcha')).text(); $('out').textContent = 'captcha'; };
$('signUp').onclick = async () => {
  const { data } = await call('POST', '/api/user', { loginId: $('loginId').value, nickname: '社区新人', captcha: $('code').value });
  state.token = data.token; state.userId = data.result._id;
};
$('setPassword').onclick = async () => {
  await call('POST', '/api/user/passwordcheck', { userId: state.userId, loginPwd: '123456' });
  await call('PATCH', '/api/user/' + state.userId, { loginPwd: $('password').value });
};
$('signInBtn').onclick = async () => {
  state.token = null;
  const { data } = await call('POST', '/api/user/login', { loginId: $('loginId').value, loginPwd: $('password').value, captcha: $('code').value, remember: true });
  state.token = data.token; state.userId = data.data._id;
  await call('PATCH', '/api/user/' + state.userId, { lastLoginDate: Date.now() });
};
$('ask').onclick = async () => {
  const { data } = await call('POST', '/api/issue', { issueTitle: $('title').value, issueContent: '<p>请教</p>', userId: state.userId, typeId: '__TYPE_ID__' });
  state.issueId = data._id;
};
$('say').onclick = async () => {
  await call('POST', '/api/comment', { userId: state.userId, typeId: '__TYPE_ID__', commentContent: '<p>' + $('comment').value + '</p>', commentType: 1, issueId: state.issueId, bookId: null });
};
`,
);

async function openSite() {
  const url = `${server.url}/__community-site-test.html`;
  await page.route(url, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: SITE_PAGE.replaceAll('__TYPE_ID__', typeId) }),
  );
  await page.goto(url);
}

async function press(id: string, expected: RegExp) {
  await page.locator(`#${id}`).click();
  await page.locator('#out').filter({ hasText: expected }).waitFor();
}

const tableRow = (text: string) => page.locator('.ant-table-tbody tr', { hasText: text });

describe('the community site on this server', () => {
  it('sign up, sign in, ask; approve in the back-office; comment as the member', async () => {
    await openSite();
    await page.locator('#loginId').fill('e2e-member');
    await page.locator('#password').fill('Meadow-Lantern-42');
    await page.locator('#code').fill(CAPTCHA);
    await press('captchaBtn', /^captcha$/);
    await press('signUp', /^201 .*"token"/);
    await press('setPassword', /^200 .*"hasPassword":true/);
    await press('captchaBtn', /^captcha$/);
    await press('signInBtn', /^200 .*"lastLoginDate"/);
    await page.locator('#title').fill('端到端社区提问');
    await press('ask', /^201 .*"issueStatus":false/);
    // Not approved: a comment on it is refused.
    await page.locator('#comment').fill('太早了');
    await press('say', /^404 /);

    // The back-office: the question waits; an admin approves it there.
    const admin = await context.newPage();
    await signIn(admin, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await admin.waitForURL(/\/home$/);
    await admin.goto(`${server.url}/issue`);
    const row = admin.locator('.ant-table-tbody tr', { hasText: '端到端社区提问' });
    await row.waitFor();
    await row
      .getByRole('switch', { name: /审核状态/ })
      .filter({ hasText: '待审核' })
      .waitFor();
    await row.getByRole('switch').click();
    await expectMessage(admin, '该问题审核已通过');

    // Approved: the member comments, and gets the points for it.
    await page.locator('#comment').fill('终于可以回答了');
    await press('say', /^201 /);
    const issues = await root.call<{ data: Array<{ issueTitle: string; commentNumber: number; issueStatus: boolean }> }>(
      'GET',
      '/api/issue?current=1&pageSize=10',
    );
    const asked = issues.data.find((issue) => issue.issueTitle === '端到端社区提问');
    expect({ status: asked?.issueStatus, comments: asked?.commentNumber }).toEqual({ status: true, comments: 1 });
  });

  it('the user detail shows the member’s sessions with 结束会话 and the points history, at every width', async () => {
    const users = await root.call<{ data: Array<Saved & { loginId: string }> }>(
      'GET',
      '/api/user?current=1&pageSize=10&loginId=e2e-member',
    );
    expect(users.data).toHaveLength(1);
    await signIn(page, server.url, ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.waitForURL(/\/home$/);
    for (const width of [390, 768, 1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/user/userList`);
      const row = tableRow('e2e-member');
      await row.waitFor();
      await row.getByText('详情').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('前台会话').waitFor();
      await dialog.getByText('评论问答').waitFor();
      await dialog.getByText('+4').waitFor();
      expect({ width, overflow: await pageOverflow(page) }).toEqual({ width, overflow: 0 });
    }
    // 结束会话, from the keyboard alone: the button focused, Enter, and Enter on the confirmation.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/user/userList`);
    await tableRow('e2e-member').getByText('详情').click();
    const dialog = page.getByRole('dialog');
    const end = button(dialog, '结束会话');
    await end.waitFor();
    // The modal takes the focus once it has opened: focusing the button before then would lose it.
    await focusInDialog(page);
    await focusOn(end);
    await page.keyboard.press('Enter');
    const confirm = popconfirmOk(page);
    await confirm.waitFor();
    await focusOn(confirm);
    await page.keyboard.press('Enter');
    await expectMessage(page, '已结束该用户的全部会话');
    await dialog.getByText('没有登录中的会话').waitFor();
  });
});
