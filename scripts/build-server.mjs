// Bundles the server into one CommonJS file; packages stay in node_modules.
import path from 'node:path';
import { build } from 'esbuild';
import { root, serverBundle } from './build-if-needed.mjs';

await build({
  entryPoints: [path.join(root, 'server/src/main.ts')],
  outfile: serverBundle,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  // contract/ by its alias, as package.json "imports" declares it (esbuild reads that too).
  alias: { '#contract': path.join(root, 'contract') },
});
console.log(`server bundle: ${path.relative(root, serverBundle)}`);
