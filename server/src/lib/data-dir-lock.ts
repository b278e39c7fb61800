import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `数据目录 ${dataDir} 正被另一个服务进程（pid ${pid}）使用。内置数据库只能由一个进程打开；请先停止那个进程，或为这个进程设置另一个 DATA_DIR，或用 DATABASE_URL 连接 PostgreSQL。`,
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * When the process started (Linux: clock ticks since boot), or null where /proc is not there.
 * A pid alone is not an identity: after a crash and a container restart the dead holder's pid is
 * often given to another process, which must not keep the folder locked.
 */
function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (in parentheses) may hold spaces; the fields after it are plain.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's holder is still the process that wrote it. */
function held(holder: { pid: number; started: string | null }): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0 || holder.pid === process.pid || !alive(holder.pid)) return false;
  const started = holder.started === null ? null : startTime(holder.pid);
  return started === null || started === holder.started;
}

/**
 * Takes the embedded database's folder for this process alone: PGlite would corrupt it if two
 * processes wrote at once. A lock left by a process that died is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'server.lock');
  const mine = [process.pid, startTime(process.pid)].filter((part) => part !== null).join(' ');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, mine, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8') === mine) fs.unlinkSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const [pid, started] = fs.readFileSync(lockFile, 'utf8').trim().split(' ');
      const holder = { pid: Number(pid), started: started ?? null };
      if (held(holder)) throw new DataDirInUseError(dataDir, holder.pid);
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`无法锁定数据目录 ${dataDir}`);
}
