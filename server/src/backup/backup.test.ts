import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { bearer, CAPTCHA, createTestContext, freshDatabase, ROOT_LOGIN, ROOT_PASSWORD, type TestContext } from '../../test/harness';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, queryRows, type Database, type Db } from '../db/client';
import { scratchDatabase } from '../../test/live/postgres';
import { seed } from '../seed/seed';
import { backup, BACKED_UP_TABLES, BackupError, countRows, NEVER_SET_UP, restore, tablesWithoutBackupRule } from './backup';

/**
 * A full round trip, on the embedded database (and on PostgreSQL in CI's TEST_DATABASE_URL run):
 * seeded content, sessions, the throttle's failures and uploaded images go out to an archive and
 * come back into an empty database unchanged, byte for byte.
 */

let source: TestContext;
let target: { database: Database; drop: () => Promise<void> };
let dir: string;
let archive: string;
let token: string;
const images: Array<{ url: string; bytes: Buffer }> = [];

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b40000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

function multipart(name: string, data: Buffer) {
  const boundary = '----cs-backup-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
  };
}

/**
 * Every row of every backed-up table, in key order, as the driver reads it; bytes as base64 text,
 * which jest compares at once instead of element by element.
 */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of BACKED_UP_TABLES) {
    const rows = await queryRows<Record<string, unknown>>(db, sql`select * from ${sql.identifier(table)} order by 1`);
    tables[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          value instanceof Uint8Array ? `base64:${Buffer.from(value).toString('base64')}` : value,
        ]),
      ),
    );
  }
  return tables;
}

beforeAll(async () => {
  source = await createTestContext();
  token = await source.rootToken();
  await seed(source.database.db, { users: 40, books: 8, interviews: 6, issues: 30, comments: 120 });
  // Images of several kinds and sizes, one of them all 256 byte values many times over.
  const everyByte = Buffer.alloc(256 * 4000);
  for (let i = 0; i < everyByte.length; i++) everyByte[i] = i % 256;
  for (const [name, bytes] of [
    ['a.png', PNG],
    ['b.gif', GIF],
    ['c.png', Buffer.concat([PNG, everyByte])],
  ] as const) {
    const response = await source.inject({ method: 'POST', url: '/api/upload', ...multipart(name, bytes) });
    expect(response.statusCode).toBe(200);
    images.push({ url: response.json().data, bytes });
  }
  // A failed login and an unused captcha: rows of the throttle and captcha tables.
  expect((await source.login(ROOT_LOGIN, 'not-the-password')).statusCode).toBe(401);
  await source.captchaCookie();

  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-backup-'));
  archive = path.join(dir, 'backup.jsonl.gz');
  target = await freshDatabase();
}, 120_000);

afterAll(async () => {
  await source?.close();
  await target?.database.close();
  await target?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('every table of the schema is either backed up or rebuilt by the database', () => {
    expect(tablesWithoutBackupRule()).toEqual([]);
  });

  it('a full round trip into an empty database keeps every record and every upload byte for byte', async () => {
    const before = await snapshot(source.database.db);
    const counts = await backup(source.database.db, archive);
    expect(counts).toEqual(await countRows(source.database.db));
    expect(counts).toMatchObject({ users: 40, books: 8, interviews: 6, issues: 30, comments: 120, uploads: 3 });
    expect(counts.admins).toBe(1);
    expect(counts.admin_sessions).toBeGreaterThan(0);
    expect(counts.login_failures).toBeGreaterThan(0);
    expect(counts.captchas).toBeGreaterThan(0);
    expect(counts.settings).toBeGreaterThan(0);

    const restored = await restore(target.database, archive);
    expect(restored).toEqual(counts);
    expect(await snapshot(target.database.db)).toEqual(before);

    // The restored database serves what the old one did: images, the old token, the old password.
    const config = loadConfig({ NODE_ENV: 'test', CAPTCHA_TEST_ANSWER: CAPTCHA, LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, database: target.database });
    try {
      for (const image of images) {
        const served = await app.inject({ method: 'GET', url: image.url });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(image.bytes)).toBe(true);
      }
      expect((await app.inject({ method: 'GET', url: '/api/admin/whoami', headers: bearer(token) })).json().data.loginId).toBe(ROOT_LOGIN);
      const captcha = await app.inject({ method: 'GET', url: '/res/captcha' });
      const cookie = captcha.cookies.find((c) => c.name === 'captcha_id')!;
      const login = await app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: { cookie: `captcha_id=${cookie.value}` },
        payload: { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA, remember: false },
      });
      // A login first records its attempt: the serial key must go on after the restored failures.
      expect(login.statusCode).toBe(200);
      const lists = await app.inject({ method: 'GET', url: '/api/user?pageSize=100', headers: bearer(token) });
      expect(lists.json().data.count).toBe(40);
    } finally {
      await app.close();
    }
  }, 180_000);

  it('refuses a database that is not empty, and --force replaces its content instead of adding to it', async () => {
    const before = await snapshot(target.database.db);
    await expect(restore(target.database, archive)).rejects.toThrow(BackupError);
    await expect(restore(target.database, archive)).rejects.toThrow(/目标数据库不是空的.*--force/);
    expect(await snapshot(target.database.db)).toEqual(before);

    await target.database.db.execute(sql`update users set nickname = 'changed after the backup'`);
    await restore(target.database, archive, { force: true });
    expect(await snapshot(target.database.db)).toEqual(await snapshot(source.database.db));
  }, 180_000);

  it('an incomplete or damaged archive changes nothing', async () => {
    const before = await snapshot(target.database.db);
    const lines = zlib.gunzipSync(fs.readFileSync(archive)).toString('utf8').trimEnd().split('\n');

    const truncated = path.join(dir, 'truncated.jsonl.gz');
    fs.writeFileSync(truncated, zlib.gzipSync(lines.slice(0, -10).join('\n')));
    await expect(restore(target.database, truncated, { force: true })).rejects.toThrow('备份文件不完整');
    expect(await snapshot(target.database.db)).toEqual(before);

    const cut = path.join(dir, 'cut.jsonl.gz');
    const gz = fs.readFileSync(archive);
    fs.writeFileSync(cut, gz.subarray(0, Math.floor(gz.length / 2)));
    await expect(restore(target.database, cut, { force: true })).rejects.toThrow(BackupError);
    expect(await snapshot(target.database.db)).toEqual(before);

    const notOurs = path.join(dir, 'other.jsonl.gz');
    fs.writeFileSync(notOurs, zlib.gzipSync('{"hello":"world"}\n'));
    await expect(restore(target.database, notOurs, { force: true })).rejects.toThrow('这不是 coderstation 的备份文件');
  }, 180_000);

  it('refuses a database the server never set up, and leaves no file behind', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    const scratch = adminUrl ? await scratchDatabase(adminUrl, 'cs_unset') : null;
    const unset = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url, poolSize: 1 } : { kind: 'embedded', dataDir: null });
    try {
      const file = path.join(dir, 'never-set-up.jsonl.gz');
      await expect(backup(unset.db, file)).rejects.toThrow(new BackupError(NEVER_SET_UP));
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      await unset.close();
      await scratch?.drop();
    }
  });

  it('never overwrites an existing archive', async () => {
    await expect(backup(source.database.db, archive)).rejects.toThrow(/EEXIST/);
    expect(fs.statSync(archive).size).toBeGreaterThan(0);
  });
});
