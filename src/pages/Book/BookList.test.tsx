import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope, refusal } from '@/testing/fakeNetwork';
import {
  clickSearch,
  confirmButton,
  CSS_TYPE,
  findConfirmButton,
  JS_TYPE,
  listScreenNetwork,
  openList,
  pageReply,
} from '@/testing/listScreen';
import type { Book } from '#contract/book';

const book = (n: number, bookTitle: string, extra: Partial<Book> = {}): Book => ({
  _id: `65f1a2b3c4d5e6f708192e${String(n).padStart(2, '0')}`,
  version: 1,
  bookTitle,
  bookPic: '/static/uploads/cover.png',
  downloadLink: 'https://pan.example.com/s/book',
  bookIntro: '<p>这是一本<strong>深入浅出</strong>讲解 JavaScript 的好书，值得一读。</p>',
  scanNumber: 30 + n,
  commentNumber: 5 + n,
  onShelfDate: 1_700_000_000_000,
  requirePoints: 20,
  typeId: JS_TYPE,
  ...extra,
});

let books: Book[];
const net = listScreenNetwork((req) =>
  req.method === 'GET' && req.url.startsWith('/api/book?') ? pageReply(req.url, books, 25) : undefined,
);
const { sent } = net;

beforeEach(() => {
  books = [book(1, '你不知道的JavaScript'), book(2, 'CSS 世界', { typeId: CSS_TYPE, bookPic: '' })];
});

const bookQueries = () => net.queriesTo('/api/book');

const openBooks = () => openList('/book/bookList', '你不知道的JavaScript', { selector: 'td' });

const rowOf = (title: string) => screen.getByText(title, { selector: 'td' }).closest('tr') as HTMLElement;

describe('book list', () => {
  it('asks for the first page of 10 without filters and shows each column', async () => {
    await openBooks();

    const [first] = bookQueries();
    expect([...first.keys()].sort()).toEqual(['current', 'pageSize']);
    expect(first.get('current')).toBe('1');
    expect(first.get('pageSize')).toBe('10');
    expect(document.querySelector('.ant-pro-table-list-toolbar-title')).toHaveTextContent('书籍列表');

    const row = within(rowOf('你不知道的JavaScript'));
    expect(row.getByText('1')).toBeInTheDocument();
    await waitFor(() => expect(row.getByText('JavaScript')).toHaveClass('ant-tag'));
    expect(row.getByText('这是一本深入浅出讲解 Java...')).toBeInTheDocument();
    expect(row.getByAltText('你不知道的JavaScript的封面')).toHaveAttribute('src', '/static/uploads/cover.png');
    expect(row.getByText('31')).toBeInTheDocument();
    expect(row.getByText('6')).toBeInTheDocument();
    expect(row.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();

    const second = within(rowOf('CSS 世界'));
    expect(second.getByText('2')).toBeInTheDocument();
    expect(second.getByText('CSS')).toHaveClass('ant-tag');
    expect(second.getByAltText('CSS 世界的封面')).toHaveAttribute('src', '/default-cover.svg');
  });

  it('sends the title and the chosen type to the query, and keeps them on the next page', async () => {
    await openBooks();

    fireEvent.change(screen.getByLabelText('书籍名称'), { target: { value: 'CSS' } });
    const typeSelect = screen.getByLabelText('书籍分类');
    fireEvent.mouseDown(typeSelect);
    const option = await screen.findByText('CSS', { selector: '.ant-select-item-option-content' });
    fireEvent.click(option);
    await clickSearch();

    await waitFor(() => expect(bookQueries().at(-1)?.get('typeId')).toBe(CSS_TYPE));
    expect(bookQueries().at(-1)?.get('bookTitle')).toBe('CSS');
    expect(bookQueries().at(-1)?.get('current')).toBe('1');

    await act(async () => {
      fireEvent.click(screen.getByTitle('2'));
    });
    await waitFor(() => expect(bookQueries().at(-1)?.get('current')).toBe('2'));
    expect(bookQueries().at(-1)?.get('bookTitle')).toBe('CSS');
    expect(bookQueries().at(-1)?.get('typeId')).toBe(CSS_TYPE);
    await waitFor(() => expect(within(rowOf('你不知道的JavaScript')).getByText('11')).toBeInTheDocument());
    expect(within(rowOf('CSS 世界')).getByText('12')).toBeInTheDocument();
  });

  it('drops a blank title from the query', async () => {
    await openBooks();

    fireEvent.change(screen.getByLabelText('书籍名称'), { target: { value: '   ' } });
    await clickSearch();

    await waitFor(() => expect(bookQueries().length).toBeGreaterThan(1));
    expect(bookQueries().at(-1)?.has('bookTitle')).toBe(false);
    expect(bookQueries().at(-1)?.has('typeId')).toBe(false);
  });

  it('deletes a book after the confirmation, says so and reloads the page', async () => {
    net.handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openBooks();
    const before = bookQueries().length;

    await act(async () => {
      fireEvent.click(within(rowOf('你不知道的JavaScript')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该书籍以及该书籍对应的评论？')).toBeInTheDocument();
    books = [books[1]];
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除书籍成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe('/api/book/65f1a2b3c4d5e6f708192e01');
    await waitFor(() => expect(bookQueries().length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByText('你不知道的JavaScript', { selector: 'td' })).toBeNull());
  });

  it('shows the server’s message when a delete is refused and keeps the row', async () => {
    net.handle = (req) => (req.method === 'DELETE' ? refusal(404, '书籍不存在') : undefined);
    await openBooks();

    await act(async () => {
      fireEvent.click(within(rowOf('你不知道的JavaScript')).getByText('删除'));
    });
    await act(async () => {
      fireEvent.click(await findConfirmButton(/删\s*除/));
    });

    expect(await screen.findByText('书籍不存在')).toBeInTheDocument();
    expect(screen.queryByText('删除书籍成功')).toBeNull();
    expect(rowOf('你不知道的JavaScript')).toBeInTheDocument();
  });

  it('opens the edit page of a book from 编辑', async () => {
    await openBooks();

    await act(async () => {
      fireEvent.click(within(rowOf('你不知道的JavaScript')).getByText('编辑'));
    });

    await waitFor(() => expect(sent.some((r) => r.method === 'GET' && r.url === '/api/book/65f1a2b3c4d5e6f708192e01')).toBe(true));
  });
});
