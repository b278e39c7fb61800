import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runFromSource } from './live/source-process';

/**
 * The tools an operator types (npm start, seed, backup, restore, import, audit:verify, admin:reset): a command
 * line they do not take stops them with a message naming what, before the database opens,
 * instead of being ignored or ending in a stack trace.
 */

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-args-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (entry: string, ...args: string[]) =>
  runFromSource(entry, args, { NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });

/** Nothing was opened or written: the embedded database makes its files in DATA_DIR when it opens. */
const untouched = () => expect(fs.readdirSync(dataDir)).toEqual([]);

it('npm start -- --help prints the server’s usage and stops', () => {
  const result = run('server/src/main.ts', '--help');
  expect(result.status).toBe(0);
  expect(result.stdout).toContain('用法：npm start [-- --demo]');
  untouched();
});

it('before npm start builds the front end, the server checks its command line and settings and stops (START_CHECK_ONLY)', () => {
  const fine = runFromSource('server/src/main.ts', ['--demo'], { NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', START_CHECK_ONLY: '1' });
  expect(fine.status).toBe(0);
  expect(fine.stdout + fine.stderr).toBe('');
  untouched();

  const wrong = runFromSource('server/src/main.ts', [], { NODE_ENV: 'test', DATA_DIR: dataDir, PORT: 'abc', START_CHECK_ONLY: '1' });
  expect(wrong.status).toBe(1);
  expect(wrong.stderr.trim()).toBe('环境变量 PORT 无效："abc" 不是 0 到 65535 之间的端口号');
  untouched();
});

it.each([
  ['npm run backup', 'server/src/backup/cli.ts', ['backup', '--out', path.join(os.tmpdir(), `cs-args-${process.pid}.jsonl.gz`)]],
  ['npm run audit:verify', 'server/src/modules/audit/verify-cli.ts', []],
  ['npm run admin:reset -- admin', 'server/src/modules/admin/reset-cli.ts', ['admin']],
])('%s of a data folder that does not exist says so, and makes none', (_command, entry, args) => {
  fs.rmSync(dataDir, { recursive: true });
  const result = run(entry, ...args);
  expect(result.status).toBe(1);
  expect(result.stderr.trim()).toBe(`数据目录 ${dataDir} 不存在，那里没有内置数据库（DATA_DIR 是否写错了？）`);
  expect(fs.existsSync(dataDir)).toBe(false);
});

it.each([
  ['npm start -- --dmeo', 'server/src/main.ts', ['--dmeo'], '不认识的参数：--dmeo'],
  ['npm run seed -- --demo --rest', 'server/src/seed/cli.ts', ['--demo', '--rest'], '不认识的参数：--rest'],
  [
    'npm run backup -- nightly.jsonl.gz',
    'server/src/backup/cli.ts',
    ['backup', 'nightly.jsonl.gz'],
    '不认识的参数：nightly.jsonl.gz（备份文件用 --out 指定）',
  ],
  ['npm run backup -- --out', 'server/src/backup/cli.ts', ['backup', '--out'], '--out 需要一个值'],
  ['npm run restore', 'server/src/backup/cli.ts', ['restore'], '请指定要恢复的备份文件'],
  ['npm run restore -- a.gz --froce', 'server/src/backup/cli.ts', ['restore', 'a.gz', '--froce'], '不认识的参数：--froce'],
  ['npm run import -- dump.js --dryrun', 'server/src/import/cli.ts', ['dump.js', '--dryrun'], '不认识的参数：--dryrun'],
  ['npm run audit:verify -- --fix', 'server/src/modules/audit/verify-cli.ts', ['--fix'], '不认识的参数：--fix'],
  ['npm run admin:reset', 'server/src/modules/admin/reset-cli.ts', [], '请指定一个管理员账号'],
  ['npm run admin:reset -- admin root', 'server/src/modules/admin/reset-cli.ts', ['admin', 'root'], '请指定一个管理员账号'],
  ['npm run admin:reset -- admin --enabel', 'server/src/modules/admin/reset-cli.ts', ['admin', '--enabel'], '不认识的参数：--enabel'],
])('%s: refused by name, with the usage, before the database opens', (_command, entry, args, problem) => {
  const result = run(entry, ...args);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`${problem}\n用法：`);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).not.toContain('已启动');
  untouched();
});
