import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readExportFile } from './mongoexport';
import { ObjectIdValue } from './values';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongoexport-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, text);
  return at;
}

describe('mongoexport files (Extended JSON v2)', () => {
  it('reads canonical and relaxed wrappers as plain values, with each document’s line', async () => {
    const at = file(
      'types.json',
      [
        '\ufeff{"_id":{"$oid":"64A1F0C2A1B2C3D4E5F60001"},"n":{"$numberInt":"132"},"l":{"$numberLong":"100"},"d":{"$numberDouble":"3.5"},"m":{"$numberDecimal":"2.25"}}',
        '',
        '{"_id":{"$oid":"64a1f0c2a1b2c3d4e5f60002"},"iso":{"$date":"2023-06-01T00:00:00Z"},"long":{"$date":{"$numberLong":"1685577600000"}},"ms":{"$date":1685577600000},"list":[1,{"$oid":"64a1f0c2a1b2c3d4e5f60003"}],"plain":{"a":"b","t":true,"z":null}}',
      ].join('\r\n'),
    );
    const docs = await readExportFile(at);
    expect(docs.map((d) => [d.file, d.line])).toEqual([
      ['types.json', 1],
      ['types.json', 3],
    ]);
    expect(docs[0].doc).toEqual({ _id: new ObjectIdValue('64a1f0c2a1b2c3d4e5f60001'), n: 132, l: 100, d: 3.5, m: 2.25 });
    const june = new Date(Date.UTC(2023, 5, 1));
    expect(docs[1].doc).toEqual({
      _id: new ObjectIdValue('64a1f0c2a1b2c3d4e5f60002'),
      iso: june,
      long: june,
      ms: june,
      list: [1, new ObjectIdValue('64a1f0c2a1b2c3d4e5f60003')],
      plain: { a: 'b', t: true, z: null },
    });
  });

  it('keeps "__proto__" as an ordinary field, never as the prototype', async () => {
    const [{ doc }] = await readExportFile(file('proto.json', '{"__proto__":{"polluted":true},"x":{"__proto__":1}}\n'));
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.keys(doc)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(doc.x as object)).toEqual(['__proto__']);
  });

  it('keeps a BSON type no field takes (binary) as the document mongoexport wrote', async () => {
    const [{ doc }] = await readExportFile(file('bin.json', '{"b":{"$binary":{"base64":"AA==","subType":"00"}}}\n'));
    expect(doc).toEqual({ b: { $binary: { base64: 'AA==', subType: '00' } } });
  });

  it('reads a --jsonArray file, naming each document by its position', async () => {
    const docs = await readExportFile(file('array.json', '[{"_id":{"$oid":"64a1f0c2a1b2c3d4e5f60001"}},\n {"n":{"$numberLong":"7"}}]'));
    expect(docs.map((d) => [d.line, d.doc])).toEqual([
      [1, { _id: new ObjectIdValue('64a1f0c2a1b2c3d4e5f60001') }],
      [2, { n: 7 }],
    ]);
  });

  it.each([
    ['a line that is not JSON', '{"a":1}\n{"a":\n', 2, /不是有效的 JSON/],
    ['an $oid that is not 24 hex digits', '{"a":1}\n{"_id":{"$oid":"xyz"}}\n', 2, /不是有效的 Extended JSON/],
    ['a $date that is no date', '{"d":{"$date":"someday"}}\n', 1, /\$date 不是有效的日期/],
    ['a $numberLong that is no integer', '{"d":{"$date":{"$numberLong":"1e3"}}}\n', 1, /不是有效的 Extended JSON/],
    ['a line that is no document', '{"a":1}\n[1,2]\n', 2, /不是一个文档/],
    ['a line that is one wrapped value', '{"$oid":"64a1f0c2a1b2c3d4e5f60001"}\n', 1, /不是一个文档/],
  ])('refuses the whole file for %s, naming file and line', async (_, text, line, reason) => {
    const failure = readExportFile(file('bad.json', text));
    await expect(failure).rejects.toThrow(new RegExp(`^bad\\.json 第 ${line} 行：`));
    await expect(failure).rejects.toThrow(reason);
  });

  it('refuses an item of a --jsonArray file that is no document, by its position', async () => {
    await expect(readExportFile(file('bad-array.json', '[{"a":1},"text"]'))).rejects.toThrow(/^bad-array\.json 第 2 行：不是一个文档/);
  });
});
