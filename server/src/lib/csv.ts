import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * CSV downloads (RFC 4180) that spreadsheets open as meant: UTF-8 with a byte-order mark (Excel
 * otherwise reads the Chinese as ANSI), CRLF line ends, quoting where a cell needs it, and no cell
 * a spreadsheet would run as a formula (OWASP "CSV injection"). Shared by every export.
 */

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<R> {
  header: string;
  value(row: R): CsvValue;
}

const BOM = '\uFEFF';
// A cell starting with one of these is a formula (or becomes one) in Excel, LibreOffice or Sheets.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: text that could start a formula gets a leading `'`; quotes where needed. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // A number is data whatever its sign; only text can smuggle in a formula.
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `YYYY-MM-DD HH:mm:ss` of an instant in an IANA time zone (the installation's, TIME_ZONE), its
 * daylight saving time included; nothing for a missing date.
 */
export function zonedDate(ms: number | null | undefined, timeZone: string): string {
  if (ms === null || ms === undefined) return '';
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/**
 * `attachment` with the name twice: an ASCII fallback for old clients and the real (Chinese) name
 * as RFC 5987 `filename*`, e.g. `用户列表-20261123.csv`, dated by the installation's calendar at
 * the moment of export (not UTC's: at 01:00 in Shanghai UTC is still on the day before).
 */
export function csvDisposition(baseName: string, at: number, timeZone: string): string {
  const day = zonedDate(at, timeZone).slice(0, 10).replaceAll('-', '');
  const name = `${baseName}-${day}.csv`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="export-${day}.csv"; filename*=UTF-8''${encoded}`;
}

/** The text of a whole export: the BOM and the header line, then one chunk per batch of rows. */
export async function* csvChunks<R>(columns: Array<CsvColumn<R>>, batches: AsyncIterable<R[]>): AsyncGenerator<string> {
  yield BOM + csvLine(columns.map((c) => c.header));
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) chunk += csvLine(columns.map((c) => c.value(row)));
    yield chunk;
  }
}

export interface CsvExport<R> {
  /** The file's name without date and extension, e.g. 用户列表. */
  name: string;
  columns: Array<CsvColumn<R>>;
  batches: AsyncIterable<R[]>;
}

/**
 * Streams an export as the answer. The stream is pulled as the client reads (backpressure; a
 * byte stream with a 64 kB buffer, where an object stream would read 16 batches ahead), so about
 * one batch is in memory at a time; when the client goes away Fastify destroys the stream, which
 * ends the batches' generator, so no further query is sent.
 */
export function sendCsv<R>(reply: FastifyReply, csv: CsvExport<R>, at: number, timeZone: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', csvDisposition(csv.name, at, timeZone))
    .header('cache-control', 'no-store')
    .send(Readable.from(csvChunks(csv.columns, csv.batches), { objectMode: false, highWaterMark: 64 * 1024 }));
}
