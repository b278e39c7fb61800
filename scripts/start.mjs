// `npm start`: builds what is missing or stale, then runs the production server.
import { spawn, spawnSync } from 'node:child_process';
import { buildServerIfNeeded, buildWebIfNeeded, root, serverBundle, webBuildNeeded } from './build-if-needed.mjs';

const args = process.argv.slice(2);
const env = { NODE_ENV: 'production', ...process.env };

// The server bundle builds in seconds, the front end in a minute or two: before that wait, the
// server reads its command line and its settings (START_CHECK_ONLY, server/src/main.ts), so that
// `--help`, a mistyped flag or a wrong setting is answered at once.
buildServerIfNeeded();
if (webBuildNeeded()) {
  const check = spawnSync(process.execPath, [serverBundle, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, START_CHECK_ONLY: '1' },
  });
  if (check.status !== 0) process.exit(check.status ?? 1);
  if (args.includes('--help') || args.includes('-h')) process.exit(0);
  buildWebIfNeeded();
}

const child = spawn(process.execPath, ['--enable-source-maps', serverBundle, ...args], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
