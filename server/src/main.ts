import path from 'node:path';
import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import type { Database } from './db/client';
import { openConfiguredDatabase } from './db/configured';
import { readCommandLine, UsageError } from './lib/command-line';
import { DataDirInUseError } from './lib/data-dir-lock';
import { tracingFor } from './lib/tracing';
import { createLogging } from './plugins/logging';
import { createAdminRepository } from './modules/admin/admin.repository';
import { loginKeyCollisions } from './db/login-keys';
import { ensureFirstSuperAdmin, type FirstAdmin } from './modules/admin/first-admin';
import { DEMO_SIZES, isEmpty, seed } from './seed/seed';

const USAGE = `用法：npm start [-- --demo]
  --demo   数据库还没有任何内容时，先填充一小套演示数据
  --help   显示本说明
其余设置都来自环境变量（PORT、HOST、DATA_DIR、DATABASE_URL、ADMIN_LOGIN_ID、ADMIN_PASSWORD 等），
逐项说明见 docs/operations.md。`;

// How long a stop waits for the calls in flight before it closes anyway.
const DRAIN_GRACE_MS = 10_000;

// Both the source (server/src) and the bundle (server/dist) sit two levels below the root.
const DEFAULT_WEB_ROOT = path.resolve(__dirname, '../../dist');

function banner(url: string, database: Database, dataDir: string, first: FirstAdmin, passkeysAt: string | null): string {
  const lines = [
    '',
    `coder station 后台管理系统已启动：${url}`,
    `数据库：${database.kind === 'postgres' ? 'PostgreSQL（DATABASE_URL）' : `内置 PostgreSQL（PGlite），数据目录 ${dataDir}`}`,
    `超级管理员账号：${first.loginId}`,
  ];
  if (first.generatedPassword) {
    lines.push(`初始密码：${first.generatedPassword}（只显示这一次，请登录后修改）`);
  } else if (first.created) {
    lines.push('密码：ADMIN_PASSWORD 环境变量的值');
  } else {
    lines.push('密码：首次启动时设置的密码（首次启动时已打印）');
  }
  if (passkeysAt) lines.push(`通行密钥登录请用 ${passkeysAt} 打开（浏览器不接受 IP 地址）`);
  lines.push('');
  return lines.join('\n');
}

/** A start stopped by something the operator can put right: said in their terms, without a stack. */
class StartError extends Error {}

/** The refusals of the listen an operator meets (the port taken, a low port, a HOST not on this machine). */
function listenRefusal(error: unknown, host: string, port: number): StartError | null {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new StartError(`端口 ${port} 已被占用（${host}:${port}）：请先停止占用它的程序，或用 PORT 换一个端口。`);
    case 'EACCES':
      return new StartError(`没有权限监听 ${host}:${port}（1024 以下的端口需要特权）：请用 PORT 换一个 1024 以上的端口。`);
    case 'EADDRNOTAVAIL':
      return new StartError(`本机没有地址 ${host}：请把 HOST 设为本机的地址（如 127.0.0.1，或 0.0.0.0 监听所有地址）。`);
    default:
      return null;
  }
}

async function main() {
  // A mistyped flag stops the start here, before anything opens, rather than being ignored.
  const { values: flags } = readCommandLine(process.argv.slice(2), {
    options: { demo: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    usage: USAGE,
  });
  if (flags.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(process.env, { webRoot: DEFAULT_WEB_ROOT });
  // scripts/start.mjs asks only this much before it builds the front end: the command line and
  // the settings are fine.
  if (process.env.START_CHECK_ONLY === '1') return;
  let feedLost = false;
  // Before the database: its statements are traced through the hook given when it opens.
  const tracing = tracingFor(config);
  const database = await openConfiguredDatabase(config, {
    onStatement: tracing?.onStatement,
    onPoolError: (error) => console.error('数据库连接中断：', error.message),
    timeouts: config.databaseTimeouts,
    memo: config.sessionsInMemory,
    // Said when it happens, not on every request: until the channel is back every request's
    // session is looked up in the database.
    onFeedState: (state) => {
      if (!state.live) {
        feedLost = true;
        console.warn(`会话变更通知中断，改为每个请求都到数据库核对会话${state.error ? `：${state.error.message}` : ''}`);
      } else if (feedLost) {
        console.warn('会话变更通知已恢复');
      }
    },
  });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }

  const first = await ensureFirstSuperAdmin(database.db, createAdminRepository(database.db), config);
  let app: App;
  try {
    app = await serve(config, database, { demo: flags.demo === true, tracing });
  } catch (error) {
    // Made at this start and shown nowhere yet: shown now, or the first super admin is locked out.
    if (first.generatedPassword) {
      console.error(
        `超级管理员账号 ${first.loginId} 已在这次启动中创建，初始密码：${first.generatedPassword}（只显示这一次，请保存；下次启动不会再显示）`,
      );
    }
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  // WebAuthn names a site by a domain: at the loopback address the same server answers as localhost.
  const loopback = !config.webAuthn.rpId && (shownHost === '127.0.0.1' || shownHost === '[::1]');
  console.log(banner(`http://${shownHost}:${port}`, database, config.dataDir, first, loopback ? `http://localhost:${port}` : null));
}

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * The demo content if asked, the app, its stop on SIGTERM/SIGINT, and the listen. A start that
 * fails here closes what it opened (the data folder is given back) before it says why.
 */
async function serve(
  config: Config,
  database: Database,
  { demo, tracing }: { demo: boolean; tracing: ReturnType<typeof tracingFor> },
): Promise<App> {
  let app: App | undefined;
  try {
    // `npm start -- --demo`: a first-time visitor sees a living product instead of empty tables.
    if (demo && (await isEmpty(database.db))) {
      await seed(database.db, DEMO_SIZES);
      console.log('已填充演示数据（--demo）。');
    }
    const logging = await createLogging(config, { terminal: Boolean(process.stdout.isTTY) });
    app = await buildApp({ config, database, logging, tracing });
    // Accounts whose names already collided when the canonical names were first computed (migration
    // 0004): kept, and named at every start until someone renames or removes them.
    for (const collision of await loginKeyCollisions(database.db)) {
      app.log.warn(collision, 'account name collides with an older account by its canonical form; kept with a suffixed login_key');
    }
    stopOnSignals(app, database, config);
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenRefusal(error, config.host, config.port) ?? error;
    });
    return app;
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

function stopOnSignals(app: App, database: Database, config: Config) {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    let code = 0;
    try {
      // A balancer that reads /readyz stops sending calls here before they start being refused.
      if (config.stopDelayMs > 0) {
        app.unready();
        app.log.info({ signal, stopDelayMs: config.stopDelayMs }, 'shutting down: /readyz answers 503, still serving calls');
        await new Promise((resolve) => setTimeout(resolve, config.stopDelayMs));
      }
      app.log.info({ signal }, 'shutting down: finishing requests in flight, turning new ones away with 503');
      await app.drain(DRAIN_GRACE_MS);
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      code = 1;
    }
    // Closed (and the data folder given back) whatever became of the requests.
    try {
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'error while closing the database');
      code = 1;
    }
    process.exit(code);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof UsageError || error instanceof StartError) {
    console.error(error.message);
  } else {
    console.error('启动失败：', error);
  }
  process.exit(1);
});
