import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

let dir: string;
let lockFile: string;
let sleeper: ChildProcess | null = null;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-lock-'));
  lockFile = path.join(dir, 'server.lock');
});
afterEach(() => {
  sleeper?.kill('SIGKILL');
  sleeper = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Another live process, as a second server would be. */
function liveProcess(): number {
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return sleeper.pid!;
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

const startTimeOf = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

describe('lockDataDir', () => {
  it('takes a free folder and releases it', () => {
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('refuses a folder held by a live process, naming its pid', () => {
    const pid = liveProcess();
    fs.writeFileSync(lockFile, `${pid} ${startTimeOf(pid)}`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`数据目录 ${dir} 正被另一个服务进程（pid ${pid}）使用`);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(`${pid} ${startTimeOf(pid)}`);
  });

  it('refuses a folder held by a live process whose lock only gives the pid (written by an older version)', () => {
    const pid = liveProcess();
    fs.writeFileSync(lockFile, String(pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  });

  it('takes over the lock of a process that died (kill -9 leaves it behind)', () => {
    fs.writeFileSync(lockFile, `${deadPid()} 12345`);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(process.pid));
    release();
  });

  it('takes over a lock whose pid now belongs to another process started later (pid reuse after a restart)', () => {
    const pid = liveProcess();
    fs.writeFileSync(lockFile, `${pid} 1`);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(process.pid));
    release();
  });

  it('takes over a lock file that holds no pid at all', () => {
    fs.writeFileSync(lockFile, 'garbage');
    lockDataDir(dir)();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('does not remove a lock another process took after ours was taken over', () => {
    const release = lockDataDir(dir);
    fs.writeFileSync(lockFile, `${liveProcess()} 1`);
    release();
    expect(fs.existsSync(lockFile)).toBe(true);
  });
});
