import fs from 'node:fs';
import { call, signIn } from '../live/client';
import { embeddedDataDir, ServerProcess } from '../live/server-process';

/** The embedded database may be opened by one process only: a second server must refuse, clearly. */

let dataDir: string;
beforeEach(async () => {
  dataDir = await embeddedDataDir();
}, 180_000);
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('a second server on the same data folder refuses to start, says why, and leaves the first one working', async () => {
  const first = await ServerProcess.start({ dataDir });
  const token = await signIn(first.url);

  const second = await ServerProcess.spawn({ dataDir });
  expect(await second.exited).toEqual({ code: 1, signal: null });
  expect(second.output()).toContain(`数据目录 ${dataDir} 正被另一个服务进程（pid ${first.pid}）使用`);
  expect(second.output()).toContain('请先停止那个进程，或为这个进程设置另一个 DATA_DIR');
  // It stopped before opening the database: no stack trace, nothing written.
  expect(second.output()).not.toMatch(/\bat .+\(.+:\d+:\d+\)/);

  const created = await call(first.url, 'POST', '/api/type', { token, body: { typeName: '锁定之后' } });
  expect(created.status).toBe(201);
  expect((await call(first.url, 'GET', '/api/type', { token })).body.data.map((t: { typeName: string }) => t.typeName)).toContain(
    '锁定之后',
  );
  expect(await first.terminate()).toEqual({ code: 0, signal: null });

  // Once the first has stopped, the folder is free again and holds what the first wrote.
  const third = await ServerProcess.start({ dataDir });
  const again = await signIn(third.url);
  expect((await call(third.url, 'GET', '/api/type', { token: again })).body.data.map((t: { typeName: string }) => t.typeName)).toContain(
    '锁定之后',
  );
  expect(await third.terminate()).toEqual({ code: 0, signal: null });
}, 120_000);
