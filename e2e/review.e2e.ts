import type { Page } from 'playwright-core';
import { pageOverflow, screenshot } from './page-checks';
import type { ApiClient, RunningServer } from './support';
import { browserSuite, button, eventually, type Saved } from './suite';

/*
 * The 审核台 (issue 25) in a real browser: a queue of 20 questions awaiting approval cleared from
 * the keyboard alone (no pointer event reaches the page), the menu badge following it down to 0;
 * the screen at the five widths.
 */

let server: RunningServer;
let page: Page;
let root: ApiClient;
let pointerEvents: string[];
const ITEMS = 20;

browserSuite({ signedIn: true }, (suite) => {
  ({ server, page, root } = suite);
});

jest.setTimeout(240_000);

async function waitingQuestions(count: number, prefix: string) {
  const type = await root.call<Saved>('POST', '/api/type', { typeName: `${prefix}分类` });
  const user = await root.call<Saved>('POST', '/api/user', { loginId: `${prefix}-asker`, nickname: `${prefix}提问者` });
  for (let i = 1; i <= count; i++) {
    await root.call('POST', '/api/issue', {
      issueTitle: `${prefix}待审问题 ${i}`,
      issueContent: `<p>${prefix}问题描述 ${i}</p>`,
      userId: user._id,
      typeId: type._id,
    });
  }
}

/** The count on the 审核台 menu entry's badge. */
async function badge(): Promise<number> {
  const label = await page.locator('[title^="待审 "]').first().getAttribute('title');
  return Number(/待审 (\d+) 项/.exec(label ?? '')?.[1] ?? Number.NaN);
}

async function waiting(): Promise<number> {
  return root.call<{ total: number }>('GET', '/api/review/counts').then((counts) => counts.total);
}

describe('审核台', () => {
  it('is laid out at every width without sideways scrolling', async () => {
    await waitingQuestions(3, '宽度');
    for (const width of [390, 768, 1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      // Not networkidle: the page keeps its live event stream open.
      await page.goto(`${server.url}/review`);
      await page.getByText('待审 3 项', { exact: true }).waitFor();
      await page.getByRole('listbox', { name: '审核队列' }).waitFor();
      // With items waiting, 通过 and 拒绝 act on the one with the focus.
      expect(await button(page, '通过').isEnabled()).toBe(true);
      expect(await button(page, '拒绝').isEnabled()).toBe(true);
      expect(await pageOverflow(page)).toBe(0);
      // The buttons fade in from the first, empty render's disabled look: shot once it has run.
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
      await screenshot(page, `review-${width}`);
      if (width >= 1280) {
        // The menu's count sits on its entry's line, after the title (not pushed below it).
        const title = await page.locator('.ant-menu').getByText('审核台', { exact: true }).boundingBox();
        const badge = await page.getByTestId('review-badge').boundingBox();
        expect(title && badge).toBeTruthy();
        const middle = badge!.y + badge!.height / 2;
        expect(middle).toBeGreaterThan(title!.y);
        expect(middle).toBeLessThan(title!.y + title!.height);
        expect(badge!.x).toBeGreaterThan(title!.x + title!.width);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('clears a queue of 20 from the keyboard alone, the badge down to 0', async () => {
    // Whatever an earlier case left waiting is approved through the API first.
    const left = await root.call<{ data: Array<{ kind: string; id: string }> }>('GET', '/api/review?pageSize=100');
    if (left.data.length) {
      await root.call('POST', '/api/review/decisions', { items: left.data.map(({ kind, id }) => ({ kind, id })), decision: 'approve' });
    }
    await root.call('POST', '/api/review/reasons', { text: '广告引流' });
    await waitingQuestions(ITEMS, '键盘');
    pointerEvents = [];
    await page.exposeFunction('__pointerEvent', (type: string) => pointerEvents.push(type));
    await page.addInitScript(() => {
      const report = (window as unknown as { __pointerEvent: (type: string) => void }).__pointerEvent;
      for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'wheel']) {
        window.addEventListener(type, (event) => report(event.type), true);
      }
    });
    await page.goto(`${server.url}/review`);
    const list = page.getByRole('listbox', { name: '审核队列' });
    await list.waitFor();
    await eventually(badge, ITEMS, 15_000);

    // Tab to the queue.
    for (let press = 0; press < 120; press++) {
      if (await list.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    expect(await list.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.getByRole('status').innerText()).toMatch(/^第 1 项，共 20 项：问答「键盘待审问题 1」$/);

    // j and k move; ? shows the keys and Escape closes it.
    await page.keyboard.press('j');
    await eventually(() => page.getByRole('status').innerText(), '第 2 项，共 20 项：问答「键盘待审问题 2」');
    await page.keyboard.press('k');
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: '快捷键' }).waitFor();
    // The dialog takes the focus once it has opened: Escape is heard there.
    await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]'));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: '快捷键' }).waitFor({ state: 'hidden' });

    // x selects two, a approves both at once.
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('a');
    await eventually(waiting, ITEMS - 2, 15_000);
    await eventually(badge, ITEMS - 2, 15_000);

    // r then 1: rejected with the first kept reason; u undoes it.
    await page.keyboard.press('r');
    await page.getByRole('dialog', { name: '拒绝理由' }).waitFor();
    await page.getByRole('textbox', { name: '拒绝理由' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === '拒绝理由');
    await page.keyboard.press('1');
    await eventually(waiting, ITEMS - 3, 15_000);
    // The dialog gives the focus back to the queue once it has closed.
    await page.getByRole('dialog', { name: '拒绝理由' }).waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'listbox');
    await page.keyboard.press('u');
    await eventually(waiting, ITEMS - 2, 15_000);

    // The rest, one a at a time.
    for (let left = ITEMS - 2; left > 0; left--) {
      // The queue has reloaded (and takes keys again) once it says what is left.
      await page.getByText(`待审 ${left} 项`, { exact: true }).waitFor();
      await page.keyboard.press('a');
      await eventually(waiting, left - 1, 15_000);
    }
    await eventually(badge, 0, 15_000);
    await page.getByText('队列已清空').waitFor();
    expect(pointerEvents).toEqual([]);
  });
});
