/**
 * The calls that users, books, interview questions and issues answer alike, as the server's
 * services do: a paged list with filters, newest first; one row by id (404 with the resource's
 * text); delete. Books, interview questions and issues also share create and patch: an HTML field
 * sanitised, a type that must exist, comments that follow their parent's type.
 */
import type { Request } from '@umijs/bundler-utils/compiled/express';
import { type CommentType, newestFirst, retypeComments, typeExists } from './content';
import {
  badRequest,
  boolFilter,
  containsText,
  type Fields,
  guarded,
  idFilter,
  idParam,
  notFound,
  pageOf,
  type Parser,
  queryOf,
  readFields,
  readPage,
  requiredHtml,
  textFilter,
} from './input';
import { bodyOf, ok } from './store';

const UNKNOWN_TYPE = '分类不存在';

/** text: substring in any case; id and bool: exact. An empty filter lets every row through. */
type FilterKind = 'text' | 'id' | 'bool';
const FILTER_PARSERS = { text: textFilter, id: idFilter, bool: boolFilter };

/** The list filters of the request (a 400 for a bad one) as a test on a row. */
export function readFilter<Row>(
  req: Request,
  kinds: Partial<Record<keyof Row & string, FilterKind>>,
): (row: Row) => boolean {
  const entries = Object.entries(kinds) as Array<[keyof Row & string, FilterKind]>;
  const spec = Object.fromEntries(entries.map(([field, kind]) => [field, FILTER_PARSERS[kind]]));
  const wanted = readFields(queryOf(req), spec) as Partial<Record<string, string>>;
  return (row) =>
    entries.every(([field, kind]) => {
      const filter = wanted[field];
      if (!filter) return true;
      const value = row[field];
      if (kind === 'text') return containsText(String(value), filter);
      return value === (kind === 'bool' ? filter === 'true' : filter);
    });
}

export interface Collection<Row extends { _id: string }> {
  /** Read on every call: removing rows replaces the array in mock/lib/content.ts. */
  rows: () => Row[];
  /** The 404 text. */
  missing: string;
  filters: Partial<Record<keyof Row & string, FilterKind>>;
  dateOf: (row: Row) => number;
  /** The row as the answers carry it. */
  show: (row: Row) => unknown;
  /** Removes the row and whatever goes with it. */
  remove: (id: string) => void;
}

export function collection<Row extends { _id: string }>(c: Collection<Row>) {
  function mustFind(id: string): Row {
    const row = c.rows().find((r) => r._id === id);
    if (!row) throw notFound(c.missing);
    return row;
  }

  return {
    mustFind,

    list: guarded('normal', (req, res) => {
      const page = readPage(req);
      const matches = readFilter(req, c.filters);
      ok(res, pageOf(c.rows().filter(matches).sort(newestFirst(c.dateOf)), page, c.show));
    }),

    get: guarded('normal', (req, res) => {
      ok(res, c.show(mustFind(idParam(req))));
    }),

    remove: (level: 'normal' | 'super') =>
      guarded(level, (req, res) => {
        c.remove(mustFind(idParam(req))._id);
        ok(res, null);
      }),
  };
}

type Spec = Record<string, Parser<unknown>>;
type TypedSpec = Spec & { typeId: Parser<string> };

/** The HTML field as the server stores it: sanitised, and refused when nothing is left. */
function sanitise(fields: Record<string, unknown>, field: string): void {
  const value = fields[field];
  if (typeof value === 'string') fields[field] = requiredHtml(field, value);
}

export interface TypedContent<
  Row extends { _id: string; typeId: string },
  C extends TypedSpec,
  R extends keyof C & string,
  U extends TypedSpec,
> extends Collection<Row> {
  /** The HTML field, required on create. */
  html: keyof C & keyof U & string;
  /** The server schemas' fields, in their order, so that the first error reported is the same. */
  createSpec: C;
  /** typeId among them. */
  required: readonly (R | 'typeId')[];
  updateSpec: U;
  /** Refusals the server makes before it checks the type. */
  check?: (body: Fields<C, R | 'typeId'>) => void;
  /** The new row, its HTML already sanitised. */
  build: (body: Fields<C, R | 'typeId'>, at: number) => Row;
  /** Defaults for what a patch empties. */
  tidy?: (changes: Fields<U>) => void;
  /** What its comments are (1 on an issue, 2 on a book): they take the row's type. */
  comments?: CommentType;
}

/** GET (paged) and POST on `path`, GET, PATCH and DELETE on `path/:id`. */
export function typedContentMocks<
  Row extends { _id: string; typeId: string },
  C extends TypedSpec,
  R extends keyof C & string,
  U extends TypedSpec,
>(path: string, t: TypedContent<Row, C, R, U>) {
  const { mustFind, list, get, remove } = collection(t);
  return {
    [`GET ${path}`]: list,

    [`GET ${path}/:id`]: get,

    [`POST ${path}`]: guarded('normal', (req, res) => {
      const body = readFields(bodyOf(req), t.createSpec, t.required);
      sanitise(body, t.html);
      t.check?.(body);
      if (!typeExists(body.typeId)) throw badRequest(UNKNOWN_TYPE);
      const row = t.build(body, Date.now());
      t.rows().push(row);
      ok(res, t.show(row), 201);
    }),

    [`PATCH ${path}/:id`]: guarded('normal', (req, res) => {
      const id = idParam(req);
      const changes = readFields(bodyOf(req), t.updateSpec);
      sanitise(changes, t.html);
      t.tidy?.(changes);
      // As on the server, an unknown type is refused before the row is looked for.
      if (changes.typeId && !typeExists(changes.typeId)) throw badRequest(UNKNOWN_TYPE);
      const row = mustFind(id);
      Object.assign(row, changes);
      if (changes.typeId && t.comments) retypeComments(t.comments, row._id, changes.typeId);
      ok(res, t.show(row));
    }),

    [`DELETE ${path}/:id`]: remove('normal'),
  };
}
