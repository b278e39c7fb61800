import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../../src/db/client';
import { call, pngWithTail, signIn, type Answer } from '../live/client';
import { embeddedDataDir, ServerProcess, sleep } from '../live/server-process';

/**
 * SIGTERM while calls are in flight: those finish (and are kept), every call arriving after the
 * signal is answered 503 with the envelope until the listener closes, and the process exits 0.
 */

let dataDir: string;
beforeEach(async () => {
  dataDir = await embeddedDataDir();
}, 180_000);
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface SlowUpload {
  /** Sends the rest of the body. */
  finish(): void;
  answer: Promise<{ status: number; body: string }>;
}

/** An upload whose body stops half-way until `finish()`: in flight for as long as the test likes. */
function slowUpload(url: string, token: string, bytes: Buffer): SlowUpload {
  const boundary = '----cs-fault-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const request = http.request(`${url}/api/upload`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': body.length,
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.subarray(0, half));
  return { finish: () => request.end(body.subarray(half)), answer };
}

it('SIGTERM under load: calls in flight finish, new calls get the 503 envelope, the process exits 0', async () => {
  const server = await ServerProcess.start({ dataDir });
  const token = await signIn(server.url);
  const images = Array.from({ length: 6 }, (_, i) => pngWithTail(1000 + i, 4096));
  const inFlight = images.map((bytes) => slowUpload(server.url, token, bytes));
  // Headers and half of each body are with the server: the calls have begun.
  await sleep(1000);

  process.kill(server.pid, 'SIGTERM');
  const exit = server.exited;
  // Signals are handled on the server's event loop: give it a moment to take this one.
  await sleep(200);

  // New calls, one after another, on fresh connections, while the old ones are still stuck.
  const late: Array<Answer | 'refused'> = [];
  const sendLate = async () => {
    try {
      late.push(await call(server.url, 'GET', '/api/type', { token, headers: { connection: 'close' }, timeoutMs: 3000 }));
    } catch {
      late.push('refused');
    }
  };
  for (let i = 0; i < 10; i++) {
    await sendLate();
    await sleep(50);
  }
  expect(server.running).toBe(true);

  for (const upload of inFlight) upload.finish();
  const answers = await Promise.all(inFlight.map((u) => u.answer));
  // After the stop, a new caller may only meet a closed door.
  await exit;
  await sendLate();

  expect(answers.map((a) => a.status)).toEqual(images.map(() => 200));
  expect(await exit).toEqual({ code: 0, signal: null });

  const statuses = late.map((a) => (a === 'refused' ? 'refused' : a.status));
  // The signal is handled at once: calls sent after it are never served again.
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(503));
  expect(statuses[10]).toBe('refused');
  for (const answer of late.slice(0, 10) as Answer[]) {
    expect(answer.body).toEqual({ success: false, code: 503, msg: '服务暂时不可用，请稍后重试', errorCode: 'UNAVAILABLE', data: null });
    expect(answer.ms).toBeLessThan(3000);
  }
  expect(server.output()).not.toMatch(/error/i);

  // What the in-flight uploads were told is stored, byte for byte.
  const database = await openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'pglite') });
  try {
    for (const [i, answer] of answers.entries()) {
      const id = /\/static\/uploads\/([0-9a-f]{24})\.png/.exec(answer.body)![1];
      const [row] = await queryRows<{ data: Uint8Array }>(database.db, sql`select data from uploads where id = ${id}`);
      expect(Buffer.from(row.data).equals(images[i])).toBe(true);
    }
  } finally {
    await database.close();
  }
}, 90_000);
