import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  it('for machines, one JSON line per answered request through pino: its id, method, URL, status and time, never the token', async () => {
    const out = capture();
    const app = await buildApp({
      config,
      database,
      logging: await createLogging({ logLevel: 'info' }, { terminal: false, destination: out.stream }),
    });
    await app.inject({
      method: 'GET',
      url: '/api/type?q=%22%5C%E4%B8%AD',
      headers: { authorization: 'Bearer secret-token', 'x-request-id': 'same-request-id-1', 'accept-version': '1.x' },
    });
    await app.close();
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      level: 30,
      reqId: 'same-request-id-1',
      req: { method: 'GET', url: '/api/type?q=%22%5C%E4%B8%AD', version: '1.x' },
      res: { statusCode: 401 },
      msg: 'request completed',
    });
    expect(typeof line.responseTime).toBe('number');
    expect(out.text()).not.toContain('secret-token');
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

  it('written to a file descriptor in blocks, a quiet server’s lines still reach it within about a second', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'log-')), 'out.log');
    // The destination owns the descriptor from here: ending it stops its flush timer and closes it.
    const logging = await createLogging({ logLevel: 'info' }, { terminal: false, destination: fs.openSync(file, 'w') });
    const destination = (logging.logger as { stream: NodeJS.WritableStream }).stream;
    const app = await buildApp({ config, database, logging });
    try {
      await app.inject({ method: 'GET', url: '/api/type' });
      // One short line is far below the block size: only the periodic flush writes it.
      let text = '';
      for (let waited = 0; waited < 5000 && !text.includes('request completed'); waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        text = fs.readFileSync(file, 'utf8');
      }
      expect(JSON.parse(text.trim().split('\n').pop()!)).toMatchObject({ msg: 'request completed', req: { url: '/api/type' } });
    } finally {
      await app.close();
      await new Promise((resolve) => {
        destination.once('close', resolve);
        destination.end();
      });
    }
  });
});
