import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './server-process';

/**
 * A throwaway PostgreSQL cluster of our own (initdb + pg_ctl from Debian's postgresql package) in
 * a folder under /tmp, on its own port: a test may stop and restart it, which it must never do to
 * the machine's shared server.
 */

function binDir(): string {
  const given = process.env.PG_BIN;
  if (given) return given;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) {
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql, or set PG_BIN)');
  }
  return path.join(base, versions[0], 'bin');
}

// initdb and postgres refuse to run as root; as root they run as the postgres system user.
function asOwner(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

export class PostgresCluster {
  private readonly reap = () => this.pgCtl(['-m', 'immediate', 'stop'], false);

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly owner: ReturnType<typeof asOwner>,
  ) {
    process.once('exit', this.reap);
  }

  static async create(): Promise<PostgresCluster> {
    const bin = binDir();
    const owner = asOwner();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-pg-'));
    if (owner.uid !== undefined) fs.chownSync(dir, owner.uid, owner.gid!);
    const [file, ...args] = [
      ...owner.prefix,
      path.join(bin, 'initdb'),
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ];
    const initdb = spawnSync(file, args, { cwd: dir, encoding: 'utf8' });
    if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr || initdb.stdout}`);
    const cluster = new PostgresCluster(dir, await freePort(), bin, owner);
    await cluster.start();
    return cluster;
  }

  private pgCtl(args: string[], check = true) {
    const command = [path.join(this.bin, 'pg_ctl'), '-D', path.join(this.dir, 'data'), '-w', '-t', '30', ...args];
    const [file, ...rest] = [...this.owner.prefix, ...command];
    const result = spawnSync(file, rest, { cwd: this.dir, encoding: 'utf8' });
    if (check && result.status !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed: ${result.stderr || result.stdout}\n${this.log()}`);
  }

  log(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'postgres.log'), 'utf8');
    } catch {
      return '';
    }
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    // fsync off: these tests kill the application, never the machine, and CI time matters.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    this.pgCtl(['-l', path.join(this.dir, 'postgres.log'), '-o', options, 'start']);
  }

  /** `fast` ends every session and stops cleanly; `immediate` is a crash (recovery at the next start). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    this.pgCtl(['-m', mode, 'stop']);
  }

  /**
   * The postmaster and every process it started (backends, background workers), by their parent:
   * what SIGSTOP must reach for the whole server to hang rather than just stop accepting.
   */
  private processes(): number[] {
    const postmaster = Number(fs.readFileSync(path.join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = fs
      .readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          // The parent pid is the fourth field, after the command name in parentheses.
          const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  private paused = false;

  /** Hangs the whole server (SIGSTOP to all its processes): connections stay open, nothing answers. */
  pause(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGCONT');
    this.paused = false;
  }

  async createDatabase(name: string): Promise<string> {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`create database ${name} template template0`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  async destroy(): Promise<void> {
    process.removeListener('exit', this.reap);
    // A stopped postmaster would not hear pg_ctl's stop.
    if (this.paused) this.resume();
    this.pgCtl(['-m', 'immediate', 'stop'], false);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A new, empty database named `prefix` plus something unique, on the PostgreSQL server `adminUrl`
 * points at: its URL, and `drop` to remove it again (sessions still on it are ended).
 */
export async function scratchDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name} template template0`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
