import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { narrowColumns, pageOverflow, visit, wrappedTexts, confirmPopconfirm } from './page-checks';
import { expectMessage, type ApiClient, type RunningServer } from './support';
import { browserSuite, eventually, type Saved } from './suite';

/*
 * The list mechanics a moderator relies on, in a real browser on the demo content plus 25 issues
 * of a type of their own: the selection is only ever what the screen shows, the address keeps a
 * list's page and filters, active filters show, and every screen fits the widths the back office
 * is used at (390 px phones to 1920 px desktops).
 */

let server: RunningServer;
let page: Page;
let root: ApiClient;
const ids = { type: '', user: '', book: '', interview: '', issues: [] as string[] };

browserSuite(
  {
    args: ['--demo'],
    signedIn: true,
    setupTimeoutMs: 180_000,
    setup: async (admin) => {
      ids.type = (await admin.call<Saved>('POST', '/api/type', { typeName: '列表类型' }))._id;
      ids.user = (await admin.call<Saved>('POST', '/api/user', { loginId: 'list-asker', nickname: '列表提问者' }))._id;
      // Created in order: the list shows the newest first, 列表问题25 to 列表问题16 on page 1.
      for (let n = 1; n <= 25; n++) {
        const issue = await admin.call<Saved>('POST', '/api/issue', {
          issueTitle: `列表问题${n}`,
          issueContent: `<p>列表问题${n}的描述，足够长的一段文字，让它在窄屏上需要省略号才能放下。</p>`,
          userId: ids.user,
          typeId: ids.type,
        });
        ids.issues.push(issue._id);
      }
      ids.book = (
        await admin.call<Saved>('POST', '/api/book', {
          bookTitle: '列表书籍',
          bookIntro: '<p>列表书籍的简介</p>',
          downloadLink: 'https://example.com/book',
          requirePoints: 10,
          typeId: ids.type,
        })
      )._id;
      ids.interview = (
        await admin.call<Saved>('POST', '/api/interview', { interviewTitle: '列表题目', interviewContent: '<p>解答</p>', typeId: ids.type })
      )._id;
      for (const n of [1, 2, 3]) {
        await admin.call('POST', '/api/comment', {
          userId: ids.user,
          commentType: 1,
          issueId: ids.issues[24],
          commentContent: `<p>列表问答评论${n}</p>`,
        });
        await admin.call('POST', '/api/comment', {
          userId: ids.user,
          commentType: 2,
          bookId: ids.book,
          commentContent: `<p>列表书籍评论${n}</p>`,
        });
      }
      // Something in the recycle bin.
      const binned = await admin.call<Saved>('POST', '/api/user', { loginId: 'list-binned', nickname: '进回收站的用户' });
      await admin.call('DELETE', `/api/user/${binned._id}`);
    },
  },
  (suite) => {
    ({ server, page, root } = suite);
  },
);

jest.setTimeout(180_000);

const rowOf = (text: string) => page.locator('.ant-table-tbody tr.ant-table-row', { hasText: text });
const tick = (text: string) => rowOf(text).getByRole('checkbox', { name: '选择此行' }).click();
const selectionBar = () => page.getByRole('group', { name: '批量操作' });
const checkedRows = () => page.getByRole('checkbox', { name: '选择此行', checked: true }).count();
const ourIssues = () => `${server.url}/issue?typeId=${ids.type}`;

/** The selection bar is gone and no row is ticked. */
async function expectNothingSelected() {
  await eventually(() => selectionBar().count(), 0);
  expect(await page.getByText(/已选择 \d+ 项/).count()).toBe(0);
  expect(await checkedRows()).toBe(0);
}

describe('the selection is what the screen shows', () => {
  it('is cleared by a page change, and a bulk delete then reaches only the rows ticked on the new page', async () => {
    await visit(page, ourIssues(), '列表问题25');
    await tick('列表问题25');
    await tick('列表问题24');
    await selectionBar().getByText('已选择 2 项').waitFor();

    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL(/current=2/);
    await rowOf('列表问题15').waitFor();
    await expectNothingSelected();

    await tick('列表问题14');
    await selectionBar().getByText('已选择 1 项').waitFor();
    await selectionBar().getByRole('button', { name: '批量删除' }).click();
    await page.getByText('确定要删除选中的 1 条记录吗？').waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '已删除 1 条记录');
    await eventually(() => rowOf('列表问题14').count(), 0);

    // The rows ticked on page 1 were not touched.
    for (const n of [25, 24]) {
      expect((await root.call<{ issueTitle: string }>('GET', `/api/issue/${ids.issues[n - 1]}`)).issueTitle).toBe(`列表问题${n}`);
    }
  });

  it('is cleared by a search', async () => {
    await visit(page, ourIssues(), '列表问题25');
    await tick('列表问题25');
    await tick('列表问题23');
    await selectionBar().getByText('已选择 2 项').waitFor();

    await page.getByLabel('问答标题', { exact: true }).fill('列表问题2');
    // Enter in a search field runs the search, as 查询 does.
    await page.getByLabel('问答标题', { exact: true }).press('Enter');
    await page.waitForURL(/issueTitle=/);
    await eventually(() => rowOf('列表问题19').count(), 0);
    await expectNothingSelected();
  });

  it('is cleared by switching between 问答评论 and 书籍评论', async () => {
    await visit(page, `${server.url}/commentList`, '评论列表');
    await tick('列表问答评论1');
    await tick('列表问答评论2');
    await selectionBar().getByText('已选择 2 项').waitFor();

    await page.getByText('书籍评论', { exact: true }).click();
    await rowOf('列表书籍评论1').waitFor();
    await page.waitForURL(/commentType=2/);
    await expectNothingSelected();
  });

  it('names the header checkbox 全选 and puts the bulk bar after it in the tab order, with 取消选择 a button', async () => {
    await visit(page, ourIssues(), '列表问题25');
    const selectAll = page.getByRole('checkbox', { name: '全选' });
    await selectAll.focus();
    await page.keyboard.press('Space');
    await selectionBar().getByText('已选择 10 项').waitFor();
    // From the header checkbox, Tab walks the rows' controls and then reaches the bar.
    const cancel = selectionBar().getByRole('button', { name: '取消选择' });
    let reached = false;
    for (let step = 0; step < 80 && !reached; step++) {
      await page.keyboard.press('Tab');
      reached = await cancel.evaluate((element) => element === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expectNothingSelected();
  });
});

describe('the address keeps a list’s page and filters', () => {
  it('comes back to the same page and filters after a detail and Back, after a reload and from a pasted link', async () => {
    await visit(page, ourIssues(), '列表问题25');
    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL(/current=2/);
    await rowOf('列表问题13').waitFor();
    const listUrl = page.url();
    expect(new URL(listUrl).searchParams.get('typeId')).toBe(ids.type);

    await rowOf('列表问题13').getByText('详情', { exact: true }).click();
    await page.waitForURL(/\/issue\/[0-9a-f]{24}/);
    await page.getByText('问题描述').first().waitFor();
    await page.goBack();
    await rowOf('列表问题13').waitFor();
    expect(page.url()).toBe(listUrl);
    await page.getByText('问题分类：列表类型').waitFor();
    expect(await page.locator('.ant-pagination-item-active').innerText()).toBe('2');

    await page.reload();
    await rowOf('列表问题13').waitFor();
    expect(await page.locator('.ant-pagination-item-active').innerText()).toBe('2');

    const pasted = await page.context().newPage();
    await pasted.goto(`${server.url}/issue?current=3&pageSize=10&typeId=${ids.type}&issueTitle=${encodeURIComponent('列表问题')}`);
    // Page 3 of the oldest issues: 列表问题1 is there, the newest are not.
    await pasted.locator('.ant-table-tbody').getByText('列表问题1', { exact: true }).waitFor();
    expect(await pasted.locator('.ant-table-tbody').getByText('列表问题25', { exact: true }).count()).toBe(0);
    expect(await pasted.locator('.ant-pagination-item-active').innerText()).toBe('3');
    expect(await pasted.getByLabel('问答标题', { exact: true }).inputValue()).toBe('列表问题');
    await pasted.close();
  });

  it('keeps the comment kind and the audit time range in the address', async () => {
    await visit(page, `${server.url}/commentList?commentType=2`, '评论列表');
    await rowOf('列表书籍评论1').waitFor();
    expect(await page.getByRole('radio', { name: '书籍评论' }).isChecked()).toBe(true);

    const from = Date.now() - 24 * 3600_000;
    const to = Date.now() + 3600_000;
    await visit(page, `${server.url}/audit?from=${from}&to=${to}`, '操作日志');
    await page.getByText(/^时间：/).waitFor();
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  });
});

describe('active filters', () => {
  it('shows the home page’s 待审核 filter as a tag, with the field in view, and removing it searches again', async () => {
    await visit(page, `${server.url}/issue?issueStatus=false`, '问答列表');
    await page.getByText('审核状态：待审核').waitFor();
    expect(await page.getByLabel('审核状态', { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: '移除筛选「审核状态：待审核」' }).click();
    await eventually(() => page.getByText('审核状态：待审核').count(), 0);
    await eventually(async () => new URL(page.url()).searchParams.has('issueStatus'), false);
  });
});

const WIDTHS = [390, 768, 1280, 1440, 1920];

/** Every list route, and the other screens that must keep fitting. */
function screens(): { path: string; ready: string; list: boolean }[] {
  return [
    { path: '/user/userList', ready: '用户列表', list: true },
    { path: '/book/bookList', ready: '书籍列表', list: true },
    { path: '/interview/interviewList', ready: '题目列表', list: true },
    { path: '/issue', ready: '问答列表', list: true },
    { path: '/commentList', ready: '评论列表', list: true },
    { path: '/audit', ready: '操作日志', list: true },
    { path: '/trash', ready: '回收站', list: true },
    { path: '/admin/adminList', ready: '管理员列表', list: true },
    { path: '/typeList', ready: '分类信息', list: true },
    { path: `/issue/${ids.issues[24]}`, ready: '问题描述', list: true },
    { path: '/home', ready: '待审核问答', list: false },
    { path: '/user/addUser', ready: '登录账号', list: false },
    { path: `/user/editUser/${ids.user}`, ready: '登录账号', list: false },
    { path: '/book/addBook', ready: '书籍标题', list: false },
    { path: `/book/editBook/${ids.book}`, ready: '书籍标题', list: false },
    { path: '/interview/addInterview', ready: '题目标题', list: false },
    { path: `/interview/editInterview/${ids.interview}`, ready: '题目标题', list: false },
    { path: '/admin/addAdmin', ready: '管理员账号', list: false },
    { path: '/settings', ready: '基本资料', list: false },
  ];
}

/** The rows' actions (a last column headed 操作) that lie outside their table's visible part. */
function actionsOutOfView(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.ant-table')].flatMap((table) => {
      const headers = table.querySelectorAll<HTMLElement>('thead th');
      if (headers[headers.length - 1]?.innerText.trim() !== '操作') return [];
      const view = (table.querySelector('.ant-table-content, .ant-table-body') ?? table).getBoundingClientRect();
      return [...table.querySelectorAll<HTMLElement>('.ant-table-tbody tr.ant-table-row td:last-child')].flatMap((cell) => {
        const box = cell.getBoundingClientRect();
        return box.left < view.left - 1 || box.right > view.right + 1 ? [cell.innerText.trim()] : [];
      });
    }),
  );
}

const shots = process.env.LIST_SHOTS_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'list-shots-'));

describe('every screen fits the window', () => {
  beforeAll(() => {
    fs.mkdirSync(shots, { recursive: true });
    console.log(`list screenshots: ${shots}`);
  });

  for (const width of WIDTHS) {
    it(`at ${width} px: the page never scrolls sideways, no column is squeezed, from 768 px the actions are in view, and from 1280 px no header or action wraps`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: string[] = [];
      for (const screen of screens()) {
        await visit(page, `${server.url}${screen.path}`, screen.ready);
        if (screen.list) await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
        const overflow = await pageOverflow(page);
        if (overflow > 0) found.push(`${screen.path}: the page scrolls ${overflow} px sideways`);
        if (!screen.list) continue;
        found.push(...(await narrowColumns(page, 40)).map((column) => `${screen.path}: column ${column} px`));
        if (width >= 1280) {
          found.push(...(await wrappedTexts(page, '.ant-table-thead th')).map((text) => `${screen.path}: header 「${text}」 wraps`));
          found.push(
            ...(await wrappedTexts(page, '.ant-table-tbody td:last-child')).map((text) => `${screen.path}: action 「${text}」 wraps`),
          );
        }
        // From a tablet's width the rows' actions stay in view where the table scrolls sideways (on
        // a phone the table scrolls to them: a fixed column would leave the data a sliver).
        if (width >= 768) {
          found.push(...(await actionsOutOfView(page)).map((text) => `${screen.path}: action 「${text}」 is out of view`));
        }
        if (width === 390 || width === 1280 || width === 1440) {
          const name = screen.path.replace(/^\//, '').replace(/[/?=&]/g, '_');
          await page.screenshot({ path: path.join(shots, `${width}-${name}.png`), fullPage: true });
        }
      }
      expect(found).toEqual([]);
    });
  }
});
