import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { confirmPopconfirm } from './page-checks';
import { expectMessage, type RunningServer, type ApiClient } from './support';
import { browserSuite, eventually, button, type Saved } from './suite';

let server: RunningServer;
let page: Page;
let root: ApiClient;

browserSuite({ context: { acceptDownloads: true }, signedIn: true }, (suite) => {
  ({ server, page, root } = suite);
});

jest.setTimeout(120_000);

const tableRow = (text: string) => page.locator('.ant-table-tbody tr', { hasText: text });

/** The number on the home page's 待审核问答 card. */
async function waitingOnHome(): Promise<number> {
  await page.goto(`${server.url}/home`);
  const card = page.locator('.ant-card, .ant-statistic', { hasText: '待审核问答' }).last();
  const value = card.locator('.ant-statistic-content-value').first();
  await value.waitFor();
  return Number((await value.innerText()).replace(/[^\d]/g, ''));
}

describe('recycle bin and export in a real browser', () => {
  it('an issue deleted with its comments leaves the list and the home count, and comes back whole from 回收站', async () => {
    const type = await root.call<Saved>('POST', '/api/type', { typeName: '回收站类型' });
    const user = await root.call<Saved>('POST', '/api/user', { loginId: 'bin-asker', nickname: '回收站提问者' });
    const issue = await root.call<Saved>('POST', '/api/issue', {
      issueTitle: '将被删除又恢复的问题',
      issueContent: '<p>问题描述</p>',
      userId: user._id,
      typeId: type._id,
    });
    for (const text of ['回收站评论一', '回收站评论二']) {
      await root.call('POST', '/api/comment', { userId: user._id, commentType: 1, issueId: issue._id, commentContent: `<p>${text}</p>` });
    }
    const before = await waitingOnHome();

    await page.goto(`${server.url}/issue`);
    const row = tableRow('将被删除又恢复的问题');
    await row.waitFor();
    await row.getByText('删除', { exact: true }).click();
    await page.getByText('是否要删除该问答以及该问答对应的评论？').waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '删除问答成功');
    await eventually(() => tableRow('将被删除又恢复的问题').count(), 0);
    await eventually(waitingOnHome, before - 1, 15_000);

    await page.getByRole('menuitem', { name: /回收站/ }).click();
    await page.waitForURL(/\/trash$/);
    const entry = tableRow('将被删除又恢复的问题');
    await entry.waitFor();
    await entry.getByText('2 条').waitFor();
    await entry.getByText('恢复', { exact: true }).click();
    await confirmPopconfirm(page);
    await expectMessage(page, '恢复成功');
    await eventually(() => tableRow('将被删除又恢复的问题').count(), 0);

    await eventually(waitingOnHome, before, 15_000);
    await page.goto(`${server.url}/issue`);
    await tableRow('将被删除又恢复的问题').waitFor();
    await page.goto(`${server.url}/issue/${issue._id}`);
    await page.getByText('回收站评论一').waitFor();
    await page.getByText('回收站评论二').waitFor();
    expect((await root.call<{ commentNumber: number }>('GET', `/api/issue/${issue._id}`)).commentNumber).toBe(2);
  });

  it('导出 downloads the user list as CSV with a BOM and Chinese headers, as the search shows it', async () => {
    await root.call('POST', '/api/user', { loginId: 'export-one', nickname: '导出用户一' });
    await root.call('POST', '/api/user', { loginId: 'export-two', nickname: '导出用户二' });
    await root.call('POST', '/api/user', { loginId: 'not-exported', nickname: '不导出' });

    await page.goto(`${server.url}/user/userList`);
    await tableRow('export-one').waitFor();
    await page.getByLabel('登录账号', { exact: true }).fill('export-');
    await button(page, '查询').click();
    await eventually(() => tableRow('not-exported').count(), 0);

    // Its accessible name starts with its icon's (download).
    const exportButton = page.getByRole('button', { name: /导\s*出$/ });
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^用户列表-\d{8}\.csv$/);
    const file = fs.readFileSync((await download.path())!);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('登录账号,昵称,头像,积分,注册时间,账号状态');
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(['export-one', 'export-two']);
  });
});
