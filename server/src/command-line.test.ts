import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseServerArgs, SERVER_USAGE, UsageError } from './command-line';

describe('the server’s command line', () => {
  it('takes --demo and --help (-h), and nothing else', () => {
    expect(parseServerArgs([])).toEqual({ help: false, demo: false });
    expect(parseServerArgs(['--demo'])).toEqual({ help: false, demo: true });
    expect(parseServerArgs(['--help'])).toEqual({ help: true });
    expect(parseServerArgs(['-h', '--demo'])).toEqual({ help: true });
  });

  it.each([
    [['--dmeo'], '--dmeo'],
    [['demo'], 'demo'],
    [['--demo=yes'], '--demo=yes'],
    [['--demo', '--port', '8080'], '--port 8080'],
    [['--', '--demo'], '--demo'],
  ])('refuses %j, naming %s, with the usage', (argv, named) => {
    let thrown: unknown;
    try {
      parseServerArgs(argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toBe(`不认识的参数：${named}\n${SERVER_USAGE}`);
  });
});

describe('the server started with arguments it does not take, or --help', () => {
  const root = path.resolve(__dirname, '../..');
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-args-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const start = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('--help prints the usage and stops, opening nothing', () => {
    const result = start('--help');
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(SERVER_USAGE);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('a mistyped flag stops the start with a message naming it, before the database opens', () => {
    const result = start('--dmeo');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('不认识的参数：--dmeo');
    expect(result.stdout).not.toContain('已启动');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
