// Builds the front end and the server bundle when they are missing or older than their sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverBundle = path.join(root, 'server/dist/main.cjs');
const webIndex = path.join(root, 'dist/index.html');

function newestMtime(entries) {
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (path.basename(p).startsWith('.umi') || path.basename(p) === 'node_modules') return;
      for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const entry of entries) visit(path.join(root, entry));
  return newest;
}

function builtAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function run(script) {
  console.log(`> npm run ${script}`);
  const result = spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Both halves are built from contract/ too: the server bundles its schemas, the front end its types.
export const webBuildNeeded = () =>
  builtAt(webIndex) < newestMtime(['src', 'contract', 'config', 'public', '.umirc.ts', 'package-lock.json']);
const serverBuildNeeded = () => builtAt(serverBundle) < newestMtime(['server/src', 'contract', 'server/migrations', 'package-lock.json']);

export function buildWebIfNeeded() {
  if (webBuildNeeded()) run('build:web');
}

export function buildServerIfNeeded() {
  if (serverBuildNeeded()) run('build:server');
}

export function buildIfNeeded() {
  buildWebIfNeeded();
  buildServerIfNeeded();
}
