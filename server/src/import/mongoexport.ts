/**
 * Reads a folder of mongoexport files, `<collection>.json`, one document per line in Extended
 * JSON v2, relaxed or canonical, as the MongoDB driver's own `bson` reads it (EJSON). A file
 * written with --jsonArray (one JSON array) is read as well. A line that is not JSON refuses the
 * whole source.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { BSONError, BSONValue, Decimal128, EJSON, ObjectId } from 'bson';
import { type Doc, ObjectIdValue, SourceError, type SourceDoc, type Value } from './values';

export class ExportSyntaxError extends SourceError {
  constructor(file: string, line: number, reason: string) {
    super(`${file} 第 ${line} 行：${reason}。没有导入任何数据。`);
    this.name = 'ExportSyntaxError';
  }
}

/** What EJSON gives (ObjectId, Date, Decimal128, …) as the values both source readers share. */
function toValue(value: unknown): Value {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toValue);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error('$date 不是有效的日期');
    return value;
  }
  if (value instanceof ObjectId) return new ObjectIdValue(value.toHexString());
  if (value instanceof Decimal128) return Number(value.toString());
  // Relaxed parsing gives $numberInt, $numberLong and $numberDouble as numbers. Any other BSON
  // type (binary, timestamp, regular expression …) stays the document mongoexport wrote, which no
  // field of the product takes, so its record is skipped with a reason.
  if (value instanceof BSONValue) return toValue(EJSON.serialize(value, { relaxed: false }));
  const doc: Doc = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    // Own property even for "__proto__": a plain assignment would change the object's prototype.
    Object.defineProperty(doc, key, { value: toValue(inner), enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

function reasonOf(error: unknown): string {
  if (error instanceof SyntaxError) return `不是有效的 JSON（${error.message}）`;
  if (BSONError.isBSONError(error)) return `不是有效的 Extended JSON（${error.message}）`;
  return (error as Error).message;
}

/** One document from its Extended JSON, read by `read` (a line's text, or an array's item). */
function toDoc(read: () => unknown, file: string, line: number): Doc {
  let parsed: unknown;
  try {
    parsed = read();
  } catch (error) {
    throw new ExportSyntaxError(file, line, reasonOf(error));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof BSONValue || parsed instanceof Date)
    throw new ExportSyntaxError(file, line, '不是一个文档（JSON 对象）');
  try {
    return toValue(parsed) as Doc;
  } catch (error) {
    throw new ExportSyntaxError(file, line, reasonOf(error));
  }
}

/** The documents of one mongoexport file, with their line numbers. */
export async function readExportFile(filePath: string): Promise<SourceDoc[]> {
  const file = path.basename(filePath);
  const head = Buffer.alloc(64);
  const fd = fs.openSync(filePath, 'r');
  const headLength = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const docs: SourceDoc[] = [];
  if (
    /^\s*\[/.test(
      head
        .subarray(0, headLength)
        .toString('utf8')
        .replace(/^\ufeff/, ''),
    )
  ) {
    // --jsonArray: one array; lines are not known, so each document is named by its position.
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(filePath, 'utf8').replace(/^\ufeff/, ''));
    } catch (error) {
      throw new ExportSyntaxError(file, 1, `不是有效的 JSON（${(error as Error).message}）`);
    }
    if (!Array.isArray(parsed)) throw new ExportSyntaxError(file, 1, '不是 JSON 数组');
    for (const [i, item] of parsed.entries())
      docs.push({ doc: toDoc(() => EJSON.deserialize(item, { relaxed: true }), file, i + 1), line: i + 1, file });
    return docs;
  }
  const input = fs.createReadStream(filePath, 'utf8');
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      const text = line === 1 ? raw.replace(/^\ufeff/, '') : raw;
      if (!text.trim()) continue;
      docs.push({ doc: toDoc(() => EJSON.parse(text, { relaxed: true }), file, line), line, file });
    }
  } finally {
    // Closing readline (a refused line ends the loop) leaves its input open; the file is closed here.
    input.destroy();
  }
  return docs;
}

/** Every `<collection>.json` of a folder, by collection name. */
export async function readExportFolder(dir: string): Promise<Map<string, SourceDoc[]>> {
  const collections = new Map<string, SourceDoc[]>();
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith('.json'))
    .sort();
  if (!files.length) throw new SourceError(`文件夹 ${dir} 中没有 mongoexport 导出的 <集合名>.json 文件`);
  for (const name of files) {
    collections.set(name.replace(/\.json$/i, ''), await readExportFile(path.join(dir, name)));
  }
  return collections;
}
