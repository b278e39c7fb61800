import { pipeline, Readable } from 'node:stream';
import { type Options, stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';

/**
 * CSV downloads (RFC 4180, written by csv-stringify) that spreadsheets open as meant: UTF-8 with a
 * byte-order mark (Excel otherwise reads the Chinese as ANSI), CRLF line ends, quoting where a
 * cell needs it, and no cell a spreadsheet would run as a formula (OWASP "CSV injection"). Shared
 * by every export.
 */

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<R> {
  header: string;
  value(row: R): CsvValue;
}

// A cell starting with one of these is a formula (or becomes one) in Excel, LibreOffice or Sheets.
const FORMULA_START = /^[=+\-@\t\r]/;

const CSV_OPTIONS: Options = {
  bom: true,
  record_delimiter: 'windows',
  // csv-stringify quotes a cell holding the whole CRLF; RFC 4180 wants a lone CR or LF quoted too.
  quoted_match: /[\r\n]/,
  cast: {
    // Text that could start a formula gets a leading `'`; a number is data whatever its sign.
    string: (text: string) => (FORMULA_START.test(text) ? `'${text}` : text),
    // true/false as written, where csv-stringify's default writes 1 and an empty cell.
    boolean: (value: boolean) => String(value),
  },
};

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

/**
 * The text of a whole export: the header line, then one record per row, taken batch by batch as
 * the stream is read. csv-stringify's stream pulls records only while its buffer has room, so
 * about one batch is in memory at a time; destroying the stream (the client went away) ends the
 * batches' generator, so no further query is sent.
 */
export function csvStream<R>(columns: Array<CsvColumn<R>>, batches: AsyncIterable<R[]>): Readable {
  async function* records(): AsyncGenerator<CsvValue[]> {
    yield columns.map((c) => c.header);
    for await (const rows of batches) for (const row of rows) yield columns.map((c) => c.value(row));
  }
  // The error, if any, reaches whoever reads the stream (Fastify ends the answer); nothing more to do here.
  return pipeline(Readable.from(records()), stringify(CSV_OPTIONS), () => undefined);
}

export interface CsvExport<R> {
  /** The file's name without date and extension, e.g. 用户列表. */
  name: string;
  columns: Array<CsvColumn<R>>;
  batches: AsyncIterable<R[]>;
}

/** Streams an export as the answer; when the client goes away Fastify destroys the stream. */
export function sendCsv<R>(reply: FastifyReply, csv: CsvExport<R>, at: number, timeZone: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', csvDisposition(csv.name, at, timeZone))
    .header('cache-control', 'no-store')
    .send(csvStream(csv.columns, csv.batches));
}
