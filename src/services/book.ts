import type { Book, BookFields } from '@/types/api';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const path = (id: string) => `/api/book/${encodeURIComponent(id)}`;

export const BOOK_FILTERS = ['bookTitle', 'typeId'] as const;

/** One page of books for ProTable: filters bookTitle (substring) and typeId (exact). */
export function listBooks(params: TableParams): Promise<TableResult<Book>> {
  return fetchTable<Book>('/api/book', params, BOOK_FILTERS);
}

export function getBook(id: string): Promise<Book> {
  return api<Book>(path(id));
}

export function createBook(book: BookFields): Promise<Book> {
  return api<Book>('/api/book', { method: 'POST', data: book });
}

export function updateBook(id: string, changes: Partial<BookFields>): Promise<Book> {
  return api<Book>(path(id), { method: 'PATCH', data: changes });
}

/** The server takes the book's comments along. */
export async function removeBook(id: string): Promise<void> {
  await api<unknown>(path(id), { method: 'DELETE' });
}
