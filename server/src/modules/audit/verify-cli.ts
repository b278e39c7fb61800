/**
 * `npm run audit:verify`: checks the audit log's hash chain on the database the server uses
 * (DATABASE_URL, or the embedded one in DATA_DIR, which must not be open in a running server).
 * Exit code 0: whole; 2: broken (the first broken entry is named); 1: could not check.
 */
import { sql } from 'drizzle-orm';
import type { AuditChainReport } from '#contract/audit';
import { ConfigError, loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { openConfiguredDatabase } from '../../db/configured';
import { readCommandLine, requireExistingDataDir, UsageError } from '../../lib/command-line';
import { DataDirInUseError } from '../../lib/data-dir-lock';
import { verifyChain } from './audit.chain';

/** The report as the terminal shows it. */
export function describeReport(report: AuditChainReport, timeZone: string): string {
  const purged = report.purged ? `，另有 ${report.purged} 条已按保留期清理（清理处的衔接已记录）` : '';
  if (report.ok) return `日志链完整：核对了 ${report.count} 条记录${purged}。`;
  const broken = report.broken!;
  const at = broken.at ? `，时间 ${new Date(broken.at).toLocaleString('zh-CN', { timeZone })}` : '';
  const which = broken.id ? `日志编号 ${broken.id}（链中第 ${broken.seq} 条${at}）` : `链中第 ${broken.seq} 条`;
  return `日志链在${which}处断开：${broken.reason}。此前 ${report.count} 条核对无误${purged}。`;
}

const USAGE = `用法：npm run audit:verify
  核对操作日志的哈希链（服务器所用的数据库：设置了 DATABASE_URL 时是该 PostgreSQL，否则是 DATA_DIR 中的内置数据库，先停止服务器）。
  退出码 0：完整；2：断开（指出第一条断开的记录）；1：无法核对。`;

async function main() {
  const { values } = readCommandLine(process.argv.slice(2), { options: { help: { type: 'boolean', short: 'h' } }, usage: USAGE });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  requireExistingDataDir(config);
  const database = await openConfiguredDatabase(config);
  try {
    const [found] = await queryRows<{ name: string | null }>(database.db, sql`select to_regclass('audit_chain_gaps')::text as name`);
    if (!found?.name) {
      console.error('数据库还没有日志链（迁移 0013）：先用本版本启动一次服务器，完成数据库迁移后再核对。');
      process.exitCode = 1;
      return;
    }
    const report = await verifyChain(database.db);
    console.log(describeReport(report, config.timeZone));
    process.exitCode = report.ok ? 0 : 2;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof UsageError;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
