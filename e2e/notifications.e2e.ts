import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations, focused, focusInDialog, pageOverflow, visit, clickSettled } from './page-checks';
import type { ApiClient, RunningServer } from './support';
import { browserSuite, button, type Saved } from './suite';

/*
 * Issue 25's 通知 in a real Chromium against the built server (its delivery job running): a 通用
 * JSON hook made in 个人设置 → 通知, its secret shown once; an item held (重新检查 over a question
 * with a 待审 word) reaches a receiver on loopback, signed with that secret; 投递记录 says 已投递.
 */

let server: RunningServer;
let page: Page;
let root: ApiClient;

browserSuite({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, context: { bypassCSP: true }, signedIn: true, stepTimeoutMs: 30_000 }, (suite) => {
  ({ server, page, root } = suite);
});

const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
let receiver: Server;
let receiverUrl: string;
beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/moderation-hook`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function shot(name: string) {
  const folder = process.env.E2E_SCREENSHOTS;
  if (folder) await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

const openTab = () => visit(page, `${server.url}/settings?tab=notifications`, '新建通知');

describe('通知 in a real browser', () => {
  it('creates a signed JSON hook, shows its secret once, and a held item reaches the receiver signed with it', async () => {
    await openTab();
    await button(page, '新建通知').click();
    const dialog = page.getByRole('dialog', { name: '新建通知' });
    await dialog.getByLabel('名称').fill('值班群');
    await dialog.getByLabel('类型').click({ force: true });
    await clickSettled(page.getByTitle('通用 JSON'));
    await dialog.getByLabel('地址').fill(receiverUrl);
    await clickSettled(dialog.getByRole('button', { name: /保\s*存/ }));
    const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
    expect(secret.length).toBeGreaterThan(30);
    await shot('notifications-secret');
    await clickSettled(button(page, '我已保存'));
    await page.locator('.ant-table-row', { hasText: '值班群' }).waitFor();

    // An item waiting: an administrator's question with a 待审 word is flagged into 审核台 as it is
    // saved, and the hook is told; then 重新检查 over the questions sends its summary.
    await root.call('POST', '/api/moderation/words', { word: '通知测试词', action: 'hold' });
    const type = await root.call<Saved>('POST', '/api/type', { typeName: '通知类型' });
    const user = await root.call<Saved>('POST', '/api/user', { loginId: 'hook-asker', nickname: '提问者' });
    const issue = await root.call<Saved>('POST', '/api/issue', {
      issueTitle: '含有通知测试词的问题',
      issueContent: '<p>x</p>',
      userId: user._id,
      typeId: type._id,
    });
    await root.call('POST', '/api/moderation/recheck', { kinds: ['issue'] });

    const deadline = Date.now() + 30_000;
    while (received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const bodies = received.map((got) => {
      expect(got.headers['x-signature-256']).toBe(`sha256=${createHmac('sha256', secret).update(got.body).digest('hex')}`);
      return JSON.parse(got.body);
    });
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'item.waiting',
          data: expect.objectContaining({
            kind: 'issue',
            itemId: issue._id,
            reasons: [{ rule: 'word', action: 'hold', words: ['通知测试词'] }],
          }),
        }),
        expect.objectContaining({ event: 'item.waiting', data: expect.objectContaining({ recheck: true }) }),
      ]),
    );

    await openTab();
    await button(page, '投递记录 值班群').click();
    await page.getByRole('dialog').getByText('已投递').first().waitFor();
    await shot('notifications-deliveries');
  });

  it.each([390, 768, 1280, 1440, 1920])('fits %i px wide with no axe violation', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await openTab();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, '.ant-tabs-tabpane-active')).toEqual([]);
    await shot(`notifications-${width}`);
  });

  it('is usable from the keyboard alone: 新建通知 opens the dialog, 取消 closes it, 投递记录 opens', async () => {
    await openTab();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page))?.name.includes('新建通知')) break;
    }
    expect(await focused(page)).toMatchObject({ name: expect.stringContaining('新建通知'), visible: true, ring: true });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: '新建通知' }).waitFor();
    await focusInDialog(page);
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page))?.name.includes('取')) break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: '新建通知' }).waitFor({ state: 'hidden' });
    // 投递记录 of the hook made above, reached by Tab and opened with Enter.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page))?.name.includes('投递记录')) break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByText('已投递').first().waitFor();
  });
});
