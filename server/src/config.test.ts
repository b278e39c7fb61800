import path from 'node:path';
import { ConfigError, ENV_SCHEMA, loadConfig } from './config';

describe('configuration through its schema', () => {
  it('every variable of the schema has a default or may be left unset, and an empty one counts as unset', () => {
    const unset = loadConfig({});
    const blank = loadConfig(Object.fromEntries(Object.keys(ENV_SCHEMA.properties).map((name) => [name, '  '])));
    expect(blank).toEqual(unset);
    expect(unset).toMatchObject({
      port: 7001,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      jwtSecret: null,
      adminLoginId: 'admin',
      adminPassword: null,
      logLevel: 'info',
      trustProxy: false,
      nodeEnv: 'development',
      captchaTestAnswer: null,
      auditRetentionDays: 365,
      trashRetentionDays: 30,
      timeZone: 'Asia/Shanghai',
      sessionsInMemory: true,
      webRoot: null,
      tracing: null,
    });
  });

  it('traces only when OTEL_EXPORTER_OTLP_ENDPOINT names an http(s) address', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ' http://collector:4318 ' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'coder-station-server',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/', OTEL_SERVICE_NAME: 'cs-admin' }).tracing).toEqual({
      endpoint: 'https://otel.example.com/',
      serviceName: 'cs-admin',
    });
    expect(loadConfig({ OTEL_SERVICE_NAME: 'cs-admin' }).tracing).toBeNull();
  });

  it('reads numbers, flags in the documented words, and trimmed text', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      TRUST_PROXY: 'Yes',
      SESSIONS_IN_MEMORY: 'no',
      LOG_LEVEL: 'warn',
      NODE_ENV: ' Test ',
      DATABASE_URL: 'postgresql://u@db:5432/app',
    });
    expect(config).toMatchObject({
      port: 8080,
      trustProxy: true,
      sessionsInMemory: false,
      logLevel: 'warn',
      nodeEnv: 'test',
      databaseUrl: 'postgresql://u@db:5432/app',
    });
  });

  it.each([
    ['PORT', '1e4', '环境变量 PORT 无效："1e4" 不是 0 到 65535 之间的端口号'],
    ['PORT', '65536', '环境变量 PORT 无效："65536" 不是 0 到 65535 之间的端口号'],
    ['AUDIT_RETENTION_DAYS', '1.5', '环境变量 AUDIT_RETENTION_DAYS 无效："1.5" 应为 1 到 36500 之间的天数'],
    ['SESSIONS_IN_MEMORY', 'maybe', '环境变量 SESSIONS_IN_MEMORY 无效："maybe" 应为 true 或 false'],
    ['LOG_LEVEL', 'loud', '环境变量 LOG_LEVEL 无效："loud" 应为 fatal、error、warn、info、debug、trace、silent 之一'],
    [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'collector:4318',
      '环境变量 OTEL_EXPORTER_OTLP_ENDPOINT 无效："collector:4318" 应为 http:// 或 https:// 地址',
    ],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'http://', '环境变量 OTEL_EXPORTER_OTLP_ENDPOINT 无效："http://" 应为 http:// 或 https:// 地址'],
    ['TIME_ZONE', '+08:00', '环境变量 TIME_ZONE 无效："+08:00" 不是 IANA 时区名（例如 Asia/Shanghai）'],
  ])('a bad %s (%s) stops the start with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});

describe('passkeys: WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME, WEBAUTHN_ORIGIN', () => {
  it('unset: no relying party (derived per request, for localhost only) and the product name', () => {
    expect(loadConfig({}).webAuthn).toEqual({ rpId: null, rpName: 'coder station 后台管理系统', origins: null });
  });

  it('derives the origin from the id (https) and the id from the first origin', () => {
    expect(loadConfig({ WEBAUTHN_RP_ID: 'admin.example.com' }).webAuthn).toMatchObject({
      rpId: 'admin.example.com',
      origins: ['https://admin.example.com'],
    });
    expect(loadConfig({ WEBAUTHN_ORIGIN: 'https://admin.example.com:8443, https://ops.admin.example.com' }).webAuthn).toMatchObject({
      rpId: 'admin.example.com',
      origins: ['https://admin.example.com:8443', 'https://ops.admin.example.com'],
    });
    expect(
      loadConfig({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://admin.example.com', WEBAUTHN_RP_NAME: '后台' }).webAuthn,
    ).toEqual({
      rpId: 'example.com',
      rpName: '后台',
      origins: ['https://admin.example.com'],
    });
  });

  it.each([
    [{ WEBAUTHN_RP_ID: 'https://admin.example.com' }, 'WEBAUTHN_RP_ID'],
    [{ WEBAUTHN_RP_ID: 'Admin.Example.com' }, 'WEBAUTHN_RP_ID'],
    [{ WEBAUTHN_ORIGIN: 'admin.example.com' }, 'WEBAUTHN_ORIGIN'],
    [{ WEBAUTHN_ORIGIN: 'https://admin.example.com/login' }, 'WEBAUTHN_ORIGIN'],
    [{ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://example.org' }, 'WEBAUTHN_ORIGIN'],
    [{ WEBAUTHN_RP_NAME: 'x'.repeat(65) }, 'WEBAUTHN_RP_NAME'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(`环境变量 ${name} 无效`);
  });
});
