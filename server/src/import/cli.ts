/**
 * `npm run import -- <source> [--static <dir>] [--dry-run] [--update] [--reset-legacy-passwords]`:
 * brings an old coder station's MongoDB data (a Navicat dump script, or a folder of mongoexport
 * files) into the database the server uses (DATABASE_URL, or the embedded one in DATA_DIR, which
 * must not be open in a running server). See docs/import.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/configured';
import { readCommandLine, UsageError } from '../lib/command-line';
import { DataDirInUseError } from '../lib/data-dir-lock';
import { runImport, type Collection } from './importer';
import { formatReport } from './report';
import { readSource } from './source';
import { SourceError } from './values';

const USAGE = `用法：npm run import -- <来源> [--static <旧服务器的 public/static 文件夹>] [--dry-run] [--update] [--reset-legacy-passwords] [--report <文件>]
  <来源>                    Navicat 导出的脚本（Dump Script，.js），或 mongoexport 导出的 <集合名>.json 所在的文件夹
  --static <文件夹>         头像和封面的 /static/... 图片从这里读取并存为上传的图片
  --dry-run                 全部做一遍但不提交，只打印报告
  --update                  已存在（同一 id）的记录用来源覆盖（默认不动）
  --reset-legacy-passwords  给每个导入的管理员一个新的随机密码（只打印这一次），不保留旧的 md5 密码
  --report <文件>           把完整报告（每条跳过、修正的记录）写成 JSON 文件
数据库与服务器相同：设置了 DATABASE_URL 时是该 PostgreSQL，否则是 DATA_DIR 中的内置数据库（先停止服务器）。`;

function progress(): (collection: Collection, done: number, total: number) => void {
  const tty = process.stderr.isTTY;
  const started = new Map<string, number>();
  const ended = new Set<string>();
  let lastDraw = 0;
  return (collection, done, total) => {
    if (ended.has(collection)) return;
    if (!started.has(collection)) started.set(collection, Date.now());
    const seconds = ((Date.now() - started.get(collection)!) / 1000).toFixed(1);
    const finished = done >= total;
    if (finished) ended.add(collection);
    if (tty) {
      // Redrawn at most every 100 ms, and once more when the collection is done.
      if (!finished && Date.now() - lastDraw < 100) return;
      lastDraw = Date.now();
      const ratio = total === 0 ? 1 : done / total;
      const filled = Math.round(ratio * 30);
      process.stderr.write(
        `\r${collection.padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total} ${seconds}s`,
      );
      if (finished) process.stderr.write('\n');
    } else if (finished) {
      // Without a terminal, one plain line per collection.
      process.stderr.write(`${collection}: ${total} 条已处理，${seconds} 秒\n`);
    }
  };
}

async function main() {
  const { values, positionals } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    allowPositionals: true,
    options: {
      static: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      update: { type: 'boolean', default: false },
      'reset-legacy-passwords': { type: 'boolean', default: false },
      report: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(`请指定一个来源\n${USAGE}`);
  const source = path.resolve(positionals[0]);
  const staticDir = values.static ? path.resolve(values.static) : null;
  if (staticDir && !(fs.existsSync(staticDir) && fs.statSync(staticDir).isDirectory()))
    throw new UsageError(`--static ${staticDir} 不是文件夹`);

  // The whole source is read (and a dump script parsed) before the database is touched.
  const data = await readSource(source);
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    console.error(
      `导入 ${source} 到${database.kind === 'postgres' ? ' PostgreSQL（DATABASE_URL）' : `内置数据库（${config.dataDir}）`}${values['dry-run'] ? '（试运行）' : ''}`,
    );
    const { report, newPasswords } = await runImport(database.db, data, {
      source,
      staticDir,
      dryRun: values['dry-run'] ?? false,
      update: values.update ?? false,
      resetLegacyPasswords: values['reset-legacy-passwords'] ?? false,
      progress: progress(),
    });
    console.log(formatReport(report));
    if (values.report) {
      fs.writeFileSync(path.resolve(values.report), `${JSON.stringify(report, null, 2)}\n`);
      console.log(`完整报告已写入 ${path.resolve(values.report)}`);
    }
    if (newPasswords.length) {
      console.log(report.dryRun ? '试运行，以下密码没有生效：' : '管理员的新密码（只显示这一次，请立即转交并妥善保存）：');
      for (const { loginId, password } of newPasswords) console.log(`  ${loginId}  ${password}`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof SourceError || error instanceof UsageError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
