/**
 * `npm run backup` and `npm run restore`, on the database the server uses (DATABASE_URL, or the
 * embedded one in DATA_DIR, which must not be open in a running server).
 *
 *   npm run backup                                   -> backups/coderstation-<date>-<time>.jsonl.gz
 *   npm run backup -- --out /somewhere/nightly.jsonl.gz
 *   npm run restore -- backups/coderstation-….jsonl.gz [--force]
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/configured';
import { readCommandLine, requireExistingDataDir, UsageError } from '../lib/command-line';
import { DataDirInUseError } from '../lib/data-dir-lock';
import { backup, BackupError, restore, type TableCounts } from './backup';

const USAGE = `用法：
  npm run backup -- [--out 文件]          备份到文件（默认 backups/coderstation-日期-时间.jsonl.gz）
  npm run restore -- <文件> [--force]     从文件恢复到空数据库；--force 先清空目标数据库中的全部数据
数据库与服务器相同：设置了 DATABASE_URL 时是该 PostgreSQL，否则是 DATA_DIR 中的内置数据库（先停止服务器）。`;

function stamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

function describe(counts: TableCounts): string {
  return Object.entries(counts)
    .map(([table, n]) => `${table} ${n}`)
    .join('，');
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = readCommandLine(rest, {
    usage: USAGE,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (command !== 'backup' && command !== 'restore')) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  // Before the database opens: a backup given a file name without --out would otherwise go to
  // the default file, and a restore reads exactly one file.
  if (command === 'backup' && positionals.length) {
    throw new UsageError(`不认识的参数：${positionals.join(' ')}（备份文件用 --out 指定）\n${USAGE}`);
  }
  if (command === 'restore' && positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length ? `只能指定一个备份文件，收到：${positionals.join(' ')}` : '请指定要恢复的备份文件'}\n${USAGE}`,
    );
  }
  if (command === 'restore' && !fs.existsSync(positionals[0])) throw new BackupError(`备份文件 ${positionals[0]} 不存在`);

  const config = loadConfig();
  if (command === 'backup') requireExistingDataDir(config);
  const database = await openConfiguredDatabase(config);
  const where = database.kind === 'postgres' ? 'PostgreSQL（DATABASE_URL）' : `内置数据库（${config.dataDir}）`;
  const started = Date.now();
  try {
    if (command === 'backup') {
      const file = path.resolve(values.out ?? path.join('backups', `coderstation-${stamp(new Date())}.jsonl.gz`));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const counts = await backup(database.db, file);
      const size = fs.statSync(file).size;
      console.log(
        `已备份${where}到 ${file}（${(size / 1024 / 1024).toFixed(2)} MB，${((Date.now() - started) / 1000).toFixed(1)} 秒）：${describe(counts)}`,
      );
    } else {
      const file = positionals[0];
      const counts = await restore(database, path.resolve(file), { force: values.force });
      console.log(`已从 ${path.resolve(file)} 恢复到${where}（${((Date.now() - started) / 1000).toFixed(1)} 秒）：${describe(counts)}`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof BackupError || error instanceof UsageError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
