import path from 'node:path';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DEFAULT_TIMEOUTS } from './db/timeouts';
import { FIRST_ADMIN_NICKNAME } from './lib/defaults';
import { adminPasswordProblem } from './lib/password-rules';

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// Each variable's schema; `description` is what a bad value is told (after 环境变量 X 无效：).
const whole = (minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ minimum, maximum, default: fallback, description });
const flag = (fallback: boolean) => Type.Boolean({ default: fallback, description: '应为 true 或 false' });
const milliseconds = (fallback: number) => whole(100, 600_000, fallback, '应为 100 到 600000 之间的毫秒数');
const perHour = (fallback: number) => whole(1, 1_000_000, fallback, '应为 1 到 1000000 之间的次数（每小时）');
const days = (fallback: number) => whole(1, 36_500, fallback, '应为 1 到 36500 之间的天数');

/** The environment the server reads, with its defaults (docs/operations.md lists each variable). */
export const ENV_SCHEMA = Type.Object({
  PORT: whole(0, 65_535, 7001, '不是 0 到 65535 之间的端口号'),
  HOST: Type.String({ default: '127.0.0.1' }),
  DATA_DIR: Type.String({ default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: '只支持 postgres:// 或 postgresql:// 地址' })),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: '长度至少 32 个字符' })),
  ADMIN_LOGIN_ID: Type.String({ maxLength: 64, default: 'admin', description: '长度不能超过 64 个字符' }),
  ADMIN_PASSWORD: Type.Optional(Type.String({ maxLength: 128, description: '长度不能超过 128 个字符' })),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: 'info', description: `应为 ${LOG_LEVELS.join('、')} 之一` },
  ),
  TRUST_PROXY: flag(false),
  /** Compared in lower case: `NODE_ENV=Production` is production too, and must not admit the captcha test answer. */
  NODE_ENV: Type.String({ default: 'development' }),
  /** Fixed answer for every captcha; automated tests only, refused in production. */
  CAPTCHA_TEST_ANSWER: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{4}$', description: '应为 4 个字母或数字' })),
  /** The built front end served at the root. */
  WEB_ROOT: Type.Optional(Type.String()),
  DB_ACQUIRE_TIMEOUT_MS: milliseconds(DEFAULT_TIMEOUTS.acquireMs),
  DB_LOCK_TIMEOUT_MS: milliseconds(DEFAULT_TIMEOUTS.lockMs),
  DB_STATEMENT_TIMEOUT_MS: milliseconds(DEFAULT_TIMEOUTS.statementMs),
  AUDIT_RETENTION_DAYS: days(365),
  TRASH_RETENTION_DAYS: days(30),
  /** How many days the webhooks' delivery log (投递记录) keeps a delivery. */
  WEBHOOK_RETENTION_DAYS: days(30),
  /** Webhooks may send to loopback and private addresses (tests, an intranet install); refused by default (SSRF). */
  WEBHOOK_ALLOW_PRIVATE: flag(false),
  /** IANA names only (no "+08:00"): the browsers that format the screen's times must know it too. */
  TIME_ZONE: Type.String({
    pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
    default: DEFAULT_TIME_ZONE,
    description: '不是 IANA 时区名（例如 Asia/Shanghai）',
  }),
  /**
   * The session check answers from memory what it read before, as long as nothing it reads has
   * changed (on PostgreSQL: told by LISTEN/NOTIFY, db/change-feed.ts); false: every request reads it.
   */
  SESSIONS_IN_MEMORY: flag(true),
  /** The public site's origins allowed by CORS for visitor and member calls, comma-separated; none by default. */
  SITE_ORIGINS: Type.String({
    default: '',
    pattern: '^(|https?://[^\\s,/]+(,\\s*https?://[^\\s,/]+)*)$',
    description: '应为以逗号分隔的 http(s)://主机[:端口] 列表',
  }),
  // The public site's limits per rolling hour (docs/operations.md), each per member and per address.
  SITE_SIGNUPS_PER_ADDRESS: perHour(5),
  SITE_ISSUES_PER_MEMBER: perHour(10),
  SITE_ISSUES_PER_ADDRESS: perHour(30),
  SITE_COMMENTS_PER_MEMBER: perHour(60),
  SITE_COMMENTS_PER_ADDRESS: perHour(200),
  SITE_UPLOADS_PER_MEMBER: perHour(20),
  SITE_UPLOADS_PER_ADDRESS: perHour(60),
  /** Passkeys' relying party (modules/passkey): unset, derived from the serving host when it is localhost. */
  WEBAUTHN_RP_ID: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$',
      description: '应为域名（小写，不含协议和端口），如 admin.example.com',
    }),
  ),
  WEBAUTHN_RP_NAME: Type.String({
    minLength: 1,
    maxLength: 64,
    default: 'coder station 后台管理系统',
    description: '长度应为 1 到 64 个字符',
  }),
  /** The page origins passkeys are used from, comma-separated (https://admin.example.com). */
  WEBAUTHN_ORIGIN: Type.Optional(Type.String({ description: '应为以逗号分隔的网页来源，如 https://admin.example.com' })),
  /** GET /metrics for whoever sends `Authorization: Bearer <this>` (and for no one else). */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: '长度应为 16 到 256 个字符' })),
  /** `loopback`: GET /metrics without a token for a caller on 127.0.0.1 / ::1 (not through a proxy). */
  METRICS: Type.Union([Type.Literal('off'), Type.Literal('loopback')], { default: 'off', description: '应为 off 或 loopback' }),
  /** On SIGTERM, how long /readyz says 503 while calls are still served, before the drain begins. */
  STOP_DELAY_MS: whole(0, 600_000, 0, '应为 0 到 600000 之间的毫秒数'),
  /** How long a proof of identity (sign-in, POST /api/admin/me/reauth) lets the powerful actions through. */
  REAUTH_WINDOW_SECONDS: whole(30, 86_400, 900, '应为 30 到 86400 之间的秒数'),
  /** Where OpenTelemetry traces are sent (OTLP over HTTP, JSON; /v1/traces is appended); unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', description: '应为 http:// 或 https:// 地址，如 http://127.0.0.1:4318' }),
  ),
  /** The service.name the traces carry. */
  OTEL_SERVICE_NAME: Type.String({
    minLength: 1,
    maxLength: 128,
    default: 'coder-station-server',
    description: '长度应为 1 到 128 个字符',
  }),
});
export type Env = Static<typeof ENV_SCHEMA>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`环境变量 ${variable} 无效：${detail}`);
    this.name = 'ConfigError';
  }
}

// Value.Convert reads "1e4" or "1.5" as numbers and "yes" not at all: what it is given is first
// held to these forms (a whole number in digits; the words the documentation names).
const DIGITS = /^[0-9]+$/;
const FLAGS: Record<string, boolean> = { '1': true, true: true, yes: true, '0': false, false: false, no: false };

/** The variables as written: trimmed, an empty one unset, numbers and flags in their plain forms. */
function written(env: Record<string, string | undefined>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, schema] of Object.entries(ENV_SCHEMA.properties) as Array<[string, TSchema]>) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    if (schema.type === 'integer') {
      if (!DIGITS.test(raw)) throw new ConfigError(name, `"${raw}" ${schema.description}`);
      out[name] = Number(raw);
    } else if (schema.type === 'boolean') {
      const value = FLAGS[raw.toLowerCase()];
      if (value === undefined) throw new ConfigError(name, `"${raw}" ${schema.description}`);
      out[name] = value;
    } else out[name] = raw;
  }
  return out;
}

/** The environment checked against ENV_SCHEMA with its defaults; the first bad variable is named. */
export function readEnv(env: Record<string, string | undefined>): Env {
  const value = Value.Default(ENV_SCHEMA, Value.Convert(ENV_SCHEMA, written(env)));
  if (Value.Check(ENV_SCHEMA, value)) return value;
  const [first] = Value.Errors(ENV_SCHEMA, value);
  const name = first.path.split('/')[1] ?? '';
  const given = (value as Record<string, unknown>)[name];
  const schema = (ENV_SCHEMA.properties as Record<string, TSchema>)[name];
  throw new ConfigError(name, `"${String(given)}" ${schema?.description ?? first.message}`);
}

function timeZone(raw: string): string {
  try {
    // Intl knows the IANA database of the Node it runs on; an unknown name is a RangeError.
    return new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError('TIME_ZONE', `"${raw}" ${ENV_SCHEMA.properties.TIME_ZONE.description}`);
  }
}

/**
 * The passkeys' relying party: null fields are derived from each request's host, and only when that
 * host is localhost (a browser allows no IP address as a relying party, and a real host must be named).
 */
function webAuthn(env: Env): { rpId: string | null; rpName: string; origins: string[] | null } {
  let origins: string[] | null = null;
  if (env.WEBAUTHN_ORIGIN !== undefined) {
    origins = env.WEBAUTHN_ORIGIN.split(',').map((raw) => {
      let url: URL;
      try {
        url = new URL(raw.trim());
      } catch {
        throw new ConfigError('WEBAUTHN_ORIGIN', `"${raw.trim()}" ${ENV_SCHEMA.properties.WEBAUTHN_ORIGIN.description}`);
      }
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== raw.trim().replace(/\/$/, '')) {
        throw new ConfigError('WEBAUTHN_ORIGIN', `"${raw.trim()}" ${ENV_SCHEMA.properties.WEBAUTHN_ORIGIN.description}`);
      }
      return url.origin;
    });
  }
  const rpId = env.WEBAUTHN_RP_ID ?? (origins ? new URL(origins[0]).hostname : null);
  if (rpId !== null) {
    // A browser only accepts a relying-party id that is the page's host or a parent domain of it.
    for (const origin of origins ?? []) {
      const host = new URL(origin).hostname;
      if (host !== rpId && !host.endsWith(`.${rpId}`)) {
        throw new ConfigError('WEBAUTHN_ORIGIN', `"${origin}" 的主机名应为 WEBAUTHN_RP_ID（${rpId}）或其子域名`);
      }
    }
  }
  return { rpId, rpName: env.WEBAUTHN_RP_NAME, origins: origins ?? (rpId !== null ? [`https://${rpId}`] : null) };
}

/** The traces' destination, or null when tracing is off (lib/tracing.ts). */
function tracing(env: Env): { endpoint: string; serviceName: string } | null {
  const raw = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (raw === undefined) return null;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('OTEL_EXPORTER_OTLP_ENDPOINT', `"${raw}" ${ENV_SCHEMA.properties.OTEL_EXPORTER_OTLP_ENDPOINT.description}`);
  }
  return { endpoint: raw, serviceName: env.OTEL_SERVICE_NAME };
}

function databaseUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', '不是合法的 URL');
  }
  return raw;
}

/** The configuration, derived from the checked environment (its type is this function's). */
function toConfig(env: Env, defaults: { webRoot?: string | null }) {
  const nodeEnv = env.NODE_ENV.toLowerCase();
  if (env.CAPTCHA_TEST_ANSWER !== undefined && nodeEnv === 'production') {
    throw new ConfigError('CAPTCHA_TEST_ANSWER', '只用于自动化测试，NODE_ENV=production 时不能设置');
  }
  if (env.ADMIN_PASSWORD !== undefined) {
    // The administrators' password rules, as for every other way an admin's password is set.
    const problem = adminPasswordProblem(env.ADMIN_PASSWORD, { loginId: env.ADMIN_LOGIN_ID, nickname: FIRST_ADMIN_NICKNAME });
    if (problem) throw new ConfigError('ADMIN_PASSWORD', problem);
  }
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    jwtSecret: env.JWT_SECRET ?? null,
    adminLoginId: env.ADMIN_LOGIN_ID,
    adminPassword: env.ADMIN_PASSWORD ?? null,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    /** NODE_ENV, trimmed and in lower case. */
    nodeEnv,
    captchaTestAnswer: env.CAPTCHA_TEST_ANSWER ?? null,
    /** How long a call may wait on PostgreSQL for a connection, a lock and a statement. */
    databaseTimeouts: { acquireMs: env.DB_ACQUIRE_TIMEOUT_MS, lockMs: env.DB_LOCK_TIMEOUT_MS, statementMs: env.DB_STATEMENT_TIMEOUT_MS },
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    trashRetentionDays: env.TRASH_RETENTION_DAYS,
    webhooks: { retentionDays: env.WEBHOOK_RETENTION_DAYS, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE },
    /** Every time on screen, in a CSV and in an export's file name is in this zone. */
    timeZone: timeZone(env.TIME_ZONE),
    sessionsInMemory: env.SESSIONS_IN_MEMORY,
    /** Origins of the public site allowed cross-origin (visitor and member calls only). */
    siteOrigins: env.SITE_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    /** Limits of the public site per rolling hour: [per member, per address]. */
    siteLimits: {
      signup: { member: env.SITE_SIGNUPS_PER_ADDRESS, address: env.SITE_SIGNUPS_PER_ADDRESS },
      issue: { member: env.SITE_ISSUES_PER_MEMBER, address: env.SITE_ISSUES_PER_ADDRESS },
      comment: { member: env.SITE_COMMENTS_PER_MEMBER, address: env.SITE_COMMENTS_PER_ADDRESS },
      upload: { member: env.SITE_UPLOADS_PER_MEMBER, address: env.SITE_UPLOADS_PER_ADDRESS },
    },
    /** Passkeys' relying party; null rpId/origins: derived per request, for localhost only. */
    webAuthn: webAuthn(env),
    metrics: { token: env.METRICS_TOKEN ?? null, loopback: env.METRICS === 'loopback' },
    stopDelayMs: env.STOP_DELAY_MS,
    /** How long after a proof of identity the actions marked `reauth` are allowed (plugins/reauth.ts). */
    reauthWindowMs: env.REAUTH_WINDOW_SECONDS * 1000,
    /** OpenTelemetry traces: a span per request and per SQL statement; null: off. */
    tracing: tracing(env),
    /** The built front end served at the root; null when there is none to serve. */
    webRoot: env.WEB_ROOT ? path.resolve(env.WEB_ROOT) : (defaults.webRoot ?? null),
  };
}

export type Config = ReturnType<typeof toConfig>;
export type LogLevel = Config['logLevel'];

/** Reads the environment once; any invalid value stops the start, naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, defaults: { webRoot?: string | null } = {}): Config {
  return toConfig(readEnv(env), defaults);
}
