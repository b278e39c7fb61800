import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { ROOT } from './server-process';

/**
 * A server-side entry point (the server, a command-line tool) run from its source through tsx, as
 * an operator's command runs: for the tests of what such a command prints and how it exits,
 * which need no build (ServerProcess runs the built bundle). The environment is only PATH and `env`.
 */
const command = (entry: string, args: string[]) => [process.execPath, ['--import', 'tsx', entry, ...args]] as const;

/** Runs it to its end: its exit status and what it printed. */
export function runFromSource(entry: string, args: string[], env: Record<string, string>) {
  const [node, argv] = command(entry, args);
  return spawnSync(node, argv, { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 60_000 });
}

/** Starts it and leaves it running. */
export function spawnFromSource(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  const [node, argv] = command(entry, args);
  return spawn(node, argv, { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
}
