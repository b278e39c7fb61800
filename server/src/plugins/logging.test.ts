import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../db/client';
import { createLogging, OneLinePerRequest } from './logging';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'embedded', dataDir: null });
  await database.migrate();
}, 120_000);
afterAll(() => database.close());

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
}

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' });

describe('the request log', () => {
  it('at a terminal: one readable line per API call, pages and assets only at debug', async () => {
    const out = capture();
    const app = await buildApp({
      config,
      database,
      logging: { logger: { level: 'debug', stream: out.stream }, logController: new OneLinePerRequest(true) },
    });
    await app.inject({ method: 'GET', url: '/api/admin/whoami' });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const levelOf = (url: string) => lines.find((line) => line.req?.url === url)?.level;
    expect(levelOf('/api/admin/whoami')).toBe(30);
    expect(levelOf('/healthz')).toBe(20);
  });

  it('for machines (not a terminal): every request at info, the access log', async () => {
    const out = capture();
    const app = await buildApp({
      config,
      database,
      logging: { logger: { level: 'info', stream: out.stream }, logController: new OneLinePerRequest(false) },
    });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    const [line] = out
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(line).toMatchObject({ level: 30, req: { method: 'GET', url: '/healthz' }, res: { statusCode: 200 } });
  });

  it('for machines, the line written straight to the destination is the line pino would write', async () => {
    const direct = capture();
    const viaPino = capture();
    const apps = [
      await buildApp({
        config,
        database,
        logging: await createLogging({ logLevel: 'info' }, { terminal: false, destination: direct.stream }),
      }),
      await buildApp({
        config,
        database,
        logging: { logger: { level: 'info', stream: viaPino.stream }, logController: new OneLinePerRequest(false) },
      }),
    ];
    for (const app of apps) {
      await app.inject({
        method: 'GET',
        url: '/api/type?q=%22%5C%E4%B8%AD',
        headers: { authorization: 'Bearer secret-token', 'x-request-id': 'same-request-id-1', 'accept-version': '1.x' },
      });
      await app.close();
    }
    const [ours, theirs] = [direct, viaPino].map((out) => JSON.parse(out.text().trim()));
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect({ ...ours, time: 0, responseTime: 0 }).toEqual({ ...theirs, time: 0, responseTime: 0 });
    expect(ours).toMatchObject({ level: 30, reqId: 'same-request-id-1', res: { statusCode: 401 }, msg: 'request completed' });
    expect(direct.text()).not.toContain('secret-token');
  });

  it('the terminal format is one short line: method, URL, status and time, the token never shown', async () => {
    const out = capture();
    const logging = await createLogging({ logLevel: 'info' }, { terminal: true, destination: out.stream });
    const app = await buildApp({ config, database, logging });
    await app.inject({ method: 'GET', url: '/api/type', headers: { authorization: 'Bearer secret-token' } });
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));
    const text = stripVTControlCharacters(out.text());
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/type 401 \d+\.\d ms$/);
    expect(text).not.toContain('secret-token');
  });
});
