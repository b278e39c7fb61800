import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { signIn } from '../live/client';
import { PostgresCluster } from '../live/postgres';
import { freePort, ServerProcess, sleep } from '../live/server-process';

/**
 * A rolling restart: two processes on one PostgreSQL behind a balancer that follows /readyz
 * (a tiny one, here in the test: it sends a call to a process whose last /readyz, asked every
 * 100 ms, was 200). Under 200 calls a second, one process is stopped (SIGTERM) and started again,
 * then the other: every call is answered 2xx.
 */

const STOP_DELAY_MS = 1500;
const RATE_PER_SECOND = 200;
let cluster: PostgresCluster;
let databaseUrl: string;
const dirs: string[] = [];
const servers: Array<{ port: number; process: ServerProcess }> = [];

const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-rolling-'));
  dirs.push(dir);
  return dir;
};
const start = (port: number) =>
  ServerProcess.start({ dataDir: dataDir(), databaseUrl, port, env: { STOP_DELAY_MS: String(STOP_DELAY_MS) } });

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  databaseUrl = await cluster.createDatabase('rolling');
  const first = await freePort();
  servers.push({ port: first, process: await start(first) });
  const second = await freePort();
  servers.push({ port: second, process: await start(second) });
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.process.terminate()));
  await cluster?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The balancer: forwards each call to the next ready backend; answers 502 when none is, or the backend failed. */
function balancer(ports: number[]) {
  const ready = new Set<number>();
  let next = 0;
  let polling = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const poll = async () => {
    while (polling) {
      await Promise.all(
        ports.map(async (port) => {
          try {
            const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(500) });
            await response.arrayBuffer();
            if (response.status === 200) ready.add(port);
            else ready.delete(port);
          } catch {
            ready.delete(port);
          }
        }),
      );
      await sleep(100);
    }
  };
  const polled = poll();
  const server = http.createServer((request, response) => {
    const up = [...ready];
    if (!up.length) {
      response.writeHead(502).end('no backend ready');
      return;
    }
    const port = up[next++ % up.length];
    const upstream = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502).end(`backend ${port} failed: ${error.message}`);
    });
    request.pipe(upstream);
  });
  // The load's agent keeps its idle sockets with no time limit (Node's agent heeds a server's
  // Keep-Alive hint only under a timeout of its own), so the 5 s default here would close one just
  // as the load reuses it: a reset between the test's own two ends (Node's request.reusedSocket).
  server.keepAliveTimeout = 120_000;
  return {
    ready,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      polling = false;
      await polled;
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

it(`restarting one process then the other under ${RATE_PER_SECOND} calls/s: every call answered 2xx`, async () => {
  const lb = balancer(servers.map((server) => server.port));
  const url = await lb.listen();
  const token = await signIn(servers[0].process.url);
  const waitReady = async (port: number) => {
    const deadline = Date.now() + 60_000;
    while (!lb.ready.has(port)) {
      if (Date.now() > deadline) throw new Error(`backend ${port} never became ready`);
      await sleep(50);
    }
  };
  await Promise.all(servers.map((server) => waitReady(server.port)));

  const outcomes: string[] = [];
  let sending = true;
  const inFlight = new Set<Promise<void>>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
  const one = () =>
    new Promise<void>((resolve) => {
      const request = http.get(`${url}/api/type`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.resume();
        response.on('end', () => {
          outcomes.push(String(response.statusCode));
          resolve();
        });
      });
      request.on('error', (error) => {
        outcomes.push(`error ${error.message}`);
        resolve();
      });
    });
  // Paced by the clock: as many calls as 200 a second since the start, whatever the answers take.
  const sendingFrom = Date.now();
  let sent = 0;
  const sender = (async () => {
    while (sending) {
      const due = Math.floor(((Date.now() - sendingFrom) * RATE_PER_SECOND) / 1000);
      for (; sent < due; sent++) {
        const call = one();
        inFlight.add(call);
        void call.then(() => inFlight.delete(call));
      }
      await sleep(10);
    }
  })();

  const started = Date.now();
  await sleep(1000);
  for (const server of servers) {
    const exit = await server.process.terminate();
    expect(exit.code).toBe(0);
    server.process = await start(server.port);
    await waitReady(server.port);
    await sleep(500);
  }
  sending = false;
  await sender;
  await Promise.all(inFlight);
  agent.destroy();
  await lb.close();

  const seconds = (Date.now() - started) / 1000;
  const failed = outcomes.filter((outcome) => !/^2\d\d$/.test(outcome));
  const tally: Record<string, number> = {};
  for (const outcome of failed) tally[outcome] = (tally[outcome] ?? 0) + 1;
  console.log(
    `rolling restart: ${outcomes.length} calls in ${seconds.toFixed(1)} s (${Math.round(outcomes.length / seconds)}/s), non-2xx: ${failed.length}`,
  );
  expect(outcomes.length).toBeGreaterThan(RATE_PER_SECOND * 5);
  expect(tally).toEqual({});
}, 180_000);
