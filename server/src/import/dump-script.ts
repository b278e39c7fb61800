/**
 * Reads a Navicat "Dump Script" of a MongoDB database. The file comes from outside, so it is
 * parsed by a real JavaScript parser (acorn) and never run: the walk below accepts exactly the
 * statements Navicat writes and the values they hold, and refuses any other node with its line,
 * so that a file holding something else (a `process.exit()`, a call to an unknown function)
 * imports nothing at all.
 *
 * Statements:  db.getCollection("x").insert([ {…}, … ]);   (also insertMany / insertOne)
 *              db.getCollection("x").drop();  db.createCollection("x", {…});
 *              db.getCollection("x").createIndex({…}, {…});
 * Values:      { key: value, "key": value }  [ … ]  "…" '…' (with escapes)  numbers  true false null
 *              ObjectId("…")  ISODate("…")  new Date(…)  Int32(…)  NumberInt(…)  NumberLong(…)
 *              Long(…)  Double(…)  NumberDecimal(…)  Decimal128(…)
 */
import { type Node, parse, tokenizer } from 'acorn';
import type { Expression, Program, SpreadElement } from 'acorn';
import { type Doc, ObjectIdValue, SourceError, type Value } from './values';

/** How deep objects and arrays may nest: deeper is refused rather than risk the stack. */
const MAX_DEPTH = 100;

const NUMBER_CONSTRUCTORS = new Set(['Int32', 'NumberInt', 'NumberLong', 'Long', 'Double', 'NumberDecimal', 'Decimal128']);
const IGNORED_METHODS = new Set(['drop', 'createIndex', 'createIndexes', 'ensureIndex']);
const INSERT_METHODS = new Set(['insert', 'insertMany', 'insertOne']);
// Decimal as Navicat writes it: acorn also reads 0x1f, 1_000 and legacy octal 010 (as 8), which
// no dump holds and which would be read differently from what the old parser read.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

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

const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: false } as const;

export function parseDumpScript(text: string): DumpScript {
  const lineOf = lineFinder(text);
  let program: Program;
  try {
    program = parse(text, PARSE_OPTIONS);
  } catch (error) {
    throw syntaxError(text, error);
  }
  return new Walker(lineOf).script(program);
}

/** Line of a character offset, by binary search over where lines start (no per-node locations kept). */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (const match of text.matchAll(/\r\n?|[\n\u2028\u2029]/g)) starts.push(match.index + match[0].length);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

const OPENERS = new Set(['{', '[', '(', '${']);
type Bracket = { token: string; line: number };

/**
 * The brackets still open where the tokens stop, and the first one opened past MAX_DEPTH, by
 * acorn's own tokenizer, so that brackets inside strings and comments do not count.
 */
function openBrackets(text: string): { open: Bracket[]; deepest: Bracket | null } {
  const open: Bracket[] = [];
  let deepest: Bracket | null = null;
  try {
    for (const token of tokenizer(text, { ...PARSE_OPTIONS, locations: true })) {
      const label = token.type.label;
      if (OPENERS.has(label)) {
        open.push({ token: label, line: token.loc!.start.line });
        if (!deepest && open.length > MAX_DEPTH) deepest = open[open.length - 1];
      } else if ((label === '}' || label === ']' || label === ')') && open.length) open.pop();
    }
  } catch {
    // A token acorn cannot read: the parser has already said where.
  }
  return { open, deepest };
}

/** acorn's syntax error as the import's refusal; an end of file names the bracket left open. */
function syntaxError(text: string, error: unknown): DumpSyntaxError {
  const { pos, loc, message } = error as { pos?: number; loc?: { line: number }; message: string };
  if (typeof pos !== 'number' || !loc) throw error;
  const reason = message.replace(/\s*\(\d+:\d+\)$/, '');
  // acorn parses recursively and says so when the stack runs out: brackets nested far too deep.
  if (/stack space/.test(reason)) {
    const deepest = openBrackets(text).deepest;
    return new DumpSyntaxError(deepest?.line ?? loc.line, `嵌套超过 ${MAX_DEPTH} 层`);
  }
  if (pos >= text.trimEnd().length) {
    const unclosed = openBrackets(text).open.at(-1);
    if (unclosed) return new DumpSyntaxError(unclosed.line, `"${unclosed.token}" 到文件末尾都没有闭合`);
  }
  if (/^Unterminated string/.test(reason)) return new DumpSyntaxError(loc.line, '字符串没有结束');
  return new DumpSyntaxError(loc.line, `无法解析（${reason}）`);
}

function isDoc(value: Value): value is Doc {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof ObjectIdValue)
  );
}

/** Walks the few node types a dump holds into values; any other node is refused with its line. */
class Walker {
  private readonly inserts: DumpInsert[] = [];
  private readonly collections = new Set<string>();

  constructor(private readonly lineOf: (offset: number) => number) {}

  private fail(node: Node, reason: string): never {
    throw new DumpSyntaxError(this.lineOf(node.start), reason);
  }

  script(program: Program): DumpScript {
    for (const statement of program.body) {
      if (statement.type === 'EmptyStatement') continue;
      if (statement.type !== 'ExpressionStatement') this.fail(statement, '不认识的语句（导出脚本只应含有 db.… 语句）');
      this.statement(statement.expression);
    }
    return { inserts: this.inserts, collections: this.collections };
  }

  private method(call: Expression): { target: Expression; name: string; args: Array<Expression | SpreadElement> } | null {
    if (call.type !== 'CallExpression' || call.optional) return null;
    const callee = call.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || callee.optional || callee.property.type !== 'Identifier') return null;
    if (callee.object.type === 'Super') return null;
    return { target: callee.object, name: callee.property.name, args: call.arguments };
  }

  private statement(expression: Expression) {
    const call = this.method(expression);
    if (!call) {
      const head = expression.type === 'CallExpression' ? this.describeCallee(expression.callee) : null;
      this.fail(expression, `不认识的语句${head ? ` ${head}` : ''}（导出脚本只应含有 db.… 语句）`);
    }
    if (call.target.type === 'Identifier') {
      if (call.target.name !== 'db') this.fail(expression, `不认识的语句 ${call.target.name}（导出脚本只应含有 db.… 语句）`);
      if (call.name !== 'createCollection') this.fail(expression, `不认识的操作 db.${call.name}`);
      const [name] = this.args(call.args, 0);
      if (typeof name !== 'string') this.fail(expression, 'createCollection 的集合名应为字符串');
      this.collections.add(name);
      return;
    }
    const collection = this.method(call.target);
    if (collection?.target.type !== 'Identifier' || collection.target.name !== 'db' || collection.name !== 'getCollection')
      this.fail(expression, `不认识的语句 ${this.describeCallee(call.target)}（导出脚本只应含有 db.… 语句）`);
    const args = this.args(collection.args, 0);
    const name = args[0];
    if (args.length !== 1 || typeof name !== 'string' || !name) this.fail(call.target, 'getCollection 应有一个字符串参数（集合名）');
    this.collections.add(name);
    if (IGNORED_METHODS.has(call.name)) {
      this.args(call.args, 0);
      return;
    }
    if (!INSERT_METHODS.has(call.name)) this.fail(expression, `不认识的操作 ${call.name}`);
    const [first, ...options] = call.args;
    if (!first) this.fail(expression, `${call.name} 的参数应为文档或文档数组`);
    // insertMany/insert take an array or a document and maybe options after it, which are read and not used.
    this.args(options, 0);
    if (first.type === 'ArrayExpression') {
      for (const [i, element] of first.elements.entries()) {
        const doc = element && this.value(element, 1);
        if (!element || !doc || !isDoc(doc)) this.fail(element ?? first, `${call.name} 的第 ${i + 1} 个元素不是文档`);
        this.inserts.push({ collection: name, doc, line: this.lineOf(element.start) });
      }
      return;
    }
    const doc = this.value(first, 0);
    if (!isDoc(doc)) this.fail(first, `${call.name} 的参数应为文档或文档数组`);
    this.inserts.push({ collection: name, doc, line: this.lineOf(first.start) });
  }

  private describeCallee(node: Node): string {
    if (node.type === 'Identifier') return (node as Node & { name: string }).name;
    if (node.type === 'MemberExpression') {
      const member = node as Node & { object: Node; property: Node; computed: boolean };
      const property = !member.computed && member.property.type === 'Identifier' ? (member.property as Node & { name: string }).name : '…';
      return `${this.describeCallee(member.object)}.${property}`;
    }
    if (node.type === 'CallExpression') return `${this.describeCallee((node as Node & { callee: Node }).callee)}(…)`;
    return '…';
  }

  private args(args: Array<Expression | SpreadElement>, depth: number): Value[] {
    return args.map((arg) => this.value(arg, depth));
  }

  private value(node: Expression | SpreadElement, depth: number): Value {
    if (depth > MAX_DEPTH) this.fail(node, `嵌套超过 ${MAX_DEPTH} 层`);
    switch (node.type) {
      case 'Literal': {
        if ('regex' in node && node.regex) this.fail(node, '不支持正则表达式');
        if (typeof node.value === 'string' || typeof node.value === 'boolean' || node.value === null) return node.value;
        if (typeof node.value === 'number') return this.number(node, node.raw ?? '');
        return this.fail(node, `不支持的值 ${node.raw ?? ''}`);
      }
      case 'UnaryExpression':
        // A sign before a number: NumberInt(-5), { balance: -1.5 }.
        if (
          (node.operator === '-' || node.operator === '+') &&
          node.argument.type === 'Literal' &&
          typeof node.argument.value === 'number'
        ) {
          const n = this.number(node.argument, node.argument.raw ?? '');
          return node.operator === '-' ? -n : n;
        }
        return this.fail(node, `不支持的运算 ${node.operator}`);
      case 'Identifier':
        if (node.name === 'undefined') return null;
        return this.fail(node, `不认识的构造函数或名称 ${node.name}`);
      case 'ObjectExpression': {
        const doc: Doc = {};
        for (const property of node.properties) {
          if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.shorthand || property.computed)
            this.fail(property, '应为 字段名: 值');
          const key = property.key;
          const name =
            key.type === 'Identifier'
              ? key.name
              : key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')
                ? String(key.value)
                : this.fail(key, '应为字段名');
          // Own property even for "__proto__": a plain assignment would change the object's prototype.
          Object.defineProperty(doc, name, {
            value: this.value(property.value as Expression, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return doc;
      }
      case 'ArrayExpression':
        return node.elements.map((element) => (element ? this.value(element, depth + 1) : this.fail(node, '数组中缺少值')));
      case 'CallExpression':
      case 'NewExpression':
        return this.constructed(node, depth);
      case 'TemplateLiteral':
        return this.fail(node, '不支持模板字符串，字符串应以引号括起');
      default:
        return this.fail(node, `不支持的写法（${node.type}）`);
    }
  }

  private number(node: Node, raw: string): number {
    if (!DECIMAL.test(raw)) this.fail(node, `数字格式无效：${raw}`);
    return Number(raw);
  }

  /** One of the known constructors, called or with `new`; any other callee is refused. */
  private constructed(node: Expression & { callee: Node; arguments: Array<Expression | SpreadElement> }, depth: number): Value {
    const name = node.callee.type === 'Identifier' ? (node.callee as Node & { name: string }).name : null;
    const known =
      name === 'ObjectId' || name === 'ObjectID' || name === 'ISODate' || name === 'Date' || NUMBER_CONSTRUCTORS.has(name ?? '');
    if (!name || !known) this.fail(node, `不认识的构造函数或名称 ${this.describeCallee(node.callee)}`);
    const args = this.args(node.arguments, depth + 1);
    const arg = args[0];
    if (name === 'ObjectId' || name === 'ObjectID') {
      if (args.length !== 1 || typeof arg !== 'string' || !/^[0-9a-fA-F]{24}$/.test(arg))
        this.fail(node, `${name} 的参数应为 24 位十六进制字符串`);
      return new ObjectIdValue(arg.toLowerCase());
    }
    if (name === 'ISODate' || name === 'Date') {
      const date = args.length === 0 ? null : typeof arg === 'string' || typeof arg === 'number' ? new Date(arg) : null;
      if (!date || Number.isNaN(date.getTime())) this.fail(node, `${name} 的参数不是有效的日期`);
      return date;
    }
    // Int32("1"), NumberLong(100), Double("3.5"): a number, written as a string or not.
    const n = typeof arg === 'number' ? arg : typeof arg === 'string' && DECIMAL.test(arg.trim()) ? Number(arg) : Number.NaN;
    if (args.length !== 1 || Number.isNaN(n)) this.fail(node, `${name} 的参数应为数字`);
    return n;
  }
}
