import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';

// A file with jest.mock goes through Babel without its TypeScript preset, which refuses imported
// names in type positions: the types come in as import types instead.
type FakeReply = import('@/testing/fakeNetwork').FakeReply;
type FakeRequest = import('@/testing/fakeNetwork').FakeRequest;
type Book = import('#contract/book').Book;

// The editor (tiptap, loaded lazily) has its own tests; here a textarea holds the HTML.
jest.mock('@/components/RichEditor', () => ({
  __esModule: true,
  default: ({ value, onChange, placeholder }: { value?: string; onChange?: (html: string) => void; placeholder?: string }) => (
    <textarea
      aria-label="书籍介绍内容"
      placeholder={placeholder}
      value={value ?? ''}
      onChange={(event) => onChange?.(event.target.value)}
    />
  ),
}));

const TYPE_ID = '65f1a2b3c4d5e6f708192b01';

let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') {
    return {
      status: 200,
      body: envelope({ _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2 }),
    };
  }
  if (req.method === 'GET' && req.url === '/api/type') {
    return {
      status: 200,
      body: envelope([
        { _id: TYPE_ID, typeName: 'JavaScript', createdAt: 1 },
        { _id: '65f1a2b3c4d5e6f708192b02', typeName: 'CSS', createdAt: 2 },
      ]),
    };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/book?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 0, totalPage: 0, data: [] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function openForm() {
  render(<TestBrowser location={{ pathname: '/book/addBook' }} />);
  await screen.findByLabelText('书籍标题', {}, { timeout: 20_000 });
}

/** The form item whose label is `label`. */
const fieldOf = (label: string) => screen.getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

async function choose(label: string, option: string) {
  const selector = fieldOf(label).querySelector('.ant-select-selector') as HTMLElement;
  fireEvent.mouseDown(selector);
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find(
      (node) => node.textContent === option,
    );
    if (!found) throw new Error(`option ${option} not shown yet`);
    return found as HTMLElement;
  });
  fireEvent.click(item);
}

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /确认新增/ }));
  });
}

async function fillValidBook() {
  type('书籍标题', '  JavaScript 高级程序设计 ');
  type('书籍介绍内容', '<p>红宝书</p>');
  type('下载链接', 'https://pan.example.com/s/red-book');
  await choose('所需积分', '30');
  await choose('书籍分类', 'JavaScript');
}

describe('add book', () => {
  it('names every required field that is left empty', async () => {
    await openForm();

    await submit();

    for (const text of ['请输入书名', '请输入书本相关的介绍', '请输入书籍链接', '请选择下载所需积分', '请选择书籍分类']) {
      expect(await screen.findByText(text, { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    }
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });

  it('refuses a title of spaces and an introduction without visible text', async () => {
    await openForm();

    type('书籍标题', '   ');
    type('书籍介绍内容', '<p> </p>');
    await submit();

    expect(await screen.findByText('请输入书名', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(screen.getByText('请输入书本相关的介绍', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
  });

  it.each(['pan.example.com/s/red-book', 'ftp://pan.example.com/red-book', 'https://pan.example.com/red book'])(
    'refuses the download link %p as not an http(s) address',
    async (link) => {
      await openForm();

      type('下载链接', link);
      await submit();

      expect(
        await screen.findByText('请输入以 http:// 或 https:// 开头的有效链接', { selector: '.ant-form-item-explain-error' }),
      ).toBeInTheDocument();
      expect(sent.some((r) => r.method === 'POST')).toBe(false);
    },
  );

  it('posts the book, says 「添加书籍成功」 and goes back to the list', async () => {
    handle = (req) => (req.method === 'POST' && req.url === '/api/book' ? { status: 201, body: envelope({} as Book) } : undefined);
    await openForm();
    await fillValidBook();
    type('封面地址', '/static/uploads/65f1a2b3c4d5e6f708192f01.png');

    await submit();

    expect(await screen.findByText('添加书籍成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      bookTitle: 'JavaScript 高级程序设计',
      bookIntro: '<p>红宝书</p>',
      downloadLink: 'https://pan.example.com/s/red-book',
      requirePoints: 30,
      typeId: TYPE_ID,
      bookPic: '/static/uploads/65f1a2b3c4d5e6f708192f01.png',
    });
    await waitFor(() => expect(sent.some((r) => r.method === 'GET' && r.url.startsWith('/api/book?'))).toBe(true));
  });

  it("sends an empty cover as '' so that the server gives the default one", async () => {
    handle = (req) => (req.method === 'POST' ? { status: 201, body: envelope({} as Book) } : undefined);
    await openForm();
    await fillValidBook();

    await submit();

    await screen.findByText('添加书籍成功');
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ bookPic: '' });
  });

  it('shows the server’s refusal and keeps the form', async () => {
    handle = (req) => (req.method === 'POST' ? refusal(400, '分类不存在') : undefined);
    await openForm();
    await fillValidBook();

    await submit();

    expect(await screen.findByText('分类不存在')).toBeInTheDocument();
    expect(screen.queryByText('添加书籍成功')).toBeNull();
    expect(screen.getByLabelText('书籍标题')).toHaveValue('  JavaScript 高级程序设计 ');
    expect(sent.some((r) => r.method === 'GET' && r.url.startsWith('/api/book?'))).toBe(false);
  });
});
