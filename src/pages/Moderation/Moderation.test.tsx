import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope, refusal } from '@/testing/fakeNetwork';
import { findConfirmButton, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import { adminWith } from '@/testing/signedInApp';
import type { ModerationSettings, ModerationWord, RecheckStatus } from '#contract/moderation';
import { splitBySpans } from './labels';

const word = (n: number, text: string, action: ModerationWord['action']): ModerationWord => ({
  _id: `65f1a2b3c4d5e6f708193f${String(n).padStart(2, '0')}`,
  word: text,
  action,
  createdAt: 1_700_000_000_000 + n,
});

let words: ModerationWord[];
let settings: ModerationSettings;
let recheck: RecheckStatus;
let proved: boolean;

const net = listScreenNetwork((req) => {
  if (req.method === 'GET' && req.url.startsWith('/api/moderation/words?')) return pageReply(req.url, words, words.length);
  if (req.method === 'POST' && req.url === '/api/moderation/test') {
    const text = (req.body as { text: string }).text;
    const at = text.indexOf('代开发票');
    return {
      status: 200,
      body: envelope(
        at < 0
          ? { action: 'pass', reasons: [], spans: [] }
          : {
              action: 'hold',
              reasons: [{ rule: 'word', action: 'hold', words: ['代开发票'] }],
              spans: [{ start: at, end: at + 4, text: '代开发票', word: '代开发票', action: 'hold' }],
            },
      ),
    };
  }
  if (req.url === '/api/settings/moderation') {
    // A write needs a fresh proof, as the server's config.reauth does.
    if (req.method === 'PATCH') {
      if (!proved) return refusal(403, '需要重新验证身份', 'REAUTH_REQUIRED');
      settings = { ...settings, ...(req.body as Partial<ModerationSettings>) };
    }
    return { status: 200, body: envelope(settings) };
  }
  if (req.method === 'POST' && req.url === '/api/admin/me/reauth') {
    proved = true;
    return { status: 200, body: envelope({ validUntil: Date.now() + 900_000 }) };
  }
  if (req.url === '/api/moderation/recheck') {
    if (req.method === 'POST')
      recheck = { running: false, startedAt: 1, finishedAt: 1_700_000_100_000, checked: 42, flagged: 3, error: null };
    return { status: req.method === 'POST' ? 202 : 200, body: envelope(recheck) };
  }
  return undefined;
});

beforeEach(() => {
  words = [word(1, '代开发票', 'hold'), word(2, '赌博网站', 'reject'), word(3, '加微信', 'flag')];
  settings = { holdFirstPosts: 0, holdLinksDays: 0 };
  recheck = { running: false, startedAt: null, finishedAt: null, checked: 0, flagged: 0, error: null };
  proved = false;
});

const rowOf = (text: string) => screen.getByText(text, { selector: 'td, td *' }).closest('tr') as HTMLElement;

describe('审核规则', () => {
  it('lists the words with their action as a tag; a normal admin may test but not change anything', async () => {
    await openList('/moderation', '赌博网站');
    expect(within(rowOf('代开发票')).getByText('待审', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(within(rowOf('赌博网站')).getByText('拒绝', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(within(rowOf('加微信')).getByText('标记', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(within(rowOf('加微信')).getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /添加敏感词/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*入/ })).toBeNull();
    expect(screen.queryByText('删除')).toBeNull();
    expect(screen.queryByText('账号规则')).toBeNull();
  });

  it('测试 shows the rule that fires and marks the matched words; a clean text passes', async () => {
    await openList('/moderation', '赌博网站');
    const box = screen.getByLabelText('输入一段文字，查看哪些规则会触发（不会保存）');
    fireEvent.change(box, { target: { value: '专业代开发票，价格优惠' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^测\s*试$/ }));
    });
    expect(await screen.findByText('结果：待审')).toBeInTheDocument();
    expect(screen.getByText('敏感词（待审）：代开发票')).toBeInTheDocument();
    const marked = screen.getByTestId('moderation-test-marked');
    expect(marked.querySelector('mark')).toHaveTextContent('代开发票');
    expect(marked).toHaveTextContent('专业代开发票，价格优惠');

    fireEvent.change(box, { target: { value: '今天天气很好' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^测\s*试$/ }));
    });
    expect(await screen.findByText('未命中任何规则：放行')).toBeInTheDocument();
  });

  it('a super admin adds a word with its action and deletes one behind a confirmation', async () => {
    net.me = adminWith(1);
    net.handle = (req) => {
      if (req.method === 'POST' && req.url === '/api/moderation/words') {
        const body = req.body as { word: string; action: ModerationWord['action'] };
        const added = word(9, body.word, body.action);
        words = [added, ...words];
        return { status: 201, body: envelope(added) };
      }
      if (req.method === 'DELETE' && req.url === `/api/moderation/words/${word(2, '', 'reject')._id}`) {
        words = words.filter((w) => w.word !== '赌博网站');
        return { status: 200, body: envelope(null) };
      }
      return undefined;
    };
    await openList('/moderation', '赌博网站');
    fireEvent.click(screen.getByRole('button', { name: /添加敏感词/ }));
    const dialog = await screen.findByRole('dialog', { name: '添加敏感词' });
    // Empty: said at the field, nothing sent, and no rejection left unhandled (a page error in a browser).
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /^添\s*加$/ }));
    });
    expect(await within(dialog).findByText('请输入敏感词')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    expect(net.sent.filter((r) => r.method === 'POST')).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('敏感词'), { target: { value: '  刷单返利 ' } });
    fireEvent.click(within(dialog).getByText('拒绝'));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /^添\s*加$/ }));
    });
    await screen.findByText('添加敏感词成功');
    expect(net.sent.find((r) => r.method === 'POST' && r.url === '/api/moderation/words')?.body).toEqual({
      word: '刷单返利',
      action: 'reject',
    });
    await screen.findByText('刷单返利');

    fireEvent.click(within(rowOf('赌博网站')).getByText('删除'));
    expect(await screen.findByText('确定要删除敏感词「赌博网站」吗？')).toBeInTheDocument();
    const ok = await findConfirmButton(/删\s*除/);
    await act(async () => {
      fireEvent.click(ok);
    });
    await screen.findByText('删除敏感词成功');
    await waitFor(() => expect(screen.queryByText('赌博网站')).toBeNull());
  });

  it('imports a text file (replace) and reports the counts; a refused file keeps the dialog open', async () => {
    net.me = adminWith(1);
    let refuse = true;
    net.handle = (req) => {
      if (req.method !== 'POST' || req.url !== '/api/moderation/words/file') return undefined;
      if (refuse) return refusal(400, '导入文件第 2 行无法识别');
      return { status: 200, body: envelope({ added: 1, updated: 1, removed: 1, unchanged: 0 }) };
    };
    await openList('/moderation', '赌博网站');
    fireEvent.click(screen.getByRole('button', { name: /导\s*入/ }));
    const dialog = await screen.findByRole('dialog', { name: '导入敏感词' });
    const file = new File(['代开发票\t拒绝\n刷单返利\t标记\n'], 'words.txt', { type: 'text/plain' });
    await act(async () => {
      fireEvent.change(dialog.querySelector('input[type="file"]') as HTMLInputElement, { target: { files: [file] } });
    });
    await within(dialog).findByText('已选择：words.txt');
    fireEvent.click(within(dialog).getByText('替换：文件成为整个词表'));
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /^导\s*入$/ }));
    });
    await screen.findByText('导入文件第 2 行无法识别');
    expect(screen.getByRole('dialog', { name: '导入敏感词' })).toBeInTheDocument();

    refuse = false;
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /^导\s*入$/ }));
    });
    await screen.findByText('导入完成：新增 1 个，更新 1 个，删除 1 个，未变 0 个');
    const sent = net.sent.filter((r) => r.url === '/api/moderation/words/file');
    expect(sent.at(-1)?.body).toEqual({ text: '代开发票\t拒绝\n刷单返利\t标记\n', mode: 'replace' });
  });

  it('账号规则: saving asks for a fresh proof first, then the change is sent again; 重新检查 reports its counts', async () => {
    net.me = adminWith(1);
    await openList('/moderation', '赌博网站');
    fireEvent.click(screen.getByRole('tab', { name: '账号规则' }));
    const first = await screen.findByLabelText('新账号的前 N 条问答和评论先审后发');
    fireEvent.change(first, { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('注册不满 D 天的账号发布带链接的内容先审后发'), { target: { value: '7' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    });
    // Refused with REAUTH_REQUIRED: 验证身份, then the same PATCH again.
    const reauth = await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.change(within(reauth).getByLabelText('密码', { selector: 'input[type="password"]' }), {
      target: { value: 'Live-Kestrel-7319' },
    });
    await act(async () => {
      fireEvent.click(within(reauth).getByRole('button', { name: /验证并继续/ }));
    });
    await screen.findByText('账号规则已保存', {}, { timeout: 10_000 });
    expect(settings).toEqual({ holdFirstPosts: 3, holdLinksDays: 7 });
    const patches = net.sent.filter((r) => r.method === 'PATCH' && r.url === '/api/settings/moderation');
    expect(patches.map((r) => r.body)).toEqual([
      { holdFirstPosts: 3, holdLinksDays: 7 },
      { holdFirstPosts: 3, holdLinksDays: 7 },
    ]);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /重新检查/ }));
    });
    expect(await screen.findByText(/^重新检查完成（.+）：共检查 42 条，3 条进入审核台$/)).toBeInTheDocument();
  });
});

describe('splitBySpans', () => {
  it('cuts the text into plain and matched stretches, skipping a span that overlaps one taken', () => {
    const spans = [
      { start: 4, end: 6, text: 'cd', word: 'cd', action: 'flag' as const },
      { start: 0, end: 2, text: 'xa', word: 'xa', action: 'hold' as const },
      { start: 5, end: 7, text: 'de', word: 'de', action: 'reject' as const },
    ];
    expect(splitBySpans('xabbcdef', spans)).toEqual([
      { text: 'xa', match: { word: 'xa', action: 'hold' } },
      { text: 'bb' },
      { text: 'cd', match: { word: 'cd', action: 'flag' } },
      { text: 'ef' },
    ]);
  });
});
