import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations, focused, narrowColumns, pageOverflow, visit, wrappedTexts, clickSettled, confirmPopconfirm } from './page-checks';
import { type ApiClient, CAPTCHA, expectMessage, type RunningServer } from './support';
import { browserSuite, button, eventually, type Saved } from './suite';
import { sitePage } from './site-page';

/*
 * 审核规则 (issue 25) in a real browser against the built server: a word added, a text tested, the
 * list exported and imported back, an account rule changed and 重新检查 run; the screen at the five
 * widths, axe-clean, and from the keyboard alone. Then a comment held by a 待审 word: a visitor does
 * not see it until an admin approves it in 审核台. E2E_SCREENSHOTS=<folder> keeps the pictures
 * (else a temporary folder, named in the log).
 */

let server: RunningServer;
let page: Page;
let root: ApiClient;

browserSuite({ signedIn: true, context: { bypassCSP: true } }, (suite) => {
  ({ server, page, root } = suite);
});

jest.setTimeout(240_000);

const shots = process.env.E2E_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'moderation-shots-'));
async function shot(name: string) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

const WORD = '端测拦截词';
const tableRow = (text: string) => page.locator('.ant-table-tbody tr', { hasText: text });
const dialog = (name: string) => page.getByRole('dialog', { name });

/** Presses Tab until the focused element's name matches (at most 120 presses). */
async function tabTo(name: RegExp) {
  for (let press = 0; press < 120; press++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now && name.test(now.name)) return now;
  }
  throw new Error(`${name} not reached from the keyboard`);
}

describe('审核规则', () => {
  beforeAll(() => console.log(`moderation screenshots: ${shots}`));

  it('adds a word, tests a text, exports and imports the list back, changes an account rule and re-checks', async () => {
    await visit(page, `${server.url}/moderation`, '敏感词');

    // 添加敏感词: 待审 is the default action.
    await page.getByRole('button', { name: /添加敏感词/ }).click();
    await dialog('添加敏感词').getByLabel('敏感词').fill(WORD);
    await button(dialog('添加敏感词'), '添加').click();
    await expectMessage(page, '添加敏感词成功');
    await tableRow(WORD).locator('.ant-tag', { hasText: '待审' }).waitFor();

    // 测试: the rule that fires, the matched word marked.
    await page.getByLabel('输入一段文字，查看哪些规则会触发（不会保存）').fill(`这段话里藏着${WORD}。`);
    await button(page, '测试').click();
    await page.getByText('结果：待审').waitFor();
    await page.getByText(`敏感词（待审）：${WORD}`).waitFor();
    expect(await page.getByTestId('moderation-test-marked').locator('mark').innerText()).toBe(WORD);
    await page.getByLabel('输入一段文字，查看哪些规则会触发（不会保存）').fill('今天天气很好');
    await button(page, '测试').click();
    await page.getByText('未命中任何规则：放行').waitFor();

    // 导出: the server's text file, one `word<TAB>action` a line.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出$/ }).click()]);
    expect(download.suggestedFilename()).toBe('敏感词.txt');
    const file = path.join(shots, 'exported-words.txt');
    await download.saveAs(file);
    expect(fs.readFileSync(file, 'utf8')).toContain(`${WORD}\t待审`);
    await expectMessage(page, '已导出 敏感词.txt');

    // Deleted, then 导入 of the exported file (替换) brings it back.
    await tableRow(WORD).getByRole('button', { name: '删除' }).click();
    await page.getByText(`确定要删除敏感词「${WORD}」吗？`).waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '删除敏感词成功');
    await tableRow(WORD).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /导\s*入$/ }).click();
    await dialog('导入敏感词').locator('input[type="file"]').setInputFiles(file);
    await dialog('导入敏感词').getByText('已选择：exported-words.txt').waitFor();
    await clickSettled(dialog('导入敏感词').getByText('替换：文件成为整个词表'));
    await clickSettled(button(dialog('导入敏感词'), '导入'));
    await expectMessage(page, '导入完成：新增 1 个，更新 0 个，删除 0 个，未变 0 个');
    await tableRow(WORD).locator('.ant-tag', { hasText: '待审' }).waitFor();

    // 账号规则: links from accounts younger than 5 days are held.
    await page.getByRole('tab', { name: '账号规则' }).click();
    const days = page.getByLabel('注册不满 D 天的账号发布带链接的内容先审后发');
    await days.fill('5');
    await button(page, '保存').click();
    await expectMessage(page, '账号规则已保存');
    expect(await root.call('GET', '/api/settings/moderation')).toEqual({ holdFirstPosts: 0, holdLinksDays: 5 });

    // 重新检查 over what is stored: nothing here contains a word yet.
    await page.getByRole('button', { name: /重新检查/ }).click();
    await page.getByText(/^重新检查完成（.+）：共检查 \d+ 条，0 条进入审核台$/).waitFor();
  });

  it('fits at 390, 768, 1280, 1440 and 1920 px (no sideways scroll, no squeezed column) and passes axe, both tabs', async () => {
    for (const width of [390, 768, 1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await visit(page, `${server.url}/moderation`, '敏感词');
      await tableRow(WORD).waitFor();
      // At 390 px the layout folds its title (the page's h1) into the menu, on every screen alike.
      const axeOf = async () => (await axeViolations(page)).filter((v) => !(width < 768 && v.startsWith('page-has-heading-one')));
      await page.getByLabel('输入一段文字，查看哪些规则会触发（不会保存）').fill(`一段包含${WORD}的文字`);
      await button(page, '测试').click();
      await page.getByText('结果：待审').waitFor();
      expect({ width, overflow: await pageOverflow(page) }).toEqual({ width, overflow: 0 });
      expect({ width, axe: await axeOf() }).toEqual({ width, axe: [] });
      // No column squeezed; from 1280 px no header or row action wraps (as every list, lists.e2e.ts).
      expect({ width, narrow: await narrowColumns(page, 40) }).toEqual({ width, narrow: [] });
      if (width >= 1280) {
        const wrapped = [
          ...(await wrappedTexts(page, '.ant-table-thead th')),
          ...(await wrappedTexts(page, '.ant-table-tbody td:last-child')),
        ];
        expect({ width, wrapped }).toEqual({ width, wrapped: [] });
      }
      await shot(`${width}-moderation-words`);

      await page.getByRole('tab', { name: '账号规则' }).click();
      await page.getByLabel('新账号的前 N 条问答和评论先审后发').waitFor();
      expect({ width, overflow: await pageOverflow(page) }).toEqual({ width, overflow: 0 });
      expect({ width, axe: await axeOf() }).toEqual({ width, axe: [] });
      await shot(`${width}-moderation-account`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('works from the keyboard alone: add a word, test a text, switch to 账号规则 and save', async () => {
    await visit(page, `${server.url}/moderation`, '敏感词');

    const add = await tabTo(/BUTTON .*添加敏感词/);
    expect([add.visible, add.ring]).toEqual([true, true]);
    await page.keyboard.press('Enter');
    await dialog('添加敏感词').waitFor();
    // The word's box has the focus; Enter sends the form.
    await page.waitForFunction(() => document.activeElement?.id === 'moderation-word_word');
    await page.keyboard.type('键盘添加词');
    await page.keyboard.press('Enter');
    await expectMessage(page, '添加敏感词成功');
    await tableRow('键盘添加词').waitFor();

    const box = await tabTo(/TEXTAREA/);
    expect([box.visible, box.ring]).toEqual([true, true]);
    await page.keyboard.type('键盘添加词出现了');
    const test = await tabTo(/BUTTON .*测\s*试/);
    expect([test.visible, test.ring]).toEqual([true, true]);
    await page.keyboard.press('Enter');
    await page.getByText('敏感词（待审）：键盘添加词').waitFor();

    // The tabs are one stop (the active tab); → moves to 账号规则 and Enter opens it. The page is
    // opened again so that Tab starts from its top.
    await visit(page, `${server.url}/moderation`, '敏感词');
    const tab = await tabTo(/^DIV tab .*敏感词$/);
    expect(tab.visible).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.getByLabel('新账号的前 N 条问答和评论先审后发').waitFor();
    const first = await tabTo(/INPUT .*/);
    expect(first.ring).toBe(true);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('0');
    const save = await tabTo(/BUTTON .*保\s*存/);
    expect([save.visible, save.ring]).toEqual([true, true]);
    await page.keyboard.press('Enter');
    await expectMessage(page, '账号规则已保存');
  });
});

// A small page of this test at the server's own origin makes the community site's calls (as in
// public.e2e.ts): sign up and comment as a member, or read a book's comments as a visitor.
const SITE_PAGE = sitePage(
  `<button id="signUp">注册</button><button id="say">评论</button><button id="read">看评论</button>`,
  `$('signUp').onclick = async () => {
  await fetch('/res/captcha');
  const { data } = await call('POST', '/api/user', { loginId: 'held-member', nickname: '被审核的会员', captcha: '${CAPTCHA}' });
  state.token = data.token;
};
$('say').onclick = () => call('POST', '/api/comment', { commentType: 2, bookId: '__BOOK__', issueId: null, commentContent: '<p>这本书的资源在待审暗号里</p>' });
$('read').onclick = () => call('GET', '/api/comment/bookcomment/__BOOK__?current=1&pageSize=10');
`,
);

describe('a comment held by a 待审 word', () => {
  it('is invisible to a visitor until approved in 审核台', async () => {
    await root.call('POST', '/api/moderation/words', { word: '待审暗号', action: 'hold' });
    const type = await root.call<Saved>('POST', '/api/type', { typeName: '审核规则书籍' });
    const book = await root.call<Saved>('POST', '/api/book', {
      bookTitle: '审核规则测试书',
      downloadLink: 'https://example.com/book',
      bookIntro: '<p>介绍</p>',
      requirePoints: 0,
      typeId: type._id,
    });

    const siteUrl = `${server.url}/__moderation-site-test.html`;
    const openSite = async (tab: Page) => {
      await tab.route(siteUrl, (route) =>
        route.fulfill({ contentType: 'text/html; charset=utf-8', body: SITE_PAGE.replaceAll('__BOOK__', book._id) }),
      );
      await tab.goto(siteUrl);
    };
    const press = async (tab: Page, id: string, expected: RegExp) => {
      await tab.locator(`#${id}`).click();
      await tab.locator('#out').filter({ hasText: expected }).waitFor();
    };

    // The member: signs up and comments; the post is taken (201) and held, not refused.
    const member = await page.context().browser()!.newContext();
    const memberPage = await member.newPage();
    await openSite(memberPage);
    await press(memberPage, 'signUp', /^201 .*"token"/);
    await press(memberPage, 'say', /^201 /);

    // A visitor (no token, no cookie of the member's) does not see it.
    const visitor = await page.context().browser()!.newContext();
    const visitorPage = await visitor.newPage();
    await openSite(visitorPage);
    await press(visitorPage, 'read', /^200 .*"count":0/);
    expect(await visitorPage.locator('#out').innerText()).not.toContain('待审暗号');

    // 审核台: the comment waits, named by its rule; approved from the keyboard.
    await page.goto(`${server.url}/review`);
    const list = page.getByRole('listbox', { name: '审核队列' });
    await list.waitFor();
    await page.getByText('待审 1 项', { exact: true }).waitFor();
    await list
      .getByText(/命中：待审暗号/)
      .first()
      .waitFor();
    for (let presses = 0; presses < 120; presses++) {
      if (await list.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    expect(await page.getByRole('status').innerText()).toMatch(/^第 1 项，共 1 项：评论/);
    await page.keyboard.press('a');
    await expectMessage(page, '已通过 1 项');
    await eventually(() => root.call<{ total: number }>('GET', '/api/review/counts').then((counts) => counts.total), 0);

    // Now the visitor sees it.
    await press(visitorPage, 'read', /^200 .*"count":1/);
    expect(await visitorPage.locator('#out').innerText()).toContain('这本书的资源在待审暗号里');
    await member.close();
    await visitor.close();
  });
});
