/**
 * Reads a Navicat "Dump Script" of a MongoDB database. The file comes from outside, so it is
 * parsed, never run: this recognises exactly the statements Navicat writes and the values they
 * hold, and refuses anything else with its line, so that a file holding something else (a
 * `process.exit()`, a call to an unknown function) imports nothing at all.
 *
 * Statements:  db.getCollection("x").insert([ {…}, … ]);   (also insertMany / insertOne)
 *              db.getCollection("x").drop();  db.createCollection("x", {…});
 *              db.getCollection("x").createIndex({…}, {…});
 * Values:      { key: value, "key": value }  [ … ]  "…" '…' (with escapes)  numbers  true false null
 *              ObjectId("…")  ISODate("…")  new Date(…)  Int32(…)  NumberInt(…)  NumberLong(…)
 *              Long(…)  Double(…)  NumberDecimal(…)  Decimal128(…)
 * Comments:    // …   and   /* … *\/
 */
import { type Doc, ObjectIdValue, SourceError, type Value } from './values';

/** How deep objects and arrays may nest: deeper is refused rather than risk the stack. */
const MAX_DEPTH = 100;

const NUMBER_CONSTRUCTORS = new Set(['Int32', 'NumberInt', 'NumberLong', 'Long', 'Double', 'NumberDecimal', 'Decimal128']);
const IGNORED_METHODS = new Set(['drop', 'createIndex', 'createIndexes', 'ensureIndex']);
const INSERT_METHODS = new Set(['insert', 'insertMany', 'insertOne']);

export class DumpSyntaxError extends SourceError {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`导出脚本第 ${line} 行：${reason}。没有导入任何数据。`);
    this.name = 'DumpSyntaxError';
  }
}

export interface DumpInsert {
  collection: string;
  doc: Doc;
  line: number;
}

export interface DumpScript {
  inserts: DumpInsert[];
  /** Every collection the script names, documents or not (Navicat creates empty ones too). */
  collections: Set<string>;
}

export function parseDumpScript(text: string): DumpScript {
  return new Parser(text).script();
}

const isIdentStart = (c: string) => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c);

class Parser {
  private pos = 0;
  private line = 1;
  private readonly inserts: DumpInsert[] = [];
  private readonly collections = new Set<string>();

  constructor(private readonly src: string) {
    // A byte-order mark is what some editors put first; it is no statement.
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  private fail(reason: string, line = this.line): never {
    throw new DumpSyntaxError(line, reason);
  }

  private peekChar(): string {
    return this.src[this.pos] ?? '';
  }

  /** Skips spaces, line breaks and comments, counting lines. */
  private skip() {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === '\n') {
        this.line++;
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0' || c === '\ufeff') {
        this.pos++;
      } else if (c === '/' && src[this.pos + 1] === '/') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      } else if (c === '/' && src[this.pos + 1] === '*') {
        const start = this.line;
        const end = src.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('注释 /* 没有结束', start);
        for (let i = this.pos; i < end; i++) if (src[i] === '\n') this.line++;
        this.pos = end + 2;
      } else {
        break;
      }
    }
  }

  private atEnd(): boolean {
    this.skip();
    return this.pos >= this.src.length;
  }

  private describeHere(): string {
    if (this.pos >= this.src.length) return '文件意外结束';
    const c = this.src[this.pos];
    if (isIdentStart(c)) return `意外的 ${this.src.slice(this.pos).match(/^[A-Za-z0-9_$]+/)![0]}`;
    return `意外的字符 ${JSON.stringify(c)}`;
  }

  private expect(c: string, what?: string) {
    this.skip();
    if (this.src[this.pos] !== c) this.fail(`${this.describeHere()}，应为 ${what ?? `"${c}"`}`);
    this.pos++;
  }

  private accept(c: string): boolean {
    this.skip();
    if (this.src[this.pos] === c) {
      this.pos++;
      return true;
    }
    return false;
  }

  private identifier(): string {
    this.skip();
    const start = this.pos;
    if (!isIdentStart(this.peekChar())) this.fail(`${this.describeHere()}，应为名称`);
    while (this.pos < this.src.length && isIdentPart(this.src[this.pos])) this.pos++;
    return this.src.slice(start, this.pos);
  }

  script(): DumpScript {
    while (!this.atEnd()) {
      if (this.accept(';')) continue;
      this.statement();
    }
    return { inserts: this.inserts, collections: this.collections };
  }

  private statement() {
    const line = this.line;
    const head = this.identifier();
    if (head !== 'db') this.fail(`不认识的语句 ${head}（导出脚本只应含有 db.… 语句）`, line);
    this.expect('.');
    const fn = this.identifier();
    if (fn === 'createCollection') {
      const args = this.args();
      const name = args[0];
      if (typeof name !== 'string') this.fail('createCollection 的集合名应为字符串', line);
      this.collections.add(name);
    } else if (fn === 'getCollection') {
      const args = this.args();
      const name = args[0];
      if (args.length !== 1 || typeof name !== 'string' || !name) this.fail('getCollection 应有一个字符串参数（集合名）', line);
      this.collections.add(name);
      this.expect('.');
      const methodLine = this.line;
      const method = this.identifier();
      if (INSERT_METHODS.has(method)) {
        this.skip();
        const callLine = this.line;
        this.expect('(');
        this.skip();
        const docLine = this.line;
        const value = this.value(0);
        // insertMany/insert take an array or a document and maybe options after it, which are read and not used.
        while (this.accept(',')) this.value(0);
        this.expect(')', '")"');
        if (Array.isArray(value)) {
          for (const [i, doc] of value.entries()) {
            if (!isDoc(doc)) this.fail(`${method} 的第 ${i + 1} 个元素不是文档`, callLine);
            this.inserts.push({ collection: name, doc, line: this.docLines.get(doc) ?? callLine });
          }
        } else if (isDoc(value)) {
          this.inserts.push({ collection: name, doc: value, line: docLine });
        } else {
          this.fail(`${method} 的参数应为文档或文档数组`, callLine);
        }
      } else if (IGNORED_METHODS.has(method)) {
        this.args();
      } else {
        this.fail(`不认识的操作 ${method}`, methodLine);
      }
    } else {
      this.fail(`不认识的操作 db.${fn}`, line);
    }
    const endLine = this.line;
    // Navicat ends every statement with ";"; a line break alone ends one in the shell as well.
    if (!this.accept(';') && !this.atEnd() && this.line === endLine) this.fail(`${this.describeHere()}，语句应以 ";" 结束`);
  }

  /** Line of each document's "{", so that a record's report can name it. */
  private readonly docLines = new WeakMap<Doc, number>();

  private args(): Value[] {
    this.expect('(');
    const out: Value[] = [];
    if (this.accept(')')) return out;
    do {
      this.skip();
      if (this.peekChar() === ')') break;
      out.push(this.value(0));
    } while (this.accept(','));
    this.expect(')', '")" 或 ","');
    return out;
  }

  private value(depth: number): Value {
    if (depth > MAX_DEPTH) this.fail(`嵌套超过 ${MAX_DEPTH} 层`);
    this.skip();
    const c = this.peekChar();
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return this.string();
    if (c === '-' || c === '+' || c === '.' || (c >= '0' && c <= '9')) return this.number();
    if (isIdentStart(c)) return this.named(depth);
    return this.fail(`${this.describeHere()}，应为一个值`);
  }

  private object(depth: number): Doc {
    const line = this.line;
    this.expect('{');
    const doc: Doc = {};
    while (!this.accept('}')) {
      this.skip();
      const c = this.peekChar();
      if (!c) this.fail('"{" 到文件末尾都没有闭合', line);
      const key =
        c === '"' || c === "'"
          ? this.string()
          : isIdentStart(c) || /[0-9]/.test(c)
            ? this.key()
            : this.fail(`${this.describeHere()}，应为字段名`);
      this.expect(':', '":"');
      // Own property even for "__proto__": a plain assignment would change the object's prototype.
      Object.defineProperty(doc, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.skip();
      if (this.peekChar() === '}') continue;
      if (!this.accept(',')) {
        if (!this.peekChar()) this.fail('"{" 到文件末尾都没有闭合', line);
        this.fail(`${this.describeHere()}，应为 "," 或 "}"`);
      }
    }
    this.docLines.set(doc, line);
    return doc;
  }

  private key(): string {
    const start = this.pos;
    while (this.pos < this.src.length && isIdentPart(this.src[this.pos])) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private array(depth: number): Value[] {
    const line = this.line;
    this.expect('[');
    const out: Value[] = [];
    while (!this.accept(']')) {
      this.skip();
      if (!this.peekChar()) this.fail('"[" 到文件末尾都没有闭合', line);
      out.push(this.value(depth + 1));
      this.skip();
      if (this.peekChar() === ']') continue;
      if (!this.accept(',')) {
        if (!this.peekChar()) this.fail('"[" 到文件末尾都没有闭合', line);
        this.fail(`${this.describeHere()}，应为 "," 或 "]"`);
      }
    }
    return out;
  }

  private string(): string {
    const quote = this.src[this.pos];
    const line = this.line;
    this.pos++;
    let out = '';
    let from = this.pos;
    const src = this.src;
    for (;;) {
      if (this.pos >= src.length) this.fail('字符串没有结束', line);
      const c = src[this.pos];
      if (c === quote) {
        out += src.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (c === '\n') this.fail('字符串没有结束（字符串中不能直接换行）', line);
      if (c !== '\\') {
        this.pos++;
        continue;
      }
      out += src.slice(from, this.pos);
      const e = src[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'v':
          out += '\v';
          break;
        case '0':
          out += '\0';
          break;
        case 'x': {
          const hex = src.slice(this.pos, this.pos + 2);
          if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('字符串中的 \\x 转义无效');
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.pos += 2;
          break;
        }
        case 'u': {
          const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(this.pos, this.pos + 8));
          const hex = braced ? braced[1] : src.slice(this.pos, this.pos + 4);
          if (!braced && !/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('字符串中的 \\u 转义无效');
          const code = Number.parseInt(hex, 16);
          if (code > 0x10ffff) this.fail('字符串中的 \\u 转义无效');
          out += String.fromCodePoint(code);
          this.pos += braced ? braced[0].length : 4;
          break;
        }
        case '\r':
          if (src[this.pos] === '\n') this.pos++;
          this.line++;
          break;
        case '\n':
          // A backslash at the end of a line continues the string on the next.
          this.line++;
          break;
        case undefined:
          this.fail('字符串没有结束', line);
          break;
        default:
          out += e;
      }
      from = this.pos;
    }
  }

  private number(): number {
    const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.src.slice(this.pos, this.pos + 400));
    if (!m) this.fail(`${this.describeHere()}，应为数字`);
    this.pos += m[0].length;
    if (isIdentPart(this.peekChar())) this.fail(`${this.describeHere()}，数字格式无效`);
    return Number(m[0]);
  }

  /** A literal (true, false, null) or one of the known constructors; any other name is refused. */
  private named(depth: number): Value {
    const line = this.line;
    let name = this.identifier();
    if (name === 'true') return true;
    if (name === 'false') return false;
    if (name === 'null' || name === 'undefined') return null;
    if (name === 'new') name = this.identifier();
    const known = name === 'ObjectId' || name === 'ObjectID' || name === 'ISODate' || name === 'Date' || NUMBER_CONSTRUCTORS.has(name);
    if (!known) this.fail(`不认识的构造函数或名称 ${name}`, line);
    this.skip();
    if (this.peekChar() !== '(') this.fail(`${name} 后应为 "("`, line);
    const args = this.args();
    if (depth > MAX_DEPTH) this.fail(`嵌套超过 ${MAX_DEPTH} 层`);
    const arg = args[0];
    if (name === 'ObjectId' || name === 'ObjectID') {
      if (args.length !== 1 || typeof arg !== 'string' || !/^[0-9a-fA-F]{24}$/.test(arg))
        this.fail(`${name} 的参数应为 24 位十六进制字符串`, line);
      return new ObjectIdValue(arg.toLowerCase());
    }
    if (name === 'ISODate' || name === 'Date') {
      const date = args.length === 0 ? null : typeof arg === 'string' || typeof arg === 'number' ? new Date(arg) : null;
      if (!date || Number.isNaN(date.getTime())) this.fail(`${name} 的参数不是有效的日期`, line);
      return date;
    }
    // Int32("1"), NumberLong(100), Double("3.5"): a number, written as a string or not.
    const n =
      typeof arg === 'number'
        ? arg
        : typeof arg === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(arg)
          ? Number(arg)
          : Number.NaN;
    if (args.length !== 1 || Number.isNaN(n)) this.fail(`${name} 的参数应为数字`, line);
    return n;
  }
}

function isDoc(value: Value): value is Doc {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof ObjectIdValue)
  );
}
