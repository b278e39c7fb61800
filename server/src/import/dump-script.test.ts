import { DumpSyntaxError, parseDumpScript } from './dump-script';
import { ObjectIdValue } from './values';

const ID = '64a1f0c2a1b2c3d4e5f6aa01';

/** The line and message a script is refused with. */
function refusal(script: string): { line: number; message: string } {
  try {
    parseDumpScript(script);
  } catch (error) {
    expect(error).toBeInstanceOf(DumpSyntaxError);
    return { line: (error as DumpSyntaxError).line, message: (error as Error).message };
  }
  throw new Error('the script was read');
}

describe('Navicat dump script', () => {
  it('reads the values a dump holds, each document with the line of its "{"', () => {
    const script = parseDumpScript(
      `\ufeff// header\ndb.getCollection("t").drop();\ndb.createCollection("t", { capped: false });\ndb.getCollection("t").createIndex({ a: 1 }, { name: "a_1" });\n` +
        `db.getCollection("t").insertMany([\n  { _id: ObjectID("${ID.toUpperCase()}"), "quoted key": 'it\\'s', n: NumberInt(-5), l: new NumberLong("7"), d: Double(.5),\n` +
        `    when: ISODate("2023-06-01T00:00:00Z"), also: new Date(1685577600000), neg: -1.5e1, none: undefined, nil: null, yes: true, list: [1, "2"] },\n` +
        `  { "__proto__": { polluted: true }, 1: "numbered" }\n], { ordered: false })\n` +
        `db.getCollection("u").insertOne({ x: Decimal128("2.25") });;\n`,
    );
    expect([...script.collections]).toEqual(['t', 'u']);
    const june = new Date(Date.UTC(2023, 5, 1));
    expect(script.inserts.map((i) => [i.collection, i.line])).toEqual([
      ['t', 6],
      ['t', 8],
      ['u', 10],
    ]);
    expect(script.inserts[0].doc).toEqual({
      _id: new ObjectIdValue(ID),
      'quoted key': "it's",
      n: -5,
      l: 7,
      d: 0.5,
      when: june,
      also: june,
      neg: -15,
      none: null,
      nil: null,
      yes: true,
      list: [1, '2'],
    });
    const proto = script.inserts[1].doc;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto).sort()).toEqual(['1', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(script.inserts[2].doc).toEqual({ x: 2.25 });
  });

  it.each([
    ['a variable', 'db.getCollection("t").drop();\nvar x = 1;', 2, /不认识的语句/],
    ['a directive', '"use strict";', 1, /不认识的语句/],
    ['a call after two statements on one line', 'db.getCollection("t").drop(), process.exit()', 1, /不认识的语句/],
    ['another method of db', '\n\ndb.eval("x")', 3, /不认识的操作 db\.eval/],
    ['a chained call', 'db.getCollection("t").find().forEach(printjson)', 1, /不认识的语句 db\.getCollection\(…\)\.find\(…\)/],
    ['a computed member', 'db["getCollection"]("t").drop()', 1, /不认识的语句/],
    ['an unknown method', 'db.getCollection("t").remove({})', 1, /不认识的操作 remove/],
    ['a template string', 'db.getCollection("t").insert({\n a: `x`\n})', 2, /模板字符串/],
    ['a regular expression', 'db.getCollection("t").insert({ a: /x/ })', 1, /正则表达式/],
    ['a hexadecimal number', 'db.getCollection("t").insert({ a: 0x10 })', 1, /数字格式无效/],
    ['a getter', 'db.getCollection("t").insert({ get a() { return 1 } })', 1, /字段名: 值/],
    ['a spread', 'db.getCollection("t").insert({ ...x })', 1, /字段名: 值/],
    ['a name', 'db.getCollection("t").insert({ a: process })', 1, /不认识的构造函数或名称 process/],
    ['an arithmetic expression', 'db.getCollection("t").insert({ a: 1 + 1 })', 1, /不支持的写法/],
    ['an array element that is no document', 'db.getCollection("t").insert([{},\n 5])', 2, /第 2 个元素不是文档/],
    ['a hole in the array', 'db.getCollection("t").insert([{},,{}])', 1, /第 2 个元素不是文档/],
    ['a bad ObjectId', 'db.getCollection("t").insert({ _id: ObjectId("xyz") })', 1, /24 位十六进制/],
    ['a bad date', 'db.getCollection("t").insert({ d: ISODate("someday") })', 1, /不是有效的日期/],
    ['a number constructor without a number', 'db.getCollection("t").insert({ n: NumberInt("x") })', 1, /应为数字/],
    ['statements on one line without ";"', 'db.getCollection("t").drop() db.getCollection("u").drop()', 1, /无法解析/],
    ['an unclosed comment', 'db.getCollection("t").drop();\n/* open', 2, /无法解析/],
    ['an unclosed bracket', 'db.getCollection("t").drop();\ndb.getCollection("t").insert([\n{ a: 1 }\n', 2, /"\[" 到文件末尾都没有闭合/],
    ['an unterminated string', 'db.getCollection("t").insert({\n a: "x\n})', 2, /字符串没有结束/],
  ])('refuses %s with its line', (_name, script, line, reason) => {
    const { line: at, message } = refusal(script);
    expect(at).toBe(line);
    expect(message).toMatch(reason);
    expect(message).toContain(`第 ${line} 行`);
  });

  it('refuses nesting deeper than 100 levels, however deep, without running out of stack', () => {
    for (const depth of [101, 100_000]) {
      const { line, message } = refusal(
        `db.getCollection("t").drop();\ndb.getCollection("t").insert({ a: ${'['.repeat(depth)}${']'.repeat(depth)} })`,
      );
      expect(line).toBe(2);
      expect(message).toMatch(/嵌套超过 100 层/);
    }
    expect(refusal(`db.getCollection("t").insert({ a: ${'-'.repeat(100_000)}1 })`).message).toMatch(/嵌套超过 100 层|不支持的运算/);
  });
});
