import fs from 'node:fs';
import { parseDumpScript } from './dump-script';
import { readExportFolder } from './mongoexport';
import { type SourceData, type SourceDoc, SourceError } from './values';

/** A Navicat dump script (a file) or a folder of mongoexport files, read whole before anything is written. */
export async function readSource(source: string): Promise<SourceData> {
  if (!fs.existsSync(source))
    throw new SourceError(`找不到 ${source}：应为 Navicat 导出的脚本文件，或 mongoexport 导出的 <集合名>.json 所在的文件夹`);
  if (fs.statSync(source).isDirectory()) return { format: 'mongoexport', collections: await readExportFolder(source) };
  const script = parseDumpScript(fs.readFileSync(source, 'utf8'));
  const collections = new Map<string, SourceDoc[]>([...script.collections].map((name) => [name, []]));
  for (const insert of script.inserts) {
    if (!collections.has(insert.collection)) collections.set(insert.collection, []);
    collections.get(insert.collection)!.push({ doc: insert.doc, line: insert.line, file: source });
  }
  return { format: 'dump', collections };
}
