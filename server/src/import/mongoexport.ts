/**
 * Reads a folder of mongoexport files, `<collection>.json`, one document per line in Extended
 * JSON v2, relaxed or canonical ({"$oid"}, {"$date": ISO string | {"$numberLong"} | number},
 * {"$numberInt"}, {"$numberLong"}, {"$numberDouble"}, {"$numberDecimal"}). A file written with
 * --jsonArray (one JSON array) is read as well. A line that is not JSON refuses the whole source.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { type Doc, ObjectIdValue, SourceError, type SourceDoc, type Value } from './values';

export class ExportSyntaxError extends SourceError {
  constructor(file: string, line: number, reason: string) {
    super(`${file} 第 ${line} 行：${reason}。没有导入任何数据。`);
    this.name = 'ExportSyntaxError';
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Extended JSON's type wrappers to plain values; anything else is kept as it is. */
export function fromExtendedJson(value: unknown, where: () => string): Value {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => fromExtendedJson(v, where));
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0].startsWith('$')) {
    const [key] = keys;
    const inner = obj[key];
    if (key === '$oid') {
      if (typeof inner !== 'string' || !/^[0-9a-fA-F]{24}$/.test(inner)) throw new Error(`${where()}：$oid 应为 24 位十六进制字符串`);
      return new ObjectIdValue(inner.toLowerCase());
    }
    if (key === '$date') {
      const raw =
        typeof inner === 'object' && inner !== null && typeof (inner as Record<string, unknown>).$numberLong === 'string'
          ? Number((inner as Record<string, string>).$numberLong)
          : inner;
      const date = typeof raw === 'string' || typeof raw === 'number' ? new Date(raw) : null;
      if (!date || Number.isNaN(date.getTime())) throw new Error(`${where()}：$date 不是有效的日期`);
      return date;
    }
    if (key === '$numberInt' || key === '$numberLong' || key === '$numberDouble' || key === '$numberDecimal') {
      if (typeof inner !== 'string' || !(NUMBER.test(inner) || /^-?(Infinity|NaN)$/.test(inner)))
        throw new Error(`${where()}：${key} 应为数字字符串`);
      return Number(inner);
    }
  }
  const doc: Doc = {};
  for (const key of keys) {
    Object.defineProperty(doc, key, { value: fromExtendedJson(obj[key], where), enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

function toDoc(parsed: unknown, file: string, line: number): Doc {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ExportSyntaxError(file, line, '不是一个文档（JSON 对象）');
  try {
    return fromExtendedJson(parsed, () => `${file} 第 ${line} 行`) as Doc;
  } catch (error) {
    throw new ExportSyntaxError(file, line, (error as Error).message.replace(/^.*?：/, ''));
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
    for (const [i, item] of parsed.entries()) docs.push({ doc: toDoc(item, file, i + 1), line: i + 1, file });
    return docs;
  }
  const lines = readline.createInterface({ input: fs.createReadStream(filePath, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\ufeff/, '') : raw;
    if (!text.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ExportSyntaxError(file, line, `不是有效的 JSON（${(error as Error).message}）`);
    }
    docs.push({ doc: toDoc(parsed, file, line), line, file });
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
