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
    });
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
    ['TIME_ZONE', '+08:00', '环境变量 TIME_ZONE 无效："+08:00" 不是 IANA 时区名（例如 Asia/Shanghai）'],
  ])('a bad %s (%s) stops the start with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
