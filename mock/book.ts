/** Book calls for `npm run dev:mock`, following CONTRACT.md and server/src/modules/book (NormalAdmin). */
import { defineMock } from '@umijs/max';
import {
  content,
  DEFAULT_BOOK_COVER,
  type MockBook,
  newestFirst,
  removeBook,
  retypeComments,
  typeExists,
} from './lib/content';
import {
  badRequest,
  containsText,
  guarded,
  html,
  idFilter,
  idParam,
  imagePath,
  int,
  notFound,
  pageOf,
  queryOf,
  readFields,
  readPage,
  refId,
  requiredHtml,
  str,
  textFilter,
} from './lib/input';
import { bodyOf, objectId, ok } from './lib/store';

const MISSING = '书籍不存在';
const UNKNOWN_TYPE = '分类不存在';

/** The server schema's fields, in its order, so the first error reported is the same. */
const spec = {
  bookTitle: str({ min: 1, max: 100 }),
  downloadLink: str({ max: 2048, pattern: /^https?:\/\/[^\s]+$/ }),
  bookIntro: html(500_000),
  requirePoints: int({ min: 0, max: 1_000_000 }),
  typeId: refId,
  bookPic: imagePath,
};
const REQUIRED = ['bookTitle', 'downloadLink', 'bookIntro', 'requirePoints', 'typeId'] as const;
const listSpec = { bookTitle: textFilter, typeId: idFilter };

const show = (book: MockBook): MockBook => ({ ...book });

function mustFind(id: string): MockBook {
  const book = content.books.find((b) => b._id === id);
  if (!book) throw notFound(MISSING);
  return book;
}

export default defineMock({
  'GET /api/book': guarded('normal', (req, res) => {
    const page = readPage(req);
    const filter = readFields(queryOf(req), listSpec);
    const rows = content.books
      .filter((b) => containsText(b.bookTitle, filter.bookTitle) && (!filter.typeId || b.typeId === filter.typeId))
      .sort(newestFirst((b) => b.onShelfDate));
    ok(res, pageOf(rows, page, show));
  }),

  'GET /api/book/:id': guarded('normal', (req, res) => {
    ok(res, show(mustFind(idParam(req))));
  }),

  'POST /api/book': guarded('normal', (req, res) => {
    const body = readFields(bodyOf(req), spec, REQUIRED);
    const bookIntro = requiredHtml('bookIntro', body.bookIntro);
    if (!typeExists(body.typeId)) throw badRequest(UNKNOWN_TYPE);
    const at = Date.now();
    const book: MockBook = {
      _id: objectId(at),
      bookTitle: body.bookTitle,
      bookPic: body.bookPic || DEFAULT_BOOK_COVER,
      downloadLink: body.downloadLink,
      bookIntro,
      scanNumber: 0,
      commentNumber: 0,
      onShelfDate: at,
      requirePoints: body.requirePoints,
      typeId: body.typeId,
    };
    content.books.push(book);
    ok(res, show(book), 201);
  }),

  'PATCH /api/book/:id': guarded('normal', (req, res) => {
    const id = idParam(req);
    const changes = readFields(bodyOf(req), spec);
    if (changes.bookIntro !== undefined) changes.bookIntro = requiredHtml('bookIntro', changes.bookIntro);
    if (changes.bookPic !== undefined) changes.bookPic = changes.bookPic || DEFAULT_BOOK_COVER;
    // As on the server, an unknown type is refused before the book is looked for.
    if (changes.typeId && !typeExists(changes.typeId)) throw badRequest(UNKNOWN_TYPE);
    const book = mustFind(id);
    Object.assign(book, changes);
    // A comment's type is its book's.
    if (changes.typeId) retypeComments(2, book._id, changes.typeId);
    ok(res, show(book));
  }),

  /** Takes the book's comments along. */
  'DELETE /api/book/:id': guarded('normal', (req, res) => {
    removeBook(mustFind(idParam(req))._id);
    ok(res, null);
  }),
});
