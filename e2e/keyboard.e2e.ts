import type { Page } from 'playwright-core';
import { axeViolations, type Focused, focused, trackRequests } from './page-checks';
import { ADMIN_LOGIN, ADMIN_PASSWORD, type ApiClient, CAPTCHA, captchaImage, expectMessage, type RunningServer } from './support';
import { browserSuite, eventually, type Saved } from './suite';

/*
 * A moderator with the keyboard alone: no mouse or pointer event reaches the page. Each place the
 * focus stops at on the way must be on screen and drawn with a focus ring.
 */

let server: RunningServer;
let page: Page;
let root: ApiClient;
let pointerEvents: string[];

// bypassCSP: axe-core is put into the page as an inline script.
browserSuite({ context: { bypassCSP: true } }, (suite) => {
  ({ server, page, root } = suite);
});

jest.setTimeout(180_000);

beforeEach(async () => {
  pointerEvents = [];
  await page.exposeFunction('__pointerEvent', (type: string) => pointerEvents.push(type));
  await page.addInitScript(() => {
    const report = (window as unknown as { __pointerEvent: (type: string) => void }).__pointerEvent;
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'mousemove', 'wheel']) {
      window.addEventListener(type, (event) => report(event.type), true);
    }
  });
});

afterEach(() => {
  // A click that Enter or Space makes is a `click` event, not a pointer event: none may have come.
  expect(pointerEvents).toEqual([]);
});

/** Tab (or Shift+Tab) until `reached` holds for the focused element; every stop on the way is given back. */
async function tabUntil(reached: (now: Focused) => boolean, { back = false, max = 250 } = {}): Promise<Focused[]> {
  const stops: Focused[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    let now = await focused(page);
    if (now && !now.ring) {
      // A ring drawn with a transition is there a moment later.
      await page.waitForTimeout(400);
      now = await focused(page);
    }
    if (!now) continue;
    stops.push(now);
    if (reached(now)) return stops;
  }
  throw new Error(`not reached in ${max} presses; the focus went through: ${stops.map((stop) => stop.name).join(' | ')}`);
}

/** The stops that are off screen or drawn without a focus ring. */
const unseen = (stops: Focused[]) => stops.filter((stop) => !stop.visible || !stop.ring).map((stop) => stop.name);

async function signInByKeyboard() {
  await page.goto(`${server.url}/login`);
  await captchaImage(page).waitFor();
  for (const [placeholder, text] of [
    ['请输入账号', ADMIN_LOGIN],
    ['请输入密码', ADMIN_PASSWORD],
    ['请输入验证码', CAPTCHA],
  ]) {
    const stops = await tabUntil((now) => now.name.endsWith(placeholder), { max: 10 });
    expect(unseen(stops)).toEqual([]);
    await page.keyboard.type(text);
  }
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/home$/);
}

/** Opens `path` and waits until the table shows `row`. */
async function openList(path: string, row: string) {
  const requests = trackRequests(page);
  await page.goto(`${server.url}${path}`);
  await page.locator('.ant-table-tbody tr', { hasText: row }).waitFor();
  await requests.settled();
}

async function newIssues(titles: string[]) {
  const type = await root.call<Saved>('POST', '/api/type', { typeName: `键盘类型${titles.length}` });
  const user = await root.call<Saved>('POST', '/api/user', { loginId: `keyboard-asker-${titles.length}`, nickname: '键盘提问者' });
  for (const issueTitle of titles) {
    await root.call('POST', '/api/issue', { issueTitle, issueContent: '<p>键盘</p>', userId: user._id, typeId: type._id });
  }
}

describe('a moderator with the keyboard alone', () => {
  it('signs in, tabs through a list with a visible focus ring at every stop, and deletes one row', async () => {
    await newIssues(['键盘留下的问题', '键盘删除的问题']);
    await signInByKeyboard();
    await openList('/issue', '键盘删除的问题');

    // From the top of the page: the side menu, the header, the search form (展开 included), the
    // toolbar, the rows' checkboxes, switches and actions, up to the 删除 of the row.
    const stops = await tabUntil((now) => now.name === 'BUTTON 删除' && now.row.includes('键盘删除的问题'));
    expect(unseen(stops)).toEqual([]);
    const names = stops.map((stop) => stop.name);
    expect(names).toEqual(expect.arrayContaining(['BUTTON 展开', 'BUTTON 查询', 'BUTTON 详情']));
    expect(names.some((name) => name.includes('问答'))).toBe(true);

    // Enter opens the confirmation with the focus on its 删除; Enter again confirms.
    await page.keyboard.press('Enter');
    await page.getByText('是否要删除该问答以及该问答对应的评论？').waitFor();
    await eventually(async () => {
      const now = await focused(page);
      return now ? `${now.name}${now.popup ? ' (in the confirmation)' : ''}` : 'nothing';
    }, 'BUTTON 删除 (in the confirmation)');
    await page.keyboard.press('Enter');
    await expectMessage(page, '删除问答成功');
    await eventually(() => page.locator('.ant-table-tbody tr', { hasText: '键盘删除的问题' }).count(), 0);
    await page.locator('.ant-table-tbody tr', { hasText: '键盘留下的问题' }).waitFor();
  });

  it('Escape closes a row’s confirmation and gives the focus back to the action', async () => {
    await newIssues(['键盘取消的问题']);
    await signInByKeyboard();
    await openList('/issue', '键盘取消的问题');

    await tabUntil((now) => now.name === 'BUTTON 删除' && now.row.includes('键盘取消的问题'));
    await page.keyboard.press('Enter');
    await page.getByText('是否要删除该问答以及该问答对应的评论？').waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('是否要删除该问答以及该问答对应的评论？').waitFor({ state: 'hidden' });
    const now = await focused(page);
    expect(now && { name: now.name, popup: now.popup, ring: now.ring }).toEqual({ name: 'BUTTON 删除', popup: false, ring: true });
    await page.locator('.ant-table-tbody tr', { hasText: '键盘取消的问题' }).waitFor();
  });

  it('approves issues in bulk: Space on a row’s checkbox, then the bulk bar’s 批量审核通过 and its confirmation', async () => {
    await newIssues(['键盘批量一', '键盘批量二', '键盘批量三']);
    await signInByKeyboard();
    await openList('/issue', '键盘批量一');

    await tabUntil((now) => now.name.includes('选择此行') && now.row.includes('键盘批量二'));
    await page.keyboard.press('Space');
    await page.getByText('已选择 1 项').waitFor();

    // The bulk bar comes after the table's rows in tab order: forward from the checkbox.
    const stops = await tabUntil((now) => now.name === 'BUTTON 批量审核通过', { max: 40 });
    expect(unseen(stops)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByText('确定要审核通过选中的 1 条记录吗？').waitFor();
    // The confirmation takes the focus on its own button.
    await eventually(async () => {
      const now = await focused(page);
      return now?.popup ? now.name : '';
    }, 'BUTTON 审核通过');
    await page.keyboard.press('Enter');
    await expectMessage(page, '已审核通过 1 条记录');
    await eventually(
      () => page.locator('.ant-table-tbody tr', { hasText: '键盘批量二' }).getByRole('switch').getAttribute('aria-checked'),
      'true',
    );
  });

  it('reaches 个人设置 and 退出登录 through the header’s account menu', async () => {
    await signInByKeyboard();
    const stops = await tabUntil((now) => now.name.startsWith('BUTTON 账号菜单'), { max: 60 });
    expect(unseen(stops)).toEqual([]);
    // Enter opens the menu with the focus in it; the arrows walk it.
    await page.keyboard.press('Enter');
    await eventually(async () => (await focused(page))?.name ?? 'nothing', 'LI menuitem 个人设置');
    await page.keyboard.press('ArrowDown');
    await eventually(async () => (await focused(page))?.name ?? 'nothing', 'LI menuitem 退出登录');
    const entry = await focused(page);
    expect(entry && { visible: entry.visible, ring: entry.ring }).toEqual({ visible: true, ring: true });
    await page.keyboard.press('Enter');
    await expectMessage(page, '退出登录成功');
    await page.waitForURL(/\/login$/);
  });

  it('opens an admin’s 更多 menu from the keyboard, its entries focusable, and the page still passes axe', async () => {
    await root.call('POST', '/api/admin', { loginId: 'keyboard-admin', nickname: '键盘管理员', permission: 2 });
    await signInByKeyboard();
    await openList('/admin/adminList', 'keyboard-admin');

    const stops = await tabUntil((now) => now.name.startsWith('BUTTON 更多') && now.row.includes('keyboard-admin'));
    expect(unseen(stops)).toEqual([]);
    await page.keyboard.press('Enter');
    // The menu takes the focus at once; the arrows walk it.
    await eventually(async () => (await focused(page))?.name ?? 'nothing', 'LI menuitem 登录设备');
    const entry = await focused(page);
    expect(entry && { visible: entry.visible, ring: entry.ring }).toEqual({ visible: true, ring: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Enter');
    await page.getByText('键盘管理员 的登录设备').waitFor();
    // The modal takes the focus once it has come in; Escape then closes it.
    await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null);
    await page.keyboard.press('Escape');
    await page.getByText('键盘管理员 的登录设备').waitFor({ state: 'hidden' });
  });
});
