/**
 * `npm run seed`: fills the database the server uses (DATABASE_URL, or the embedded one in
 * DATA_DIR) with realistic demo content. Sizes come from flags, e.g.
 *   npm run seed -- --users 1000000 --issues 200000 --comments 1000000 --books 100000
 */
import { ConfigError, loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/configured';
import { readCommandLine } from '../lib/command-line';
import { DataDirInUseError } from '../lib/data-dir-lock';
import { DEFAULT_SIZES, DEMO_SIZES, resetContent, seed, SEEDED_USER_PASSWORD, type SeedSizes } from './seed';

const USAGE = `用法：npm run seed -- [--users N] [--books N] [--interviews N] [--issues N] [--comments N] [--demo] [--reset]
  --demo   使用演示规模（${Object.entries(DEMO_SIZES)
    .map(([k, v]) => `${k} ${v}`)
    .join('，')}）
  --reset  先清空所有内容（用户、书籍、面试题、问答、评论、分类；管理员保留）
默认规模：${Object.entries(DEFAULT_SIZES)
  .map(([k, v]) => `${k} ${v}`)
  .join('，')}`;

function parseSizes(argv: string[]): { sizes: SeedSizes; reset: boolean } {
  const { values } = readCommandLine(argv, {
    usage: USAGE,
    options: {
      users: { type: 'string' },
      books: { type: 'string' },
      interviews: { type: 'string' },
      issues: { type: 'string' },
      comments: { type: 'string' },
      demo: { type: 'boolean', default: false },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const sizes = { ...(values.demo ? DEMO_SIZES : DEFAULT_SIZES) };
  for (const key of Object.keys(sizes) as Array<keyof SeedSizes>) {
    const raw = values[key];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw) || Number(raw) > 50_000_000) throw new Error(`--${key} 应为 0 到 50000000 之间的整数，收到 "${raw}"`);
    sizes[key] = Number(raw);
  }
  return { sizes, reset: values.reset ?? false };
}

function progressBar(): (table: string, done: number, total: number) => void {
  const started = Date.now();
  const tty = process.stderr.isTTY;
  let last = '';
  return (table, done, total) => {
    const ratio = total === 0 ? 1 : done / total;
    const width = 30;
    const filled = Math.round(ratio * width);
    const line = `${table.padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total} ${((Date.now() - started) / 1000).toFixed(1)}s`;
    if (tty) {
      process.stderr.write(`\r${line}`);
      if (done === total) process.stderr.write('\n');
    } else if (done === total || line.slice(0, 50) !== last.slice(0, 50)) {
      // Without a terminal, one line per step instead of redrawing.
      process.stderr.write(`${line}\n`);
    }
    last = line;
  };
}

async function main() {
  const { sizes, reset } = parseSizes(process.argv.slice(2));
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    console.error(`填充${database.kind === 'postgres' ? ' PostgreSQL' : `内置数据库（${config.dataDir}）`}：${JSON.stringify(sizes)}`);
    const started = Date.now();
    if (reset) await resetContent(database.db);
    await seed(database.db, sizes, progressBar());
    console.error(`完成，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒。演示用户的密码都是 ${SEEDED_USER_PASSWORD}。`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof Error ? error.message : error);
  process.exit(1);
});
