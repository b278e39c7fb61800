/**
 * `npm run admin:reset -- <账号> [--enable]`: gives an admin who cannot sign in (a forgotten
 * password, a lost phone and recovery codes) a new password, with two-step sign-in and passkeys
 * off, on the database the server uses (DATABASE_URL, or the embedded one in DATA_DIR, which must
 * not be open in a running server). See docs/operations.md.
 */
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { openConfiguredDatabase } from '../../db/configured';
import { readCommandLine, requireExistingDataDir, UsageError } from '../../lib/command-line';
import { DataDirInUseError } from '../../lib/data-dir-lock';
import { resetSignIn, type SignInReset, SignInResetRefusal } from './reset-sign-in';

const USAGE = `用法：npm run admin:reset -- <账号> [--enable]
  为无法登录的管理员（忘记密码，或丢失了两步验证的手机和恢复码）重置登录：
  生成一个新密码（只显示这一次，下次登录时须修改），关闭两步验证，删除通行密钥和恢复码，结束所有会话。
  --enable  账号已被禁用时同时启用它
数据库与服务器相同：设置了 DATABASE_URL 时是该 PostgreSQL（服务器可以在运行），否则是 DATA_DIR 中的内置数据库（先停止服务器）。`;

/** What the terminal shows after a reset. */
export function describeReset(reset: SignInReset): string {
  const done = [
    ...(reset.enabled ? ['账号已启用'] : []),
    reset.twoFactorWasOn ? `两步验证已关闭（${reset.recoveryCodes} 个恢复码作废）` : '两步验证原本未开启',
    ...(reset.passkeys ? [`删除了 ${reset.passkeys} 个通行密钥`] : []),
    `结束了 ${reset.sessions} 个会话`,
  ];
  return [
    `管理员 ${reset.loginId} 的登录已重置：${done.join('，')}。`,
    `新密码（只显示这一次，请当面或通过可靠渠道转交；下次登录时须修改）：${reset.password}`,
    '操作日志里记下了这次重置（操作者：npm run admin:reset）。',
  ].join('\n');
}

async function main() {
  const { values, positionals } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    allowPositionals: true,
    options: { enable: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(`请指定一个管理员账号\n${USAGE}`);
  const config = loadConfig();
  requireExistingDataDir(config);
  const database = await openConfiguredDatabase(config);
  try {
    const [found] = await queryRows<{ name: string | null }>(database.db, sql`select to_regclass('admins')::text as name`);
    // A data folder or database the server never started on (a mistyped DATA_DIR or DATABASE_URL).
    if (!found?.name)
      throw new SignInResetRefusal('这个数据库里还没有 coderstation 的数据表（服务器从未在它上面启动过），没有可重置的管理员。');
    // A database an older version set up gets this version's tables first, as a start would.
    await database.migrate();
    console.log(describeReset(await resetSignIn(database.db, positionals[0], { enable: values.enable })));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof DataDirInUseError ||
    error instanceof UsageError ||
    error instanceof SignInResetRefusal;
  console.error(known ? (error as Error).message : error);
  process.exit(1);
});
