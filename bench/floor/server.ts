/**
 * The floor: the fastest answer this stack (Fastify, node-postgres) can give to a call the
 * product answers. It sends the statements the product's own code sent for that call (captured by
 * bench/lib/floor.ts), the way drizzle sends them (named, so prepared once per connection; rows
 * as arrays), and answers the same JSON, built by a function generated from the product's answer.
 * No validation, no token check, no headers, no log: what is left is the framework, the driver
 * and the JSON. Started by the bench with the path of its spec; prints its port; stops when the
 * bench's end of stdin closes.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { FloorSpec } from '../lib/floor';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as FloorSpec;
const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize, keepAlive: true, options: spec.connectionOptions });
const calls = new Map(
  spec.calls.map((call) => [
    call.url,
    {
      statements: call.statements.map((s) => ({ name: s.name, text: s.text, values: s.values, rowMode: 'array' as const })),
      answer: new Function('rows', `const row = rows[0]; return ${call.answer};`) as (rows: unknown[][]) => unknown,
    },
  ]),
);

const app = Fastify({ logger: false });
app.get('*', async (request, reply) => {
  const call = calls.get(request.url);
  if (!call) return reply.code(404).send();
  let rows: unknown[][] = [];
  for (const statement of call.statements) rows = (await pool.query<unknown[]>(statement)).rows;
  return call.answer(rows);
});

app.listen({ host: '127.0.0.1', port: 0 }).then(() => {
  const address = app.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
// The bench holds the other end: when it goes, so does the floor.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
