import { eq } from 'drizzle-orm';
import { books, comments } from '../../db/schema';
import { DEFAULT_BOOK_COVER } from '../../lib/defaults';
import { contentFixtures } from '../../../test/content';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';

let t: TestContext;
let token: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let userId: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('book-editor', 2)).token;
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('Node.js');
  userId = await fx.user();
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });
const BOOK_KEYS = [
  '_id',
  'bookIntro',
  'bookPic',
  'bookTitle',
  'commentNumber',
  'downloadLink',
  'onShelfDate',
  'requirePoints',
  'scanNumber',
  'typeId',
  'version',
];
const valid = () => ({
  bookTitle: '深入浅出 Node.js',
  downloadLink: 'https://pan.example.com/s/abc',
  bookIntro: '<p>经典</p>',
  requirePoints: 20,
  typeId,
});

async function createBook(payload: object) {
  return t.inject({ method: 'POST', url: '/api/book', ...as(), payload });
}

async function commentOn(bookId: string) {
  const response = await t.inject({
    method: 'POST',
    url: '/api/comment',
    ...as(),
    payload: { userId, commentType: 2, bookId, commentContent: '好书' },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
}

describe('POST /api/book', () => {
  it('creates a book with the default cover and zero counters', async () => {
    const response = await createBook(valid());
    expect(response.statusCode).toBe(201);
    const book = response.json().data;
    expect(Object.keys(book).sort()).toEqual(BOOK_KEYS);
    expect(book).toMatchObject({ ...valid(), bookPic: DEFAULT_BOOK_COVER, scanNumber: 0, commentNumber: 0 });
    expect(book.onShelfDate).toBeGreaterThan(0);
  });

  it('keeps a given cover, and takes an empty one as the default', async () => {
    const own = await createBook({ ...valid(), bookPic: '/static/uploads/cccccccccccccccccccccccc.jpg' });
    expect(own.json().data.bookPic).toBe('/static/uploads/cccccccccccccccccccccccc.jpg');
    const empty = await createBook({ ...valid(), bookPic: '' });
    expect(empty.json().data.bookPic).toBe(DEFAULT_BOOK_COVER);
  });

  it('stores the introduction without scripts, event attributes or javascript: links', async () => {
    const response = await createBook({
      ...valid(),
      bookIntro:
        '<h2 onclick="x()">目录</h2><script>alert(1)</script><p><a href="javascript:alert(1)">下载</a><a href="https://ok.example">官网</a></p>',
    });
    const [row] = await t.database.db.select().from(books).where(eq(books.id, response.json().data._id));
    expect(row.bookIntro).toBe(
      '<h2>目录</h2><p><a rel="noopener noreferrer nofollow">下载</a><a href="https://ok.example" rel="noopener noreferrer nofollow">官网</a></p>',
    );
  });

  it('refuses an unknown type with 400 分类不存在', async () => {
    const response = await createBook({ ...valid(), typeId: '0123456789abcdef01234567' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, code: 400, msg: '分类不存在', errorCode: 'BAD_REQUEST', data: null });
  });

  it.each([
    [{ bookTitle: '' }, 'bookTitle'],
    [{ downloadLink: 'ftp://files.example/book.pdf' }, 'downloadLink'],
    [{ downloadLink: 'javascript:alert(1)' }, 'downloadLink'],
    [{ downloadLink: 'not a url' }, 'downloadLink'],
    [{ requirePoints: -1 }, 'requirePoints'],
    [{ requirePoints: 2.5 }, 'requirePoints'],
    [{ requirePoints: 'ten' }, 'requirePoints'],
    [{ typeId: 'abc' }, 'typeId'],
    [{ bookPic: 'javascript:alert(1)' }, 'bookPic'],
    [{ bookIntro: '<script>alert(1)</script>' }, 'bookIntro'],
  ])('refuses %j with a 400 naming %s', async (change, field) => {
    const response = await createBook({ ...valid(), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it.each(['bookTitle', 'downloadLink', 'bookIntro', 'requirePoints', 'typeId'])('refuses a book without %s', async (field) => {
    const payload: Record<string, unknown> = valid();
    delete payload[field];
    const response = await createBook(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain(field);
  });

  it('ignores counters, dates and _id in the body', async () => {
    const response = await createBook({ ...valid(), _id: 'ffffffffffffffffffffffff', scanNumber: 5, commentNumber: 5, onShelfDate: 1 });
    expect(response.json().data).toMatchObject({ scanNumber: 0, commentNumber: 0 });
    expect(response.json().data._id).not.toBe('ffffffffffffffffffffffff');
    expect(response.json().data.onShelfDate).toBeGreaterThan(1);
  });
});

describe('GET /api/book/:id, PATCH, DELETE', () => {
  it('answers one book, and 404 书籍不存在 for an unknown one', async () => {
    const id = (await createBook(valid())).json().data._id;
    expect((await t.inject({ method: 'GET', url: `/api/book/${id}`, ...as() })).json().data._id).toBe(id);
    const missing = await t.inject({ method: 'GET', url: '/api/book/0123456789abcdef01234567', ...as() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe('书籍不存在');
  });

  it('changes the given fields only, sanitising the introduction', async () => {
    const id = (await createBook(valid())).json().data._id;
    const response = await t.inject({
      method: 'PATCH',
      url: `/api/book/${id}`,
      ...as(),
      payload: { bookTitle: '新书名', requirePoints: 40, bookIntro: '<p>新<img src=x onerror=alert(1)></p>', commentNumber: 9 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      ...valid(),
      bookTitle: '新书名',
      requirePoints: 40,
      bookIntro: '<p>新</p>',
      commentNumber: 0,
    });
    const cover = await t.inject({ method: 'PATCH', url: `/api/book/${id}`, ...as(), payload: { bookPic: '' } });
    expect(cover.json().data.bookPic).toBe(DEFAULT_BOOK_COVER);
  });

  it('changes the type, moving its comments along, and refuses an unknown type', async () => {
    const id = (await createBook(valid())).json().data._id;
    await commentOn(id);
    const newType = await fx.type();
    const response = await t.inject({ method: 'PATCH', url: `/api/book/${id}`, ...as(), payload: { typeId: newType } });
    expect(response.json().data.typeId).toBe(newType);
    const rows = await t.database.db.select({ typeId: comments.typeId }).from(comments).where(eq(comments.bookId, id));
    expect(rows).toEqual([{ typeId: newType }]);
    const unknown = await t.inject({ method: 'PATCH', url: `/api/book/${id}`, ...as(), payload: { typeId: '0123456789abcdef01234567' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('分类不存在');
  });

  it('answers 404 when patching an unknown book', async () => {
    const response = await t.inject({ method: 'PATCH', url: '/api/book/0123456789abcdef01234567', ...as(), payload: { bookTitle: 'x' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /api/book (paged)', () => {
  let ctx: TestContext;
  let admin: string;
  let go: string;
  const BASE = Date.UTC(2024, 1, 1);
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.rootToken();
    const f = contentFixtures(ctx.database.db);
    go = await f.type('Go');
    const java = await f.type('Java');
    for (let i = 0; i < 30; i++) {
      await f.book(i % 3 ? java : go, { bookTitle: `${i % 3 ? 'Java' : 'Go'} 实战 ${i}`, onShelfDate: BASE + i * 1000 });
    }
    await f.book(java, { bookTitle: 'C_Sharp 100%', onShelfDate: BASE - 1 });
    await f.book(java, { bookTitle: 'CXSharp 100X', onShelfDate: BASE - 2 });
  });
  afterAll(() => ctx.close());

  const list = (query: string) => ctx.inject({ method: 'GET', url: `/api/book?${query}`, headers: bearer(admin) });
  const titles = (response: { json(): { data: { data: Array<{ bookTitle: string }> } } }) =>
    response.json().data.data.map((b) => b.bookTitle);

  it('answers newest first with the paging numbers', async () => {
    const response = await list('');
    expect(response.json().data).toMatchObject({ currentPage: 1, eachPage: 10, count: 32, totalPage: 4 });
    expect(titles(response).slice(0, 3)).toEqual(['Java 实战 29', 'Java 实战 28', 'Go 实战 27']);
    expect((await list('current=5')).json().data).toEqual({ currentPage: 5, eachPage: 10, count: 32, totalPage: 4, data: [] });
    expect((await list('pageSize=100')).json().data.data).toHaveLength(32);
    expect((await list('pageSize=101')).statusCode).toBe(400);
  });

  it('filters by title (case-insensitive, % and _ literal) and by type; empty filters mean none', async () => {
    expect((await list(`typeId=${go}&pageSize=100`)).json().data.count).toBe(10);
    expect((await list('bookTitle=GO')).json().data.count).toBe(10);
    expect((await list(`bookTitle=${encodeURIComponent('go')}&typeId=${go}`)).json().data.count).toBe(10);
    expect(titles(await list(`bookTitle=${encodeURIComponent('C_S')}`))).toEqual(['C_Sharp 100%']);
    expect(titles(await list(`bookTitle=${encodeURIComponent('0%')}`))).toEqual(['C_Sharp 100%']);
    expect((await list('bookTitle=&typeId=')).json().data.count).toBe(32);
  });
});

describe('access', () => {
  it.each([
    // The public site answers visitors its reads (and a view, a sign-up) at these paths: server/test/site/site.test.ts.
    ['POST', '/api/book'],
    ['DELETE', '/api/book/0123456789abcdef01234567'],
  ])('%s %s without a token answers 401', async (method, url) => {
    const response = await t.inject({
      method: method as 'GET',
      url,
      payload: method === 'POST' || method === 'PATCH' ? valid() : undefined,
    });
    expect(response.statusCode).toBe(401);
  });
});
