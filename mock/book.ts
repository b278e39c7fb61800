/** Book calls for `npm run dev:mock`, following docs/api.md and server/src/modules/book (NormalAdmin). */
import { defineMock } from '@umijs/max';
import { typedContentMocks } from './lib/crud';
import { content, DEFAULT_BOOK_COVER, type MockBook, removeBook } from './lib/content';
import { html, imagePath, int, refId, str } from './lib/input';
import { objectId } from './lib/store';

/** The server schema's fields, in its order, so the first error reported is the same. */
const spec = {
  bookTitle: str({ min: 1, max: 100 }),
  downloadLink: str({ max: 2048, pattern: /^https?:\/\/[^\s]+$/ }),
  bookIntro: html(500_000),
  requirePoints: int({ min: 0, max: 1_000_000 }),
  typeId: refId,
  bookPic: imagePath,
};

export default defineMock(
  typedContentMocks('/api/book', {
    rows: () => content.books,
    missing: '书籍不存在',
    filters: { bookTitle: 'text', typeId: 'id' },
    dateOf: (book) => book.onShelfDate,
    show: (book) => ({ ...book }),
    html: 'bookIntro',
    createSpec: spec,
    required: ['bookTitle', 'downloadLink', 'bookIntro', 'requirePoints', 'typeId'],
    updateSpec: spec,
    build: (body, at): MockBook => ({
      _id: objectId(at),
      bookTitle: body.bookTitle,
      bookPic: body.bookPic || DEFAULT_BOOK_COVER,
      downloadLink: body.downloadLink,
      bookIntro: body.bookIntro,
      scanNumber: 0,
      commentNumber: 0,
      onShelfDate: at,
      requirePoints: body.requirePoints,
      typeId: body.typeId,
    }),
    tidy: (changes) => {
      if (changes.bookPic !== undefined) changes.bookPic = changes.bookPic || DEFAULT_BOOK_COVER;
    },
    comments: 2,
    // Takes the book's comments along.
    remove: removeBook,
  }),
);
