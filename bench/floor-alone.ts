/**
 * `npx tsx bench/floor-alone.ts PATH...`: the two floor servers of `npm run bench` for these calls on
 * the bench database, left running (their URLs and pids printed) until this process is stopped;
 * to profile or strace a floor beside the product (`node --cpu-prof` is what bench/NOTES.md used).
 * A path written `visitor:/api/...` is called without a token (the public site, issue 24); the
 * floors need two calls with one to find the token check, so whoami and the user list are added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFloors } from './lib/floor';
import { captureCalls } from './lib/postgres';

async function main() {
  const url = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-floor-'));
  const given = process.argv.slice(2);
  const anonymous = new Set(given.filter((p) => p.startsWith('visitor:')).map((p) => p.slice('visitor:'.length)));
  const paths = [...new Set([...given.map((p) => p.replace(/^visitor:/, '')), '/api/admin/whoami', '/api/user?current=1&pageSize=10'])];
  const floors = await startFloors(url, await captureCalls(url, paths, anonymous), work);
  console.log(JSON.stringify({ floor: floors.floor, listOnly: floors.listOnly }));
  const stop = () => void floors.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  setInterval(() => undefined, 1 << 30);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
