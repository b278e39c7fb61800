/**
 * `npx tsx bench/review-queue.ts --database-url postgres://…/postgres [--comments 1000000] [--waiting 100000]`:
 * the 审核台's first page (`GET /api/review?pageSize=20`, and by kind) and its counts on a database
 * of `--comments` comments with `--waiting` items waiting (half questions awaiting approval, half
 * held comments with their flags), through the built server (`npm run build:server` first), one
 * request at a time; p50 and p95 of `--repeats` calls each. Creates and drops its own database;
 * with `--existing`, uses the database of `--database-url` (the bench's) and removes what it added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signIn } from '../server/test/live/client';
import { ServerProcess } from '../server/test/live/server-process';
import { addWaiting, removeWaiting, sql, timeReviewPages } from './lib/moderation';
import { databaseUrl } from './lib/postgres';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    comments: { type: 'string', default: '1000000' },
    waiting: { type: 'string', default: '100000' },
    repeats: { type: 'string', default: '100' },
    // The database of --database-url as it is (the bench's own, seeded by `npm run bench`): the
    // waiting items are added to it and removed again; nothing is created or dropped.
    existing: { type: 'boolean', default: false },
  },
});
const adminUrl = values['database-url'];
if (!adminUrl) throw new Error('--database-url is required');
const comments = Number(values.comments);
const waiting = Number(values.waiting);
const repeats = Number(values.repeats);
const name = 'cs_bench_review';

/** Times the queue's requests through the server at `base` and prints them with the load average. */
async function report(base: string) {
  const token = await signIn(base);
  for (const row of await timeReviewPages(base, token, repeats)) {
    console.log(`${row.path}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms (${row.calls} calls)`);
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/** --existing: the queue on a database seeded elsewhere, with `waiting` items added and then removed. */
async function onExisting(url: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bench-review-'));
  const server = await ServerProcess.start({ dataDir, databaseUrl: url }, 180_000);
  try {
    const now = await addWaiting(url, waiting);
    console.log(`${now.questions + now.comments} waiting (${now.questions} questions, ${now.comments} comments)`);
    await report(server.url);
  } finally {
    await removeWaiting(url);
    await server.terminate();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (values.existing) return onExisting(adminUrl!);
  await sql(adminUrl!, `drop database if exists ${name}`);
  await sql(adminUrl!, `create database ${name}`);
  const url = databaseUrl(adminUrl!, name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bench-review-'));
  const server = await ServerProcess.start({ dataDir, databaseUrl: url }, 180_000);
  try {
    const seeded = performance.now();
    // The rest of the database, nothing waiting: ids as 24 hex digits from a number, dates one second
    // apart, oldest first. The waiting items are added as `npm run bench` adds them (lib/moderation.ts).
    await sql(
      url,
      `insert into types (id, type_name, created_at) values ('${'0'.repeat(23)}1', 'bench', 0);
       insert into users (id, login_id, password_hash, nickname, avatar, register_date, last_login_date, login_key)
         select 'a' || lpad(to_hex(g), 23, '0'), 'u' || g, 'x', 'n' || g, '/a.png', 1e12, 1e12, 'u' || g from generate_series(1, 1000) g;
       insert into issues (id, issue_title, issue_content, issue_status, issue_date, user_id, type_id)
         select 'b' || lpad(to_hex(g), 23, '0'), 'issue ' || g, '<p>question ' || g || '</p>', true, 1.7e12 + g * 1000,
           'a' || lpad(to_hex(g % 1000 + 1), 23, '0'), '${'0'.repeat(23)}1' from generate_series(1, 20000) g;
       insert into comments (id, user_id, issue_id, type_id, comment_content, comment_date, comment_type, held)
         select 'c' || lpad(to_hex(g), 23, '0'), 'a' || lpad(to_hex(g % 1000 + 1), 23, '0'), 'b' || lpad(to_hex(g % 20000 + 1), 23, '0'),
           '${'0'.repeat(23)}1', '<p>comment ' || g || '</p>', 1.7e12 + g * 100, 1, false from generate_series(1, ${comments}) g;`,
    );
    const now = await addWaiting(url, waiting);
    console.log(
      `seeded ${comments} comments, ${now.questions + now.comments} waiting (${now.questions} questions, ${now.comments} comments) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    await report(server.url);
  } finally {
    await server.terminate();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!process.env.KEEP_BENCH_DB) await sql(adminUrl!, `drop database if exists ${name}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
