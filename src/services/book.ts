import type { Book, BookListQuery, CreateBookBody, UpdateBookBody } from '#contract/book';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/book/${encodeURIComponent(id)}`;

/** One page of books for ProTable, filtered as BookListQuery allows. */
export function listBooks(params: TableParams<BookListQuery>): Promise<TableResult<Book>> {
  return fetchTable<Book>('/api/book', params);
}

export function getBook(id: string): Promise<Book> {
  return api<Book>(path(id));
}

export function createBook(book: CreateBookBody): Promise<Book> {
  return api<Book>('/api/book', { method: 'POST', data: book });
}

export function updateBook(id: string, changes: UpdateBookBody): Promise<Book> {
  return api<Book>(path(id), { method: 'PATCH', data: changes });
}

/** The server takes the book's comments along. */
export async function removeBook(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
