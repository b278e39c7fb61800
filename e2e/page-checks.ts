/**
 * Checks of a page as it is drawn, shared by the browser tests: a screen opened and settled, texts
 * that wrap, a page wider than its window, table columns squeezed to nothing, axe-core's
 * accessibility violations, and what the keyboard's focus is on.
 */
import path from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { eventually } from './suite';

// Streams a page keeps open for as long as it is shown (审核台's live events, in the menu's badge):
// Playwright's 'networkidle' never comes while one is open, so they are left out of "settled".
const LIVE_STREAMS = /\/api\/review\/events/;

/**
 * Starts counting the page's requests in flight (the live streams aside); `settled()` then waits
 * until none has been in flight for 500 ms, as 'networkidle' does.
 */
export function trackRequests(page: Page) {
  const inFlight = new Set<Request>();
  const add = (request: Request) => {
    if (!LIVE_STREAMS.test(request.url())) inFlight.add(request);
  };
  const remove = (request: Request) => inFlight.delete(request);
  page.on('request', add);
  page.on('requestfinished', remove);
  page.on('requestfailed', remove);
  return {
    async settled(quietMs = 500, timeoutMs = 15_000) {
      try {
        const started = Date.now();
        let quietSince = Date.now();
        while (Date.now() - started < timeoutMs) {
          await page.waitForTimeout(50);
          if (inFlight.size) quietSince = Date.now();
          else if (Date.now() - quietSince >= quietMs) return;
        }
        throw new Error(`requests still in flight after ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
      } finally {
        page.off('request', add);
        page.off('requestfinished', remove);
        page.off('requestfailed', remove);
      }
    },
  };
}

/**
 * Opens `url` and waits until `ready` shows and no table is loading. A visible `ready`: the side
 * menu, folded on a tablet, holds hidden entries of the same text (操作日志, 回收站).
 */
export async function visit(page: Page, url: string, ready: string) {
  const requests = trackRequests(page);
  await page.goto(url);
  await page.getByText(ready, { exact: true }).filter({ visible: true }).first().waitFor();
  await page
    .locator('.ant-spin-spinning, .ant-skeleton-active')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await requests.settled();
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

/**
 * pageOverflow once the layout has settled after a resize: antd lays some parts out again from a
 * ResizeObserver a frame or more later (the tabs' overflow menu), which a loaded machine delays.
 * Answers 0 as soon as the page fits, or what still overflows after `withinMs`.
 */
export async function settledPageOverflow(page: Page, withinMs = 2000): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const overflow = await pageOverflow(page);
    if (overflow <= 0 || Date.now() >= deadline) return overflow;
    await page.waitForTimeout(100);
  }
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

/**
 * axe-core's violations on the page as it is now, as `rule (impact): element` lines. The page's
 * context needs `bypassCSP`: the server's Content-Security-Policy allows no inline script, which
 * is how axe-core is put into the page.
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  // `within`: a selector of the part to check (one card of a screen), else the whole document.
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: object) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  }, within ?? null);
  return violations.flatMap((violation) =>
    violation.nodes
      .filter((node) => !setAside(violation, node))
      .map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${violation.help}`),
  );
}

/** The focused element as the keyboard user sees it. */
export interface Focused {
  /** Its tag, role and accessible text, e.g. `BUTTON 删除`. */
  name: string;
  /** Inside the window and not hidden. */
  visible: boolean;
  /** Drawn with a focus ring: an outline of 2 px or more, or a box shadow. */
  ring: boolean;
  /** The text of the table row it is in ('' outside a table). */
  row: string;
  /** Inside a popup: a Popconfirm's or a Popover's (role tooltip). */
  popup: boolean;
}

/**
 * The element with the focus, and whether a focus ring is drawn for it. Some controls draw their
 * ring on a part beside or around the focused element: antd's checkbox on the box after its
 * transparent input, a select on the frame two levels above its search input. So the element,
 * its next sibling and its three nearest ancestors are looked at.
 */
export function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    const visible =
      style.visibility !== 'hidden' && rect.bottom > 0 && rect.right > 0 && rect.top < window.innerHeight && rect.left < window.innerWidth;
    const drawsRing = (part: Element | null) => {
      if (!part) return false;
      const partStyle = getComputedStyle(part);
      const outline = partStyle.outlineStyle !== 'none' && Number.parseFloat(partStyle.outlineWidth) >= 2;
      return outline || (partStyle.boxShadow !== 'none' && partStyle.boxShadow !== '');
    };
    const parts = [element, element.nextElementSibling, element.parentElement, element.parentElement?.parentElement ?? null];
    parts.push(parts[3]?.parentElement ?? null);
    const input = element as HTMLInputElement;
    const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30) || input.placeholder || '';
    return {
      name: `${element.tagName} ${element.getAttribute('role') ?? ''} ${text}`.replace(/\s+/g, ' ').trim(),
      visible,
      ring: parts.some(drawsRing),
      row: element.closest('tr')?.textContent ?? '',
      popup: element.closest('[role="tooltip"]') !== null,
    };
  });
}

/**
 * Waits until the open modal holds the focus. antd's Modal takes it once its opening animation has
 * run, so a control focused inside it before then loses the focus again, and a key pressed then
 * goes to the modal's frame instead.
 */
export function focusInDialog(page: Page): Promise<unknown> {
  return page.waitForFunction(() => document.activeElement?.closest('.ant-modal') !== null);
}

/**
 * Waits until no dialog, drawer or popup is still moving (antd's zoom, fade and slide motions).
 * A pointer click aims at the box an element has when the click starts; while a dialog still
 * zooms in (its motion waits for its start longer on a loaded machine) that box is not where the
 * button ends up, so the click lands beside it and nothing happens: no call, no message.
 */
export function overlaysSettled(page: Page): Promise<unknown> {
  return page.waitForFunction(() => {
    const overlays =
      '.ant-modal, .ant-modal-mask, .ant-popover, .ant-drawer-content-wrapper, .ant-drawer-mask, .ant-dropdown, .ant-select-dropdown';
    const moving = /-(appear|enter|leave)(-|\s|$)/;
    for (const element of document.querySelectorAll(overlays)) if (moving.test(element.className)) return false;
    return document.getAnimations().every((animation) => {
      const effect = animation.effect as KeyframeEffect | null;
      const target = effect?.target;
      // A spinner turns for ever; only what ends is waited for.
      if (!(target instanceof Element) || !target.closest(overlays) || effect?.getTiming().iterations === Infinity) return true;
      return animation.playState === 'finished';
    });
  });
}

/** Clicks `target` inside a dialog, drawer or popup once nothing there moves any more (overlaysSettled). */
export async function clickSettled(target: Locator): Promise<void> {
  await target.waitFor();
  await overlaysSettled(target.page());
  await target.click();
}

/** The OK button of the confirmation (Popconfirm) open now. */
export const popconfirmOk = (page: Page): Locator => page.locator('.ant-popconfirm:visible .ant-btn-primary').last();

/** Confirms the open Popconfirm by pointer, once it has stopped moving. */
export function confirmPopconfirm(page: Page): Promise<void> {
  return clickSettled(popconfirmOk(page));
}

/** Focuses `target` and waits until it holds the focus, so that the next key press is its own. */
export async function focusOn(target: Locator): Promise<void> {
  await target.focus();
  await eventually(() => target.evaluate((element) => element === document.activeElement), true);
}

/** With E2E_SCREENSHOTS=<folder>, a full-page picture of `page` as `<name>.png` there; nothing otherwise. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (folder) await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}
