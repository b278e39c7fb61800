import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, signIn } from '../live/client';
import { scratchDatabase } from '../live/postgres';
import { ServerProcess } from '../live/server-process';

/**
 * No edit is lost (issue 26): 1,000 versioned PATCHes of one record through two server processes
 * on one PostgreSQL, 20 writers at once, each reading the record and saving a change against the
 * version it read. Exactly one PATCH succeeds per version (the others get 409 VERSION_CONFLICT and
 * change nothing), the versions that succeeded are 1, 2, 3… without a gap, and the record ends
 * with the change of the last of them: no update is lost. Uses the shared PostgreSQL (never
 * stopped here) through a scratch database.
 */

const TOTAL = 1000;
const WRITERS = 20;

let url: string;
let drop: () => Promise<void>;
let servers: ServerProcess[];
const dirs: string[] = [];

beforeAll(async () => {
  ({ url, drop } = await scratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 'cs_versions'));
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-ver-'));
    dirs.push(dir);
    return dir;
  };
  servers = await Promise.all([
    ServerProcess.start({ dataDir: dataDir(), databaseUrl: url }),
    ServerProcess.start({ dataDir: dataDir(), databaseUrl: url }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.terminate()));
  await drop?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('1,000 concurrent versioned PATCHes on two processes: one success per version, no lost update', async () => {
  const tokens = await Promise.all(servers.map((server) => signIn(server.url)));
  const created = await call(servers[0].url, 'POST', '/api/user', {
    token: tokens[0],
    body: { loginId: `race-${Date.now().toString(36)}`, loginPwd: 'race-pass-1', nickname: '起点' },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.data._id;

  let sent = 0;
  const successes: Array<{ sentVersion: number; newVersion: number; nickname: string }> = [];
  const statuses = new Map<number, number>();
  const writer = async (n: number) => {
    const server = servers[n % 2];
    const token = tokens[n % 2];
    while (sent < TOTAL) {
      sent++;
      const nickname = `w${n}-${sent}`;
      const current = await call(server.url, 'GET', `/api/user/${id}`, { token });
      const version: number = current.body.data.version;
      const answer = await call(server.url, 'PATCH', `/api/user/${id}`, { token, body: { nickname, version } });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) successes.push({ sentVersion: version, newVersion: answer.body.data.version, nickname });
      // 409: another writer saved that version first. 503: the write lock was not had within
      // DB_LOCK_TIMEOUT_MS on a loaded machine; rolled back, it changed nothing either.
      else expect(answer.body.errorCode).toBe(answer.status === 409 ? 'VERSION_CONFLICT' : 'UNAVAILABLE');
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
  const seconds = (performance.now() - started) / 1000;

  expect([...statuses.keys()].every((status) => status === 200 || status === 409 || status === 503)).toBe(true);
  const versions = successes.map((s) => s.sentVersion).sort((x, y) => x - y);
  // One success per version, in an unbroken chain from the first.
  expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
  for (const success of successes) expect(success.newVersion).toBe(success.sentVersion + 1);
  const last = successes.reduce((a, b) => (b.newVersion > a.newVersion ? b : a));
  const final = await call(servers[1].url, 'GET', `/api/user/${id}`, { token: tokens[1] });
  expect(final.body.data).toMatchObject({ version: successes.length + 1, nickname: last.nickname });
  console.log(
    `version race: ${TOTAL} PATCHes in ${seconds.toFixed(1)} s, ${successes.length} succeeded (one per version), ${statuses.get(409) ?? 0} answered 409, ${statuses.get(503) ?? 0} answered 503, 0 lost`,
  );
}, 300_000);
