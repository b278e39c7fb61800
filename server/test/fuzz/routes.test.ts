import type { InjectOptions } from 'fastify';
import fc from 'fast-check';
import { createTestContext, type TestContext } from '../harness';
import { routeKey } from '../attack/world';
import {
  Actors,
  type FuzzRequest,
  describeRequest,
  fuzzRuns,
  fuzzSeed,
  problemWith,
  requestArbitrary,
  strayArbitrary,
  toInject,
  watchProcess,
  wrongTypeArbitrary,
} from './fuzz';

// `npm test` runs a short pass; `npm run fuzz` runs 10,000 cases, or FUZZ_RUNS.
const RUNS = fuzzRuns(300);
const STRAY_RUNS = Math.max(50, Math.round(RUNS / 10));
// A case takes a few milliseconds, or a password hash; the limit leaves room for a busy machine
// (and for the first pass, one case per route: fewer than 100 routes).
const TIME_LIMIT_MS = 120_000 + (RUNS + 100) * 250;

let t: TestContext;
let actors: Actors;
beforeAll(async () => {
  t = await createTestContext();
  actors = new Actors(t);
  await actors.init();
}, 120_000);
afterAll(() => t.close());

// A route that answers an open stream (the catalogue's `stream`): judged by its head, then closed
// (a refusal is read whole).
async function answer(options: InjectOptions, isStream: boolean) {
  if (!isStream) return t.app.inject(options);
  const response = await t.app.inject({ ...options, payloadAsStream: true });
  const stream = (response as unknown as { stream(): NodeJS.ReadableStream & { destroy(): void } }).stream();
  if (response.statusCode < 400) {
    stream.destroy();
    return Object.assign(response, { body: '' });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Object.assign(response, { body: Buffer.concat(chunks).toString() });
}

describe(`fuzzing every registered route (${RUNS} cases) and stray paths (${STRAY_RUNS} cases)`, () => {
  it(
    'no 5xx, no crash, and every refusal is the envelope with a Chinese message',
    async () => {
      const watch = watchProcess();
      const seen = new Map<string, number>();
      const statuses = new Map<number, number>();
      const check = async (request: FuzzRequest) => {
        const options = toInject(request, actors);
        const streams = t.app.routeCatalog.some((route) => routeKey(route) === request.route && route.stream);
        const response = await answer(options, streams);
        seen.set(request.route, (seen.get(request.route) ?? 0) + 1);
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const problem = problemWith(String(options.method), response);
        await actors.repair();
        if (problem) throw new Error(`${problem}\n  request: ${describeRequest(options)}`);
      };
      try {
        // First one generated case per route with its own method, so that even the short run
        // reaches every route whatever the random draw (300 draws over ~60 routes left one out
        // now and then); then the RUNS random cases as before.
        for (const route of t.app.routeCatalog) {
          await fc.assert(fc.asyncProperty(requestArbitrary([route], { ownMethod: true }), check), { numRuns: 1, seed: fuzzSeed() });
        }
        await fc.assert(fc.asyncProperty(requestArbitrary(t.app.routeCatalog), check), {
          numRuns: RUNS,
          seed: fuzzSeed(),
          endOnFailure: RUNS > 1000,
        });
      } finally {
        watch.stop();
      }
      expect(watch.crashes).toEqual([]);
      // The process is still whole: it answers, and its database does too.
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const unvisited = t.app.routeCatalog.map(routeKey).filter((key) => !seen.has(key));
      expect(unvisited).toEqual([]);
      const tally = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      process.stdout.write(`fuzz: ${t.app.routeCatalog.length} + ${RUNS} route cases passed over ${seen.size} routes; answers ${tally}\n`);
    },
    TIME_LIMIT_MS,
  );

  it(
    'a body field of the wrong JSON type is refused with a 400 naming the field, never converted',
    async () => {
      await fc.assert(
        fc.asyncProperty(wrongTypeArbitrary(t.app.routeCatalog), async ({ request, field }) => {
          const options = toInject(request, actors);
          const response = await t.app.inject(options);
          await actors.repair();
          const body = response.json() as { msg?: unknown };
          if (
            response.statusCode !== 400 ||
            typeof body.msg !== 'string' ||
            !body.msg.includes(field) ||
            problemWith(String(options.method), response)
          ) {
            throw new Error(`answered ${response.statusCode} ${response.body.slice(0, 200)}\n  request: ${describeRequest(options)}`);
          }
        }),
        { numRuns: STRAY_RUNS, seed: fuzzSeed() },
      );
    },
    TIME_LIMIT_MS,
  );

  it(
    'paths and methods that match no route answer a 4xx envelope',
    async () => {
      await fc.assert(
        fc.asyncProperty(strayArbitrary(), fc.constantFrom('nobody', 'super'), async ({ method, url }, role) => {
          const token = actors.token(role as 'nobody' | 'super');
          const options = { method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} };
          const response = await t.app.inject(options);
          const problem = problemWith(method, response);
          if (problem) throw new Error(`${problem}\n  request: ${describeRequest(options)}`);
        }),
        { numRuns: STRAY_RUNS, seed: fuzzSeed() },
      );
    },
    TIME_LIMIT_MS,
  );
});
