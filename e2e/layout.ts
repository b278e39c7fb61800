/**
 * Layout checks shared by the browser tests: a screen opened and settled, texts that wrap, a page
 * wider than its window, table columns squeezed to nothing.
 */
import type { Page } from 'playwright-core';

/**
 * Opens `url` and waits until `ready` shows and no table is loading. A visible `ready`: the side
 * menu, folded on a tablet, holds hidden entries of the same text (操作日志, 回收站).
 */
export async function visit(page: Page, url: string, ready: string) {
  await page.goto(url);
  await page.getByText(ready, { exact: true }).filter({ visible: true }).first().waitFor();
  await page
    .locator('.ant-spin-spinning, .ant-skeleton-active')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');
}

/**
 * Texts inside `selector` that take more than one line: a text node laid out on several line
 * boxes has several client rects (a header broken 审核/状态, a link 详/情, a label 提问用/户).
 */
export function wrappedTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const wrapped: string[] = [];
    for (const element of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        if (!text) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
        if (lines.size > 1) wrapped.push(text);
      }
    }
    return wrapped;
  }, selector);
}

/** How many pixels the page itself scrolls sideways (0 when it fits its window). */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
}

/** The titled table columns narrower than `min` px, as `title: width` (the checkbox column has no title). */
export function narrowColumns(page: Page, min: number): Promise<string[]> {
  return page.evaluate(
    (least) =>
      Array.from(document.querySelectorAll<HTMLElement>('.ant-table-thead th'))
        .filter((th) => th.innerText.trim() !== '')
        .map((th) => ({ title: th.innerText.trim(), width: th.getBoundingClientRect().width }))
        .filter(({ width }) => width < least)
        .map(({ title, width }) => `${title}: ${Math.round(width)}`),
    min,
  );
}
