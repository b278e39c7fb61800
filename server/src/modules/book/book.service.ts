import { BOOK_MESSAGES } from '#contract/book';
import type { Book, BookListQuery, CreateBookBody, UpdateBookBody } from '#contract/book';
import type { Page } from '#contract/paging';
import { TYPE_MESSAGES } from '#contract/type';
import { AUDIT_ACTIONS, type AuditAction, type BatchResult } from '#contract/audit';
import type { Db } from '../../db/client';
import { books as booksTable } from '../../db/schema';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { ENTITIES, type BinLocks } from '../../db/entities';
import { DEFAULT_BOOK_COVER } from '../../lib/defaults';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard } from '../audit/audit';
import { lockRow, lockRows, uniqueIds } from '../../db/rows';
import type { CommentRepository } from '../comment/comment.repository';
import type { TrashBin } from '../trash/trash.service';
import type { TypeRepository } from '../type/type.repository';
import type { BookChanges, BookRepository, BookRow } from './book.repository';

export function toBook(row: BookRow): Book {
  return {
    _id: row.id,
    bookTitle: row.bookTitle,
    bookPic: row.bookPic,
    downloadLink: row.downloadLink,
    bookIntro: row.bookIntro,
    scanNumber: row.scanNumber,
    commentNumber: row.commentNumber,
    onShelfDate: row.onShelfDate,
    requirePoints: row.requirePoints,
    typeId: row.typeId,
    version: row.version,
  };
}

export type BookService = ReturnType<typeof createBookService>;

export function createBookService(deps: {
  db: Db;
  books: BookRepository;
  comments: CommentRepository;
  types: TypeRepository;
  bin: TrashBin;
  audit: Audit;
  now?: () => number;
}) {
  const { db, books, comments, types, bin, audit } = deps;
  const now = deps.now ?? Date.now;

  async function get(id: string): Promise<Book> {
    const row = await books.findById(id);
    if (!row) throw notFound(BOOK_MESSAGES.notFound);
    return toBook(row);
  }

  /**
   * The one delete path of books (DELETE and the bulk delete): each book, locked by the caller, goes
   * with its comments to the recycle bin (one bin entry per book) and gets its audit entry (one
   * insert for all), inside the caller's transaction.
   */
  async function removeIn(
    tx: Locked<BinLocks<'book'>>,
    actor: Actor,
    action: AuditAction,
    rows: ReadonlyArray<{ id: string; bookTitle: string }>,
  ): Promise<void> {
    for (const { id } of rows) {
      if (!(await bin.capture(tx, 'book', id, actor))) throw notFound(BOOK_MESSAGES.notFound);
      await comments.deleteUnder(2, id, tx);
      await books.delete(id, tx);
    }
    await audit.record(
      tx,
      actor,
      rows.map((row) => ({ action, entity: 'book' as const, entityId: row.id, title: row.bookTitle })),
    );
  }

  return {
    get,

    async list({ current, pageSize, bookTitle, typeId }: BookListQuery): Promise<Page<Book>> {
      return mapPage(await books.list({ bookTitle, typeId }, { current, pageSize }), toBook);
    },

    async create(actor: Actor, body: CreateBookBody): Promise<Book> {
      const bookIntro = requiredHtml('bookIntro', body.bookIntro);
      const at = now();
      const created = await writeTransaction(db, ['books'], async (tx) => {
        if (!(await types.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        const inserted = await books.insert(
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
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'book', entityId: inserted.id, title: inserted.bookTitle });
        return inserted;
      });
      return toBook(created);
    },

    async update(actor: Actor, id: string, { version, ...body }: UpdateBookBody, guard?: RevertGuard): Promise<Book> {
      const changes: BookChanges = {
        ...body,
        ...(body.bookIntro !== undefined && { bookIntro: requiredHtml('bookIntro', body.bookIntro) }),
        ...(body.bookPic !== undefined && { bookPic: body.bookPic || DEFAULT_BOOK_COVER }),
      };
      if (!Object.keys(changes).length) return get(id);
      const updated = await writeTransaction(db, ['books', 'comments'], async (tx) => {
        const before = await lockRow(tx, booksTable, id);
        if (!before) throw missingRecord(guard, notFound(BOOK_MESSAGES.notFound));
        checkGuard(before, guard);
        if (!guard) await checkVersion(tx, { entity: 'book', id, version: before.version }, version, () => toBook(before));
        if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        const row = await books.update(id, changes, tx);
        if (!row) throw notFound(BOOK_MESSAGES.notFound);
        if (changes.typeId) await comments.retypeUnder(2, id, changes.typeId, tx);
        await audit.record(tx, actor, {
          action: guard?.action ?? AUDIT_ACTIONS.update,
          entity: 'book',
          entityId: id,
          title: row.bookTitle,
          changes: diff(before, changes),
        });
        return row;
      });
      return toBook(updated);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await writeTransaction(db, ENTITIES.book.bin.locks, async (tx) => {
        const book = await lockRow(tx, booksTable, id);
        if (!book) throw notFound(BOOK_MESSAGES.notFound);
        await removeIn(tx, actor, AUDIT_ACTIONS.delete, [book]);
      });
    },

    /** All or nothing: every id must exist, and each book gets its own audit entry. */
    async batch(actor: Actor, _action: 'delete', given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      await writeTransaction(db, ENTITIES.book.bin.locks, async (tx) => {
        await removeIn(tx, actor, AUDIT_ACTIONS.batchDelete, await lockRows(tx, booksTable, ids));
      });
      return { done: ids.length };
    },
  };
}
