import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { DEFAULT_TIMEOUTS, migrationsFolder, openDatabase, type Database } from '../src/db/client';
import { configuredLayers } from '../src/db/configured';
import { totpCode } from '../src/modules/auth/totp';
import type { Layers } from '../src/db/layers';
import { scratchDatabase } from './live/postgres';
import { createAdminRepository } from '../src/modules/admin/admin.repository';
import { ensureFirstSuperAdmin } from '../src/modules/admin/first-admin';

export const CAPTCHA = 'abcd';
export const ROOT_LOGIN = 'root';
export const ROOT_PASSWORD = 'Kestrel-Harbour-2048';

/**
 * The password the tests give an admin named `loginId`: it passes the administrators' rules (8
 * characters at least, not a common password, not containing the account name).
 */
export const passwordOf = (loginId: string) => `${loginId.slice(0, 2)}~${loginId.slice(2)}~Tern-8`;

/** A clock tests can move forward (captcha and token expiry). */
export class TestClock {
  offset = 0;
  now = () => Date.now() + this.offset;
  advance(ms: number) {
    this.offset += ms;
  }
}

/**
 * The embedded database as the migrations leave it, dumped once (PGlite's dumpDataDir) and kept in
 * the temporary folder under a name that changes with the migrations and PGlite's version. Each
 * file's database starts from it instead of running initdb and the migrations again (~2.5 s a
 * database; the suite makes about a hundred). Two workers that build it at once each write their
 * own file and rename it into place, so a reader never sees half of one.
 */
let template: Promise<Blob> | null = null;
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const hash = crypto.createHash('sha256');
    // PGlite's version (its package.json is not among the files its exports allow to resolve).
    hash.update(fs.readFileSync(path.join(__dirname, '../../node_modules/@electric-sql/pglite/package.json')));
    // What migrate() runs beside the SQL files (login keys) lives in these two.
    for (const code of ['../src/db/client.ts', '../src/db/login-keys.ts']) hash.update(fs.readFileSync(path.join(__dirname, code)));
    const folder = migrationsFolder();
    for (const name of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
      const file = path.join(folder, name);
      if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
    }
    const file = path.join(os.tmpdir(), `cs-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    if (!fs.existsSync(file)) {
      const database = await openDatabase({ kind: 'embedded', dataDir: null });
      try {
        await database.migrate();
        const dump = await database.dumpDataDir?.();
        if (!dump) throw new Error('the embedded database cannot dump its data directory');
        const partial = `${file}.${process.pid}`;
        fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
        fs.renameSync(partial, file);
      } finally {
        await database.close();
      }
    }
    return new Blob([fs.readFileSync(file)]);
  })();
  return template;
}

/**
 * Server tests run on a fresh in-memory PGlite per file (from the migrated template above), or, when TEST_DATABASE_URL is set (CI's
 * PostgreSQL run), on a fresh database created on that server and dropped afterwards.
 */
export async function freshDatabase(
  onQuery: (sql: string) => void = () => undefined,
  // DB_LAYERS as the server reads it (npm run test:server:plain runs the suite on none); a test
  // of one layer's own behaviour turns that layer on.
  layers: Layers = configuredLayers(),
  // The production bounds unless a test measures something else than them (a long queue of writers).
  timeouts = DEFAULT_TIMEOUTS,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ kind: 'embedded', dataDir: null, onQuery, layers, startFrom: await migratedTemplate() });
    return { database, drop: async () => undefined };
  }
  const { url, drop } = await scratchDatabase(adminUrl, 'cs_test');
  // The server's own bounds on waiting and its sessions kept in memory (the change feed), so that
  // the suites see what production does.
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5, timeouts, onQuery, memo: true, layers });
  return { database, drop };
}

// Anything that looks like a stored password must never appear in an answer (docs/api.md).
const LEAKS = [/\$argon2/, /"loginPwd"/, /"passwordHash"/, /"password_hash"/];

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: TestClock;
  /** app.inject, checking that no answer ever carries a password or a hash. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A captcha cookie whose answer is CAPTCHA. */
  captchaCookie(headers?: Record<string, string>): Promise<string>;
  login(loginId: string, loginPwd: string, extra?: { remember?: boolean; ip?: string }): Promise<LightMyRequestResponse>;
  /** Signs in and answers the token; fails the test if sign-in fails. */
  tokenFor(loginId: string, loginPwd: string): Promise<string>;
  rootToken(): Promise<string>;
  /** Creates an admin through the API as root and answers its id and token. */
  createAdmin(loginId: string, permission: 1 | 2, password?: string): Promise<{ id: string; token: string; password: string }>;
  /** Signs a member up on the public site (POST /api/user without a token) and answers its id and token. */
  signUpMember(loginId: string, extra?: { ip?: string; nickname?: string }): Promise<{ id: string; token: string }>;
  /** A fresh proof of identity for the token's session (POST /api/admin/me/reauth); fails the test if refused. */
  prove(token: string, password: string): Promise<void>;
  /** Turns two-step sign-in on for the token's admin (setup, then a code of the current step); answers its secret and recovery codes. */
  enableTwoFactor(token: string): Promise<{ secret: string; recoveryCodes: string[] }>;
  /**
   * How many SQL statements were sent while `run` ran (the token check of a request included),
   * or only those whose text `which` accepts (a listening app's background jobs send theirs too).
   */
  countQueries(run: () => Promise<unknown>, which?: (statement: string) => boolean): Promise<number>;
  close(): Promise<void>;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export async function createTestContext(
  env: Record<string, string> = {},
  { layers = configuredLayers(), timeouts = DEFAULT_TIMEOUTS }: { layers?: Layers; timeouts?: typeof DEFAULT_TIMEOUTS } = {},
): Promise<TestContext> {
  const counters = new Set<(statement: string) => void>();
  const { database, drop } = await freshDatabase(
    (statement) => {
      for (const count of counters) count(statement);
    },
    layers,
    timeouts,
  );
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'test',
    CAPTCHA_TEST_ANSWER: CAPTCHA,
    ADMIN_LOGIN_ID: ROOT_LOGIN,
    ADMIN_PASSWORD: ROOT_PASSWORD,
    LOG_LEVEL: 'silent',
    ...env,
  });
  await ensureFirstSuperAdmin(database.db, createAdminRepository(database.db), config);
  const clock = new TestClock();
  const app = await buildApp({ config, database, now: clock.now });

  const inject = async (options: InjectOptions) => {
    const response = await app.inject(options);
    for (const leak of LEAKS) {
      if (leak.test(response.body)) throw new Error(`answer of ${options.method ?? 'GET'} ${options.url} leaks ${leak}: ${response.body}`);
    }
    return response;
  };

  const captchaCookie = async (headers: Record<string, string> = {}) => {
    const response = await inject({ method: 'GET', url: '/res/captcha', headers });
    const cookie = response.cookies.find((c) => c.name === 'captcha_id');
    if (!cookie) throw new Error('no captcha cookie');
    return `captcha_id=${cookie.value}`;
  };

  const login = async (loginId: string, loginPwd: string, extra: { remember?: boolean; ip?: string } = {}) =>
    inject({
      method: 'POST',
      url: '/api/admin/login',
      remoteAddress: extra.ip,
      headers: { cookie: await captchaCookie() },
      payload: { loginId, loginPwd, captcha: CAPTCHA, remember: extra.remember ?? false },
    });

  const tokenFor = async (loginId: string, loginPwd: string) => {
    const response = await login(loginId, loginPwd);
    if (response.statusCode !== 200) throw new Error(`login ${loginId} failed: ${response.body}`);
    return response.json().data.token as string;
  };

  const enableTwoFactor = async (token: string) => {
    const setup = await inject({ method: 'POST', url: '/api/admin/me/2fa/setup', headers: bearer(token) });
    if (setup.statusCode !== 200) throw new Error(`2fa setup failed: ${setup.body}`);
    const { secret } = setup.json().data as { secret: string };
    const enabled = await inject({
      method: 'POST',
      url: '/api/admin/me/2fa/enable',
      headers: bearer(token),
      payload: { code: totpCode(secret, clock.now()) },
    });
    if (enabled.statusCode !== 200) throw new Error(`2fa enable failed: ${enabled.body}`);
    return { secret, recoveryCodes: enabled.json().data.recoveryCodes as string[] };
  };

  const prove = async (token: string, password: string) => {
    const response = await inject({ method: 'POST', url: '/api/admin/me/reauth', headers: bearer(token), payload: { password } });
    if (response.statusCode !== 200) throw new Error(`reauth failed: ${response.body}`);
  };

  let root: string | null = null;
  const rootToken = async () => (root ??= await tokenFor(ROOT_LOGIN, ROOT_PASSWORD));

  const createAdmin = async (loginId: string, permission: 1 | 2, password = passwordOf(loginId)) => {
    const create = async () =>
      inject({
        method: 'POST',
        url: '/api/admin',
        headers: bearer(await rootToken()),
        payload: { loginId, loginPwd: password, permission },
      });
    let response = await create();
    // A test that moved the clock past root's last proof of identity: root proves it again.
    if (response.statusCode === 403 && response.json().errorCode === 'REAUTH_REQUIRED') {
      await prove(await rootToken(), ROOT_PASSWORD);
      response = await create();
    }
    if (response.statusCode !== 201) throw new Error(`create admin ${loginId} failed: ${response.body}`);
    const id = response.json().data._id as string;
    return { id, password, token: await tokenFor(loginId, password) };
  };

  const signUpMember = async (loginId: string, extra: { ip?: string; nickname?: string } = {}) => {
    const response = await inject({
      method: 'POST',
      url: '/api/user',
      remoteAddress: extra.ip,
      headers: { cookie: await captchaCookie() },
      payload: { loginId, nickname: extra.nickname, captcha: CAPTCHA },
    });
    if (response.statusCode !== 201) throw new Error(`sign-up ${loginId} failed: ${response.body}`);
    const { result, token } = response.json().data as { result: { _id: string }; token: string };
    return { id: result._id, token };
  };

  return {
    app,
    database,
    config,
    clock,
    inject,
    captchaCookie,
    signUpMember,
    login,
    tokenFor,
    rootToken,
    createAdmin,
    prove,
    enableTwoFactor,
    async countQueries(run, which = () => true) {
      let sent = 0;
      const count = (statement: string) => {
        if (which(statement)) sent++;
      };
      counters.add(count);
      try {
        await run();
      } finally {
        counters.delete(count);
      }
      return sent;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
