import zlib from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { clickSettled, confirmPopconfirm } from './page-checks';
import { ADMIN_LOGIN, ADMIN_PASSWORD, signIn, expectMessage, type RunningServer, type ApiClient } from './support';
import { browserSuite, eventually, button, type Saved } from './suite';

const EDITOR_LOGIN = 'e2e-editor';
const EDITOR_PASSWORD = 'editor-password';

let server: RunningServer;
let context: BrowserContext;
let page: Page;
let root: ApiClient;

browserSuite(
  {
    setup: async (admin) => {
      await admin.call('POST', '/api/admin', { loginId: EDITOR_LOGIN, loginPwd: EDITOR_PASSWORD, nickname: 'e2e 编辑', permission: 2 });
    },
  },
  (suite) => {
    ({ server, context, page, root } = suite);
  },
);

async function signInAs(loginId: string, password: string) {
  await signIn(page, server.url, loginId, password);
  await page.waitForURL(/\/home$/);
}

/** The open Popconfirm's OK button (its primary one). */

const tableRow = (text: string) => page.locator('.ant-table-tbody tr', { hasText: text });

/** A PNG of the given size, one colour: enough for the cropper and the server's byte check. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x5a)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Picks an option of the antd Select inside the form item labelled `label`. */
async function chooseOption(label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** The number on the home page's 待审核问答 card. */
async function waitingOnHome(): Promise<number> {
  await page.goto(`${server.url}/home`);
  const card = page.locator('.ant-card, .ant-statistic', { hasText: '待审核问答' }).last();
  const value = card.locator('.ant-statistic-content-value').first();
  await value.waitFor();
  return Number((await value.innerText()).replace(/[^\d]/g, ''));
}

jest.setTimeout(120_000);

describe('content management in a real browser', () => {
  it('a normal admin adds a type, adds a book with a cover and rich text, finds it, edits it and deletes it', async () => {
    await signInAs(EDITOR_LOGIN, EDITOR_PASSWORD);

    await page.goto(`${server.url}/typeList`);
    await page.getByPlaceholder('填写新增类型').fill('端到端类型');
    await button(page, '新增').click();
    await expectMessage(page, '新增类型成功');

    await page.goto(`${server.url}/book/addBook`);
    await page.getByLabel('书籍标题').fill('端到端测试之书');
    const editor = page.locator('.ProseMirror').first();
    await editor.click();
    await editor.pressSequentially('一本用来测试的书。');
    await page.getByLabel('下载链接').fill('https://example.com/e2e-book.pdf');
    await chooseOption('所需积分', '20');
    await chooseOption('书籍分类', '端到端类型');
    const cover = page.locator('.ant-form-item', { hasText: '书籍封面' });
    await cover.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(300, 400) });
    // antd-img-crop shows its modal; accept the crop, then the upload runs.
    await clickSettled(page.locator('.ant-modal:visible .ant-btn-primary').last());
    await cover.locator('.ant-upload-list-item-done, .ant-upload-list-item img').first().waitFor();
    await page
      .getByRole('button', { name: /确\s*认|提\s*交|新\s*增|保\s*存/ })
      .last()
      .click();
    await expectMessage(page, '添加书籍成功');
    await page.waitForURL(/\/book\/bookList$/);

    await page.getByLabel('书籍名称').fill('测试之书');
    await chooseOption('书籍分类', '端到端类型');
    await page.keyboard.press('Escape');
    await page.locator('button', { hasText: /^查\s*询$/ }).click();
    const row = tableRow('端到端测试之书');
    await row.waitFor();
    expect(await row.locator('img').first().getAttribute('src')).toMatch(/^\/static\/uploads\/[^/]+\.(png|jpe?g|webp)$/);
    await expect(row.innerText()).resolves.toContain('端到端类型');

    await row.getByText('编辑').click();
    await page.waitForURL(/\/book\/editBook\/[0-9a-f]{24}$/);
    const title = page.getByLabel('书籍标题');
    await eventually(() => title.inputValue(), '端到端测试之书');
    await title.fill('端到端测试之书（第二版）');
    await page
      .getByRole('button', { name: /确\s*认|提\s*交|修\s*改|保\s*存/ })
      .last()
      .click();
    await expectMessage(page, '书籍信息修改成功');
    await page.waitForURL(/\/book\/bookList$/);

    const edited = tableRow('端到端测试之书（第二版）');
    await edited.waitFor();
    await edited.getByText('删除', { exact: true }).click();
    await page.getByText('是否要删除该书籍以及该书籍对应的评论？').waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '删除书籍成功');
    await eventually(() => tableRow('端到端测试之书').count(), 0);
  });

  it('approving an issue lowers the home page count of issues waiting for review', async () => {
    const type = await root.call<Saved>('POST', '/api/type', { typeName: '审核类型' });
    const user = await root.call<Saved>('POST', '/api/user', { loginId: 'asker', nickname: '提问者' });
    await root.call('POST', '/api/issue', {
      issueTitle: '等待审核的端到端问题',
      issueContent: '<p>请帮我看看这段代码</p>',
      userId: user._id,
      typeId: type._id,
    });

    await signInAs(EDITOR_LOGIN, EDITOR_PASSWORD);
    const before = await waitingOnHome();
    expect(before).toBeGreaterThanOrEqual(1);

    await page.goto(`${server.url}/issue`);
    const row = tableRow('等待审核的端到端问题');
    await row.waitFor();
    await row.getByRole('switch').click();
    await expectMessage(page, '该问题审核已通过');

    await eventually(waitingOnHome, before - 1, 15_000);
  });

  it("deleting a comment lowers its issue's comment count", async () => {
    const type = await root.call<Saved>('POST', '/api/type', { typeName: '评论类型' });
    const user = await root.call<Saved>('POST', '/api/user', { loginId: 'commenter', nickname: '评论者' });
    const issue = await root.call<Saved>('POST', '/api/issue', {
      issueTitle: '有两条评论的问题',
      issueContent: '<p>问题描述</p>',
      userId: user._id,
      typeId: type._id,
    });
    for (const text of ['第一条端到端评论', '第二条端到端评论']) {
      await root.call('POST', '/api/comment', { userId: user._id, commentType: 1, issueId: issue._id, commentContent: `<p>${text}</p>` });
    }

    await signInAs(EDITOR_LOGIN, EDITOR_PASSWORD);
    await page.goto(`${server.url}/commentList`);
    const row = tableRow('第一条端到端评论');
    await row.waitFor();
    await row.getByText('删除', { exact: true }).click();
    await page.getByText('是否要删除该条评论？').waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '删除评论成功');
    await eventually(() => tableRow('第一条端到端评论').count(), 0);

    await page.goto(`${server.url}/issue/${issue._id}`);
    await page.getByText('有两条评论的问题').first().waitFor();
    const count = page.locator('.ant-descriptions-item-label', { hasText: /^评论数$/ }).locator('xpath=following-sibling::*[1]');
    await eventually(() => count.first().innerText(), '1');
    expect((await root.call<{ commentNumber: number }>('GET', `/api/issue/${issue._id}`)).commentNumber).toBe(1);
  });

  it('deleting a user is offered to a super admin only', async () => {
    await root.call('POST', '/api/user', { loginId: 'deletable-user', nickname: '待清理的账号' });

    await signInAs(EDITOR_LOGIN, EDITOR_PASSWORD);
    await page.goto(`${server.url}/user/userList`);
    const editorRow = tableRow('deletable-user');
    await editorRow.waitFor();
    await editorRow.getByText('编辑').waitFor();
    expect(await editorRow.getByText('删除', { exact: true }).count()).toBe(0);

    await context.clearCookies();
    await page.evaluate(() => localStorage.removeItem('adminToken'));
    await signInAs(ADMIN_LOGIN, ADMIN_PASSWORD);
    await page.goto(`${server.url}/user/userList`);
    const superRow = tableRow('deletable-user');
    await superRow.waitFor();
    await superRow.getByText('删除', { exact: true }).click();
    await page.getByText('删除该用户将同时删除其 0 个问答和 0 条评论，确定要删除吗？').waitFor();
    await confirmPopconfirm(page);
    await expectMessage(page, '删除用户成功');
    await eventually(() => tableRow('deletable-user').count(), 0);
  });
});
