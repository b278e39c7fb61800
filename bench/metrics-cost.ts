/**
 * `npx tsx bench/metrics-cost.ts`: what the /metrics request hook adds to one call, measured in
 * isolation (the A/B of whole servers in bench/ab.ts swings by more than the hook costs on a busy
 * machine): Fastify's documented `request.routeOptions.url`, `reply.elapsedTime`, and prom-client's
 * `observe` on a kept child of a histogram with the product's buckets. Prints nanoseconds per call.
 */
import Fastify from 'fastify';
import { Histogram, Registry } from 'prom-client';

const N = 200_000;
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function nsPerCall(body: () => void): number {
  for (let i = 0; i < N / 10; i++) body();
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) body();
  return Number(process.hrtime.bigint() - started) / N;
}

async function main() {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'bench',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [new Registry()],
  });
  const child = histogram.labels('GET', '/api/admin/whoami', '200');
  const app = Fastify();
  let sink = 0;
  app.get('/api/admin/whoami', async (request, reply) => ({
    routeOptionsUrl: nsPerCall(() => {
      sink += (request.routeOptions.url ?? '').length;
    }),
    elapsedTime: nsPerCall(() => {
      sink += reply.elapsedTime;
    }),
    observe: nsPerCall(() => child.observe(0.003)),
  }));
  const answer = (await app.inject('/api/admin/whoami')).json() as Record<string, number>;
  const total = Object.values(answer).reduce((a, b) => a + b, 0);
  for (const [name, ns] of Object.entries(answer)) console.log(`${name.padEnd(16)} ${ns.toFixed(0).padStart(6)} ns`);
  console.log(`${'hook in all'.padEnd(16)} ${total.toFixed(0).padStart(6)} ns per call`);
  if (sink === -1) console.log(sink); // keeps the measured reads from being optimised away
  await app.close();
}

void main();
