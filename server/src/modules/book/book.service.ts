import { BOOK_MESSAGES } from '../../../../contract/book';
import type { Book, BookListQuery, CreateBookBody, UpdateBookBody } from '../../../../contract/book';
import type { Page } from '../../../../contract/paging';
import { TYPE_MESSAGES } from '../../../../contract/type';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { DEFAULT_BOOK_COVER } from '../../lib/defaults';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import type { CommentRepository } from '../comment/comment.repository';
import type { Actor, TrashBin } from '../trash/trash.service';
import type { TypeRepository } from '../type/type.repository';
import type { BookChanges, BookRepository, BookRow } from './book.repository';


function toBook({ id, ...row }: BookRow): Book {
  return { _id: id, ...row };
}

export type BookService = ReturnType<typeof createBookService>;

export function createBookService(deps: {
  db: Db;
  books: BookRepository;
  comments: CommentRepository;
  types: TypeRepository;
  bin: TrashBin;
  now?: () => number;
}) {
  const { db, books, comments, types, bin } = deps;
  const now = deps.now ?? Date.now;

  async function get(id: string): Promise<Book> {
    const row = await books.findById(id);
    if (!row) throw notFound(BOOK_MESSAGES.notFound);
    return toBook(row);
  }

  return {
    get,

    async list({ current, pageSize, bookTitle, typeId }: BookListQuery): Promise<Page<Book>> {
      return mapPage(await books.list({ bookTitle, typeId }, { current, pageSize }), toBook);
    },

    async create(body: CreateBookBody): Promise<Book> {
      const bookIntro = requiredHtml('bookIntro', body.bookIntro);
      const at = now();
      const created = await writeTransaction(db, ['books'], async (tx) => {
        if (!(await types.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        return books.insert(
          {
            id: newId(at),
            bookTitle: body.bookTitle,
            bookPic: body.bookPic || DEFAULT_BOOK_COVER,
            downloadLink: body.downloadLink,
            bookIntro,
            scanNumber: 0,
            commentNumber: 0,
            onShelfDate: at,
            requirePoints: body.requirePoints,
            typeId: body.typeId,
          },
          tx,
        );
      });
      return toBook(created);
    },

    async update(id: string, body: UpdateBookBody): Promise<Book> {
      const changes: BookChanges = {
        ...body,
        ...(body.bookIntro !== undefined && { bookIntro: requiredHtml('bookIntro', body.bookIntro) }),
        ...(body.bookPic !== undefined && { bookPic: body.bookPic || DEFAULT_BOOK_COVER }),
      };
      if (!Object.keys(changes).length) return get(id);
      const updated = await writeTransaction(db, ['books', 'comments'], async (tx) => {
        if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        const row = await books.update(id, changes, tx);
        if (!row) throw notFound(BOOK_MESSAGES.notFound);
        if (changes.typeId) await comments.retypeUnder(2, id, changes.typeId, tx);
        return row;
      });
      return toBook(updated);
    },

    /** Moves the book and its comments to the recycle bin, inside `tx` (for bulk deletes too). */
    async removeIn(tx: Locked<'books' | 'comments'>, id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      if (!(await bin.capture(tx, 'book', id, by))) throw notFound(BOOK_MESSAGES.notFound);
      await comments.deleteUnder(2, id, tx);
      await books.delete(id, tx);
    },

    async remove(id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      await writeTransaction(db, ['books', 'comments'], (tx) => this.removeIn(tx, id, by));
    },
  };
}
