import { messages, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import { LRUCache } from 'lru-cache';

// The `statements` layer (db/layers.ts, docs/decisions/0010): it runs under PGlite's private
// `_runExclusive*` locks, so pglite-statements.test.ts checks it against PGlite's own query().

type Parser = (value: string, typeId: number) => unknown;
type Serializer = (value: unknown) => string;

/** What drizzle's PGlite driver passes to `query`. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, Parser>;
  serializers?: Record<number, Serializer>;
}

/** The part of a PGlite client, or of one of its transactions, that drizzle's driver calls. */
export interface QueryClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

export interface StatementClient extends QueryClient {
  transaction<T>(work: (tx: QueryClient) => Promise<T>): Promise<T>;
  /**
   * How many statements so far may have changed data: every one whose command is not SELECT, and
   * every one that failed. It grows before the statement's caller hears back, while PGlite still
   * runs nothing else.
   */
  writes(): number;
  /** Counts a change made around this client (the migrations run on PGlite directly). */
  countWrite(): void;
}

interface Statement {
  name: string;
  paramTypes: number[];
  fields: Array<{ name: string; dataTypeID: number }>;
}

const serialize = protocol.serialize;

/**
 * Statements kept prepared at once, the least recently used closed beyond this: each holds some of
 * the database's memory (docs/decisions/0003), the product sends far fewer distinct texts, and one
 * pushed out is only parsed again.
 */
const MAX_STATEMENTS = 200;
// PostgreSQL's answer when a table a prepared statement reads has changed its columns since.
const CACHED_PLAN_CHANGED = '0A000';

/** What a statement's round trip answered, read straight from the backend's bytes. */
interface Reply {
  paramTypes: number[] | null;
  fields: Statement['fields'] | null;
  rows: Array<Array<string | null>>;
  /** CommandComplete's tag, e.g. "SELECT 10" or "INSERT 0 1". */
  tag: string | null;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * PGlite's own `query` makes six calls into its WebAssembly module and plans every statement again,
 * on the thread that serves HTTP. Here each distinct SQL text is parsed and described once, then
 * every call is one Bind + Execute + Sync (as node-postgres with named statements; docs/decisions/0003).
 * Results are built as PGlite builds them (same parsers, serializers and shape), and the calls
 * take PGlite's own locks, so a statement never runs inside another caller's transaction.
 */
export function preparedStatements(pg: PGlite): StatementClient {
  // Statements pushed out (or forgotten) are closed with the next statement prepared.
  const closing: string[] = [];
  const statements = new LRUCache<string, Statement>({ max: MAX_STATEMENTS, dispose: (statement) => void closing.push(statement.name) });
  let counter = 0;
  let writes = 0;

  /**
   * Sends `message` and reads the few kinds of reply a statement gets. PGlite's own reader copies
   * every field of every row into an ArrayBuffer of its own before decoding it; here a field is
   * decoded in place. An error is read by PGlite's reader, so it is the same DatabaseError its
   * `query` throws.
   */
  async function exchange(message: Uint8Array): Promise<Reply> {
    const chunks: Uint8Array[] = [];
    // The chunk is a view of the module's memory, valid only during the call.
    await pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
    const bytes = chunks.length === 1 ? chunks[0] : concat(chunks);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const reply: Reply = { paramTypes: null, fields: null, rows: [], tag: null };
    let failed = false;
    for (let at = 0; at + 5 <= buffer.length; ) {
      const kind = buffer[at];
      const end = at + 1 + buffer.readUInt32BE(at + 1);
      let p = at + 5;
      const cstring = () => {
        const zero = buffer.indexOf(0, p);
        const text = buffer.toString('utf8', p, zero);
        p = zero + 1;
        return text;
      };
      switch (kind) {
        case 0x44: {
          // DataRow
          const count = buffer.readUInt16BE(p);
          p += 2;
          const row = new Array<string | null>(count);
          for (let i = 0; i < count; i++) {
            const length = buffer.readInt32BE(p);
            p += 4;
            if (length < 0) {
              row[i] = null;
            } else {
              row[i] = buffer.toString('utf8', p, p + length);
              p += length;
            }
          }
          reply.rows.push(row);
          break;
        }
        case 0x43: // CommandComplete
          reply.tag = cstring();
          break;
        case 0x74: {
          // ParameterDescription
          const count = buffer.readUInt16BE(p);
          reply.paramTypes = Array.from({ length: count }, (_, i) => buffer.readUInt32BE(p + 2 + 4 * i));
          break;
        }
        case 0x54: {
          // RowDescription: name, table oid, column, type oid, size, modifier, format
          const count = buffer.readUInt16BE(p);
          p += 2;
          reply.fields = [];
          for (let i = 0; i < count; i++) {
            const name = cstring();
            reply.fields.push({ name, dataTypeID: buffer.readUInt32BE(p + 6) });
            p += 18;
          }
          break;
        }
        case 0x45: // ErrorResponse
          failed = true;
          break;
      }
      at = end;
    }
    if (failed) {
      let error: unknown;
      new protocol.Parser().parse(bytes, (message) => {
        if (message instanceof messages.DatabaseError) error ??= message;
      });
      throw error;
    }
    return reply;
  }

  async function prepare(text: string): Promise<Statement> {
    const known = statements.get(text);
    if (known) return known;
    const name = `pglite_s${++counter}`;
    const reply = await exchange(
      concat([
        ...closing.map((old) => serialize.close({ type: 'S', name: old })),
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    closing.length = 0;
    const statement: Statement = { name, paramTypes: reply.paramTypes ?? [], fields: reply.fields ?? [] };
    statements.set(text, statement);
    return statement;
  }

  async function execute<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const statement = await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i];
      const serializer = options?.serializers?.[type] ?? (pg.serializers[type] as Serializer | undefined);
      return serializer ? serializer(value) : String(value);
    });
    const reply = await exchange(
      concat([serialize.bind({ statement: statement.name, values: values as string[] }), serialize.execute({}), serialize.sync()]),
    );
    if (!reply.tag?.startsWith('SELECT ')) writes++;

    const { fields } = statement;
    const parsers = fields.map(({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? (pg.parsers[dataTypeID] as Parser | undefined));
    const rows = reply.rows.map((raw) => {
      const row: unknown[] | Record<string, unknown> = options?.rowMode === 'array' ? new Array(raw.length) : {};
      for (let i = 0; i < raw.length; i++) {
        const value = raw[i];
        const parser = parsers[i];
        (row as Record<string | number, unknown>)[options?.rowMode === 'array' ? i : fields[i].name] =
          value === null || !parser ? value : parser(value, fields[i].dataTypeID);
      }
      return row;
    });
    // As PGlite's parseResults words a result.
    const words = reply.tag?.split(' ') ?? [];
    const command = words[0];
    const count = parseInt(words[words.length - 1], 10);
    const affectedRows = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) ? count : 0;
    const result = { rows: rows as T[], fields, affectedRows, command } as Results<T>;
    if (!Number.isNaN(count)) result.rowCount = count;
    return result;
  }

  /** As PGlite reports a failed query: the database's error with the statement attached. */
  async function run<T>(text: string, params: unknown[] = [], options?: QueryOptions, retry = true): Promise<Results<T>> {
    try {
      return await execute<T>(text, params, options);
    } catch (error) {
      writes++;
      if ((error as { code?: string }).code === CACHED_PLAN_CHANGED && statements.has(text)) {
        statements.delete(text);
        // Outside a transaction nothing was done; inside one the transaction has failed anyway.
        if (retry && !pg.isInTransaction()) return run(text, params, options, false);
      }
      if (error instanceof Error) Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  }

  const inTransaction: QueryClient = {
    query: async (text, params, options) => {
      await pg._checkReady();
      return pg._runExclusiveQuery(() => run(text, params, options));
    },
  };

  return {
    query: async (text, params, options) => {
      // As PGlite's query: a closed or closing database says so instead of reaching the module.
      await pg._checkReady();
      return pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const result = await run<never>(text, params, options);
          await pg.syncToFs();
          return result;
        }),
      );
    },
    transaction: (work) => pg.transaction(() => work(inTransaction)),
    writes: () => writes,
    countWrite: () => void writes++,
  };
}
