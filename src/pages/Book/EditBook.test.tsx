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

const JS_TYPE = '65f1a2b3c4d5e6f708192b01';
const CSS_TYPE = '65f1a2b3c4d5e6f708192b02';

const book: Book = {
  _id: '65f1a2b3c4d5e6f708192e01',
  version: 1,
  bookTitle: '你不知道的JavaScript',
  bookPic: '/static/uploads/65f1a2b3c4d5e6f708192f01.png',
  downloadLink: 'https://pan.example.com/s/ydkjs',
  bookIntro: '<p>深入语言内部</p>',
  scanNumber: 120,
  commentNumber: 8,
  onShelfDate: 1_700_000_000_000,
  requirePoints: 20,
  typeId: JS_TYPE,
};
const BOOK_URL = `/api/book/${book._id}`;

let answerBook: () => FakeReply | Promise<FakeReply>;
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
        { _id: JS_TYPE, typeName: 'JavaScript', createdAt: 1 },
        { _id: CSS_TYPE, typeName: 'CSS', createdAt: 2 },
      ]),
    };
  }
  if (req.method === 'GET' && req.url === BOOK_URL) return answerBook();
  if (req.method === 'GET' && req.url.startsWith('/api/book?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 0, totalPage: 0, data: [] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  answerBook = () => ({ status: 200, body: envelope(book) });
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

function openEdit(id = book._id) {
  render(<TestBrowser location={{ pathname: `/book/editBook/${id}` }} />);
}

/** The form item whose label is `label`. */
const fieldOf = (label: string) => screen.getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

async function choose(label: string, option: string) {
  fireEvent.mouseDown(fieldOf(label).querySelector('.ant-select-selector') as HTMLElement);
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find(
      (node) => node.textContent === option,
    );
    if (!found) throw new Error(`option ${option} not shown yet`);
    return found as HTMLElement;
  });
  fireEvent.click(item);
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /确认修改/ }));
  });
}

describe('edit book', () => {
  it('shows a loading state until the book arrives, then fills the form with it', async () => {
    let arrive: (reply: FakeReply) => void = () => undefined;
    answerBook = () => new Promise((resolve) => (arrive = resolve));
    openEdit();

    await waitFor(() => expect(document.querySelector('.ant-skeleton')).not.toBeNull(), { timeout: 20_000 });
    expect(screen.queryByLabelText('书籍标题')).toBeNull();
    await act(async () => arrive({ status: 200, body: envelope(book) }));

    expect(await screen.findByLabelText('书籍标题')).toHaveValue('你不知道的JavaScript');
    expect(document.querySelector('.ant-skeleton')).toBeNull();
    expect(screen.getByLabelText('书籍介绍内容')).toHaveValue('<p>深入语言内部</p>');
    expect(screen.getByLabelText('下载链接')).toHaveValue('https://pan.example.com/s/ydkjs');
    expect(fieldOf('所需积分')).toHaveTextContent('20');
    await waitFor(() => expect(fieldOf('书籍分类')).toHaveTextContent('JavaScript'));
    expect(screen.getByLabelText('封面地址')).toHaveValue(book.bookPic);
  });

  it('PATCHes only the form’s fields, says 「书籍信息修改成功」 and goes back to the list', async () => {
    handle = (req) =>
      req.method === 'PATCH' ? { status: 200, body: envelope({ ...book, bookTitle: '你不知道的JavaScript（上卷）' }) } : undefined;
    openEdit();
    await screen.findByLabelText('书籍标题', {}, { timeout: 20_000 });

    fireEvent.change(screen.getByLabelText('书籍标题'), { target: { value: '你不知道的JavaScript（上卷）' } });
    await choose('所需积分', '40');
    await choose('书籍分类', 'CSS');
    await submit();

    expect(await screen.findByText('书籍信息修改成功')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(BOOK_URL);
    expect(patch?.body).toEqual({
      bookTitle: '你不知道的JavaScript（上卷）',
      bookIntro: '<p>深入语言内部</p>',
      downloadLink: 'https://pan.example.com/s/ydkjs',
      requirePoints: 40,
      typeId: CSS_TYPE,
      bookPic: book.bookPic,
      version: 1,
    });
    await waitFor(() => expect(sent.some((r) => r.method === 'GET' && r.url.startsWith('/api/book?'))).toBe(true));
  });

  it('does not send an edit that leaves a required field empty', async () => {
    openEdit();
    await screen.findByLabelText('书籍标题', {}, { timeout: 20_000 });

    fireEvent.change(screen.getByLabelText('下载链接'), { target: { value: '' } });
    await submit();

    expect(await screen.findByText('请输入书籍链接', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(sent.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('shows the server’s message for a book that does not exist, with the way back', async () => {
    answerBook = () => refusal(404, '书籍不存在');
    openEdit();

    expect(await screen.findByText('书籍不存在', { selector: '.ant-empty-description' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByLabelText('书籍标题')).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回书籍列表' }));
    });
    await waitFor(() => expect(sent.some((r) => r.method === 'GET' && r.url.startsWith('/api/book?'))).toBe(true));
  });
});
