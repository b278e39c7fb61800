/**
 * `npx tsx bench/ab.ts --a OLD.cjs --b NEW.cjs [--path /api/...]... [--rounds 6] [--seconds 5] [--visitor]`:
 * two server bundles on the same database, loaded in turn (A, B, B, A, …) so that a neighbour
 * loading the shared machine weighs on both alike. Prints each run and, per path, the medians of
 * req/s and server CPU per request, and B's ratio to A. For changes of a few per cent, which a
 * single run of `npm run bench` cannot tell from the machine's noise.
 *
 * The database is `--database-url` (default: the bench's, postgres://postgres@127.0.0.1:5432/bench),
 * seeded beforehand (`npm run bench -- --keep` leaves it). `--env K=V` goes to both servers
 * (e.g. SESSIONS_IN_MEMORY=false, the statements of the floor); `--a-env`/`--b-env` to one side only,
 * so that one bundle can be measured against itself with a layer turned off (`--b-env DB_LAYERS=-direct`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signIn } from '../server/test/live/client';
import { ServerProcess } from '../server/test/live/server-process';
import { measure, type LoadResult } from './lib/load';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    path: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/bench' },
    env: { type: 'string', multiple: true },
    'a-env': { type: 'string', multiple: true },
    'b-env': { type: 'string', multiple: true },
    // The public site's reads (issue 24) as a visitor: no token, so the visitor's route answers.
    visitor: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b)
  throw new Error(
    'usage: npx tsx bench/ab.ts --a OLD.cjs --b NEW.cjs [--path P]... [--rounds N] [--seconds S] [--env K=V]... [--a-env K=V]... [--b-env K=V]...',
  );
const paths = values.path ?? ['/api/user?current=1&pageSize=10', '/api/admin/whoami'];
const pairs = (list: string[] | undefined) => Object.fromEntries((list ?? []).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
const extraEnv = pairs(values.env);
const sideEnv = { A: pairs(values['a-env']), B: pairs(values['b-env']) };

interface Side {
  name: 'A' | 'B';
  server: ServerProcess;
  token: string | null;
}

/** A bundle as the bench runs the product (bench/lib/server.ts): its log at info, to a file. */
async function start(name: Side['name'], bundle: string): Promise<Side> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-ab-'));
  const server = await ServerProcess.spawn({
    bundle: path.resolve(bundle),
    dataDir,
    databaseUrl: values['database-url'],
    logFile: path.join(dataDir, 'server.log'),
    env: { NODE_ENV: 'benchmark', LOG_LEVEL: 'info', ...extraEnv, ...sideEnv[name] },
  });
  await server.ready(60_000);
  return { name, server, token: values.visitor ? null : await signIn(server.url) };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

async function main() {
  const a = await start('A', values.a!);
  const b = await start('B', values.b!);
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  try {
    for (const route of paths) {
      const runs: Record<Side['name'], LoadResult[]> = { A: [], B: [] };
      for (const side of [a, b]) await measure(`${side.server.url}${route}`, side.token, side.server.pid, connections, 2, 0);
      for (let round = 0; round < rounds; round++) {
        for (const side of round % 2 ? [b, a] : [a, b]) {
          const run = await measure(`${side.server.url}${route}`, side.token, side.server.pid, connections, seconds, 0);
          if (run.failures) throw new Error(`${side.name} ${route}: ${run.failures} failures`);
          runs[side.name].push(run);
          console.log(`${route} ${side.name}: ${run.rps.toFixed(0)} req/s, ${(run.serverCpuMs * 1000).toFixed(1)} µs CPU/req`);
        }
      }
      const rps = (side: Side['name']) => median(runs[side].map((r) => r.rps));
      const cpu = (side: Side['name']) => median(runs[side].map((r) => r.serverCpuMs * 1000));
      console.log(
        `== ${route}: A ${rps('A').toFixed(0)} req/s ${cpu('A').toFixed(1)} µs | B ${rps('B').toFixed(0)} req/s ${cpu('B').toFixed(1)} µs | B/A req/s ${(rps('B') / rps('A')).toFixed(3)}, CPU ${(cpu('B') / cpu('A')).toFixed(3)}`,
      );
    }
  } finally {
    await Promise.all([a.server.terminate(), b.server.terminate()]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
