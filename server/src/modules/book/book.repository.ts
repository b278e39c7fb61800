import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { defineList, exactFilter, textFilter } from '../../db/list';
import { books } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import type { PageRequest } from '../../lib/paging';

export type BookRow = typeof books.$inferSelect;
export type BookChanges = Partial<Omit<BookRow, 'id' | 'scanNumber' | 'commentNumber' | 'onShelfDate' | 'version'>>;
export type BookRepository = ReturnType<typeof createBookRepository>;

export interface BookFilter {
  bookTitle?: string;
  typeId?: string;
}

export function createBookRepository(db: Db) {
  const bookList = defineList(db, {
    name: 'book',
    table: books,
    date: books.onShelfDate,
    id: books.id,
    filters: { bookTitle: textFilter(books.bookTitle), typeId: exactFilter(books.typeId, 'typeId') },
    counted: 'books',
    buckets: [[], ['typeId']],
    // The page's ids from an index (or the title filter's matches) first, then their rows.
    rows: ({ query, pageIds, total }) =>
      query
        .select({ ...getTableColumns(books), total })
        .from(books)
        .innerJoin(pageIds, sql`page.id = ${books.id}`),
  });
  // Prepared once per connection (see the session lookup in the auth repository).
  const byId = db
    .select()
    .from(books)
    .where(eq(books.id, sql.placeholder('id')))
    .prepare('book_by_id');

  return {
    list(filter: BookFilter, page: PageRequest): Promise<Page<BookRow>> {
      return bookList.list(filter, page);
    },

    /** Every row the list's filters let through, newest first, in batches (for the CSV export). */
    scan(filter: BookFilter, batchSize?: number): AsyncGenerator<BookRow[]> {
      return bookList.scan(filter, batchSize);
    },

    async findById(id: string): Promise<BookRow | null> {
      const [row] = await byId.execute({ id });
      return row ?? null;
    },

    async insert(row: typeof books.$inferInsert, tx: Locked<'books'>): Promise<BookRow> {
      const [created] = await tx.insert(books).values(row).returning();
      return created;
    },

    async update(id: string, changes: BookChanges, tx: Locked<'books'>): Promise<BookRow | null> {
      const [row] = await tx.update(books).set(changes).where(eq(books.id, id)).returning();
      return row ?? null;
    },

    async delete(id: string, tx: Locked<'books'>): Promise<boolean> {
      const rows = await tx.delete(books).where(eq(books.id, id)).returning({ id: books.id });
      return rows.length > 0;
    },
  };
}
