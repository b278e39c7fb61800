// `npm run dev`: the API server (restarted on change) and `max dev` proxying /api to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './build-if-needed.mjs';

const bin = (name) => path.join(root, 'node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { DATA_DIR: path.join(root, 'data/dev'), ...process.env },
  }),
  spawn(bin('max'), ['dev'], { cwd: root, stdio: 'inherit', env: process.env }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
