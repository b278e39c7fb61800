// `npm start`: builds what is missing or stale, then runs the production server.
import { spawn } from 'node:child_process';
import { buildIfNeeded, root, serverBundle } from './build-if-needed.mjs';

buildIfNeeded();

const child = spawn(process.execPath, ['--enable-source-maps', serverBundle, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
