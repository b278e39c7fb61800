import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The built server (server/dist/main.cjs) as a real child process, for the fault tests, the soak,
 * the browser tests and the benchmark: what they exercise (signals, kill -9, the data-dir lock,
 * several processes on one database, the served front end, start-up and memory) only exists
 * outside `app.inject`.
 */

export const ROOT = path.resolve(__dirname, '../../..');
export const BUNDLE = path.join(ROOT, 'server/dist/main.cjs');
export const CAPTCHA = 'f4u1';
export const ADMIN_LOGIN = 'admin';
export const ADMIN_PASSWORD = 'Live-Kestrel-7319';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A new DATA_DIR holding a copy of an embedded database that is migrated and has its first super
 * admin: creating one from nothing (PGlite's initdb) takes many seconds, copying one does not.
 * The template is made once per migration set and build of the server (whose first start writes
 * it) and reused by every later test.
 */
export async function embeddedDataDir(): Promise<string> {
  const key = createHash('sha256');
  // What a first start writes: the migrations (read from server/migrations at run time) and the
  // bundle's own first-start work beside them.
  const migrations = path.join(ROOT, 'server/migrations');
  for (const file of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const full = path.join(migrations, file);
    if (fs.statSync(full).isFile()) key.update(file).update(fs.readFileSync(full));
  }
  key.update(fs.readFileSync(BUNDLE));
  key.update(ADMIN_LOGIN).update(ADMIN_PASSWORD);
  const template = path.join(os.tmpdir(), `cs-live-template-${key.digest('hex').slice(0, 16)}`);
  if (!fs.existsSync(template)) {
    // Templates of earlier builds are of no further use.
    for (const name of fs.readdirSync(os.tmpdir())) {
      if (/^cs-live-template-[0-9a-f]{16}$/.test(name)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
    const building = fs.mkdtempSync(`${template}-building-`);
    const server = await ServerProcess.start({ dataDir: building }, 180_000);
    const exit = await server.terminate();
    if (exit.code !== 0) throw new Error(`template server exited ${JSON.stringify(exit)}:\n${server.output()}`);
    try {
      fs.renameSync(building, template);
    } catch {
      // Another run made it first; theirs is as good.
      fs.rmSync(building, { recursive: true, force: true });
    }
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-live-'));
  const copy = spawnSync('cp', ['-a', `${template}/.`, dataDir]);
  if (copy.status !== 0) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

export interface ServerOptions {
  /** DATA_DIR; the embedded database lives in DATA_DIR/pglite. */
  dataDir: string;
  /** Use this PostgreSQL instead of the embedded database. */
  databaseUrl?: string;
  port?: number;
  /** The built front end to serve (e.g. ROOT/dist); by default none: only /api, /res and /static. */
  webRoot?: string;
  /** Write the process's output to this file instead of keeping it in memory (long, chatty runs). */
  logFile?: string;
  env?: Record<string, string>;
  /** Command-line arguments of the server, e.g. `--demo` (fill an empty database with demo content). */
  args?: string[];
  /** Another build of the server than BUNDLE (bench/ab.ts compares two); it must sit in server/dist/. */
  bundle?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ServerProcess {
  private log = '';
  readonly exited: Promise<Exit>;
  private exit: Exit | null = null;

  /** When the process was spawned (performance.now()), for start-up times. */
  readonly spawnedAt = performance.now();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly logFile?: string,
  ) {
    child.stdout?.on('data', (chunk) => (this.log += chunk));
    child.stderr?.on('data', (chunk) => (this.log += chunk));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
    // A test that fails half-way must not leave servers behind.
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    void this.exited.then(() => process.removeListener('exit', reap));
  }

  /** Starts the process without waiting for it to answer. */
  static async spawn(options: ServerOptions): Promise<ServerProcess> {
    const bundle = options.bundle ?? BUNDLE;
    if (!fs.existsSync(bundle)) throw new Error(`the server is not built (${bundle}): run \`npm run build:server\` first`);
    const port = options.port ?? (await freePort());
    const log = options.logFile ? fs.openSync(options.logFile, 'a') : null;
    const child = spawn(process.execPath, [bundle, ...(options.args ?? [])], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: options.dataDir,
        CAPTCHA_TEST_ANSWER: CAPTCHA,
        ADMIN_LOGIN_ID: ADMIN_LOGIN,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        // Without a web root asked for, a folder that does not exist: only /api, /res and /static answer.
        WEB_ROOT: options.webRoot ?? path.join(options.dataDir, 'no-web'),
        ...(options.databaseUrl && { DATABASE_URL: options.databaseUrl }),
        ...options.env,
      },
      stdio: log === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log],
    });
    if (log !== null) fs.closeSync(log);
    return new ServerProcess(child, `http://127.0.0.1:${port}`, options.logFile);
  }

  /** Starts the process and waits until /healthz answers 200. */
  static async start(options: ServerOptions, timeoutMs = 60_000): Promise<ServerProcess> {
    const server = await ServerProcess.spawn(options);
    await server.ready(timeoutMs);
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exit === null;
  }

  output(): string {
    return this.logFile ? fs.readFileSync(this.logFile, 'utf8') : this.log;
  }

  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exit) throw new Error(`server exited early (${JSON.stringify(this.exit)}):\n${this.output()}`);
      try {
        if ((await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        this.child.kill('SIGKILL');
        throw new Error(`server did not start within ${timeoutMs} ms:\n${this.output()}`);
      }
      // Short: the benchmark reads its start-up time off this loop.
      await sleep(20);
    }
  }

  /** kill -9: no handler runs, nothing is flushed or released. */
  async kill9(): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM, then the exit; SIGKILL (and a throw) if it does not stop within `timeoutMs`. */
  async terminate(timeoutMs = 15_000): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
    const exit = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (exit) return exit;
    this.child.kill('SIGKILL');
    throw new Error(`server did not stop within ${timeoutMs} ms of SIGTERM:\n${this.output()}`);
  }

  /** Resident memory of the process in bytes (Linux /proc). */
  rssBytes(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match) throw new Error('no VmRSS in /proc status');
    return Number(match[1]) * 1024;
  }
}
