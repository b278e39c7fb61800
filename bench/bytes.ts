// `npx tsx bench/bytes.ts [runs]`: only the front end's bytes, as `npm run bench` measures them
// (bench/lib/web.ts), against the built app (dist/, built if stale) on a small embedded database.
// A minute instead of the whole bench, for checking a bundling change against the budgets.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/options';
import { runSeed } from './lib/postgres';
import { signIn, startServer } from './lib/server';
import { measurePageLoads, type PageLoad } from './lib/web';

// As bench/lib/report.ts judges them.
const BUDGETS_KB = { login: 250, userList: 600 };

async function main() {
  const runs = Number(process.argv[2] ?? 1);
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/ensure-build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bytes-'));
  const dataDir = path.join(work, 'data');
  await runSeed({ users: 50, issues: 0, comments: 0, books: 0, interviews: 0 }, { DATA_DIR: dataDir });
  const server = await startServer({ DATA_DIR: dataDir }, path.join(work, 'server.log'));
  try {
    const token = await signIn(server.url);
    const kb = (bytes: number) => (bytes / 1000).toFixed(1);
    for (let run = 1; run <= runs; run++) {
      const loads = await measurePageLoads(server.url, token);
      const pages: [keyof typeof BUDGETS_KB, string, PageLoad][] = [
        ['login', '/login', loads.login],
        ['userList', '/user/userList', loads.userList],
      ];
      for (const [key, name, load] of pages) {
        const over = load.jsGzip / 1000 > BUDGETS_KB[key] ? ` OVER ${BUDGETS_KB[key]} kB` : '';
        console.log(
          `${name}: JS ${kb(load.jsGzip)} kB, CSS ${kb(load.cssGzip)} kB gzipped, ${load.files} files, usable after ${load.usableMs.toFixed(0)} ms${over}`,
        );
        const { repeat } = load;
        console.log(
          `  second visit: ${repeat.assetRequests} JS/CSS requests, ${repeat.assetBytes} bytes, ${repeat.assetsFromCache} from the cache, usable after ${repeat.usableMs.toFixed(0)} ms`,
        );
        const sent = Object.entries(load.sentAtMs).map(([what, at]) => `${what} ${at.toFixed(0)} ms`);
        if (sent.length) console.log(`  sent at: ${sent.join(', ')}`);
      }
    }
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
