import path from 'node:path';
import { DEFAULT_TIMEOUTS, type DatabaseTimeouts } from './db/timeouts';
import { FIRST_ADMIN_NICKNAME } from './lib/defaults';
import { adminPasswordProblem } from './lib/password-rules';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string | null;
  adminLoginId: string;
  adminPassword: string | null;
  logLevel: LogLevel;
  trustProxy: boolean;
  /** NODE_ENV, trimmed and in lower case. */
  nodeEnv: string;
  /** Fixed answer for every captcha; automated tests only, refused in production. */
  captchaTestAnswer: string | null;
  /** The built front end served at the root; null when there is none to serve. */
  webRoot: string | null;
  /** How long a call may wait on PostgreSQL for a connection, a lock and a statement. */
  databaseTimeouts: DatabaseTimeouts;
  /** Audit log entries older than this many days are removed by the server. */
  auditRetentionDays: number;
  /** How long a deletion stays in the recycle bin before the server purges it. */
  trashRetentionDays: number;
  /**
   * TIME_ZONE (IANA name, default Asia/Shanghai): the installation's zone. Every time on screen,
   * in a CSV and in an export's file name is given in it, and date-range filters pick its days.
   */
  timeZone: string;
  /**
   * SESSIONS_IN_MEMORY (default true): the session check answers from memory what it read before,
   * as long as nothing it reads has changed (on PostgreSQL: told by LISTEN/NOTIFY, db/change-feed.ts).
   * false: every request looks its session up in the database.
   */
  sessionsInMemory: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`环境变量 ${variable} 无效：${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function port(env: Env): number {
  const raw = text(env, 'PORT');
  if (raw === null) return 7001;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError('PORT', `"${raw}" 不是 0 到 65535 之间的端口号`);
  return Number(raw);
}

function bool(env: Env, name: string, fallback = false): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `"${raw}" 应为 true 或 false`);
}

function milliseconds(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 100 || Number(raw) > 600_000) {
    throw new ConfigError(name, `"${raw}" 应为 100 到 600000 之间的毫秒数`);
  }
  return Number(raw);
}

function days(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 36_500) throw new ConfigError(name, `"${raw}" 应为 1 到 36500 之间的天数`);
  return Number(raw);
}

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

function timeZone(env: Env): string {
  const raw = text(env, 'TIME_ZONE');
  if (raw === null) return DEFAULT_TIME_ZONE;
  const problem = `"${raw}" 不是 IANA 时区名（例如 Asia/Shanghai）`;
  // Names only (no "+08:00"): the browsers that format the screen's times must know it too.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(raw)) throw new ConfigError('TIME_ZONE', problem);
  try {
    // Intl knows the IANA database of the Node it runs on; an unknown name is a RangeError.
    return new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError('TIME_ZONE', problem);
  }
}

function databaseUrl(env: Env): string | null {
  const raw = text(env, 'DATABASE_URL');
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', '不是合法的 URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', '只支持 postgres:// 或 postgresql:// 地址');
  }
  return raw;
}

/** Reads the environment once; any invalid value stops the start, naming the variable. */
export function loadConfig(env: Env = process.env, defaults: { webRoot?: string | null } = {}): Config {
  // Compared in lower case: `NODE_ENV=Production` is production too, and must not admit the
  // captcha test answer.
  const nodeEnv = (text(env, 'NODE_ENV') ?? 'development').toLowerCase();

  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `应为 ${LOG_LEVELS.join('、')} 之一`);
  }

  const jwtSecret = text(env, 'JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', '长度至少 32 个字符');
  }

  const adminLoginId = text(env, 'ADMIN_LOGIN_ID') ?? 'admin';
  if (adminLoginId.length > 64) throw new ConfigError('ADMIN_LOGIN_ID', '长度不能超过 64 个字符');

  const adminPassword = text(env, 'ADMIN_PASSWORD');
  if (adminPassword !== null) {
    if (adminPassword.length > 128) throw new ConfigError('ADMIN_PASSWORD', '长度不能超过 128 个字符');
    // The administrators' password rules, as for every other way an admin's password is set.
    const problem = adminPasswordProblem(adminPassword, { loginId: adminLoginId, nickname: FIRST_ADMIN_NICKNAME });
    if (problem) throw new ConfigError('ADMIN_PASSWORD', problem);
  }

  const captchaTestAnswer = text(env, 'CAPTCHA_TEST_ANSWER');
  if (captchaTestAnswer !== null) {
    if (nodeEnv === 'production') {
      throw new ConfigError('CAPTCHA_TEST_ANSWER', '只用于自动化测试，NODE_ENV=production 时不能设置');
    }
    if (!/^[A-Za-z0-9]{4}$/.test(captchaTestAnswer)) {
      throw new ConfigError('CAPTCHA_TEST_ANSWER', '应为 4 个字母或数字');
    }
  }

  const host = text(env, 'HOST') ?? '127.0.0.1';

  return {
    port: port(env),
    host,
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    databaseUrl: databaseUrl(env),
    jwtSecret,
    adminLoginId,
    adminPassword,
    logLevel,
    trustProxy: bool(env, 'TRUST_PROXY'),
    nodeEnv,
    captchaTestAnswer,
    databaseTimeouts: {
      acquireMs: milliseconds(env, 'DB_ACQUIRE_TIMEOUT_MS', DEFAULT_TIMEOUTS.acquireMs),
      lockMs: milliseconds(env, 'DB_LOCK_TIMEOUT_MS', DEFAULT_TIMEOUTS.lockMs),
      statementMs: milliseconds(env, 'DB_STATEMENT_TIMEOUT_MS', DEFAULT_TIMEOUTS.statementMs),
    },
    auditRetentionDays: days(env, 'AUDIT_RETENTION_DAYS', 365),
    trashRetentionDays: days(env, 'TRASH_RETENTION_DAYS', 30),
    timeZone: timeZone(env),
    sessionsInMemory: bool(env, 'SESSIONS_IN_MEMORY', true),
    webRoot: text(env, 'WEB_ROOT') ? path.resolve(text(env, 'WEB_ROOT')!) : (defaults.webRoot ?? null),
  };
}
