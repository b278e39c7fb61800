import type { AddressInfo } from 'node:net';
import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { STREAM_SESSION_CHECK_MS } from './review.events';

/*
 * The 审核台's live stream on a listening server (its own file: a listening app runs its
 * background jobs, which the statement counts of the other review tests must not see).
 */

let t: TestContext;
let base: string;

beforeAll(async () => {
  t = await createTestContext();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Reads the stream until `done` says so or it ends; answers whether it ended. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean, ms: number) {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  while (!done(text)) {
    const left = deadline - Date.now();
    if (left <= 0) return { ended: false, text };
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([reader.read(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)))]);
    clearTimeout(timer);
    if (next === null) return { ended: false, text };
    if (next.done) return { ended: true, text };
    text += decoder.decode(next.value, { stream: true });
  }
  return { ended: false, text };
}

it('ends the stream of a session ended elsewhere, and its reconnection is refused with SESSION_ENDED', async () => {
  const { token } = await t.createAdmin('stream-watcher', 2);
  const response = await fetch(`${base}/api/review/events`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await readUntil(reader, (text) => text.includes('event: counts'), 10_000);
  expect(first.text).toContain('event: counts');

  // A live session's stream outlasts its checks.
  const kept = await readUntil(reader, () => false, STREAM_SESSION_CHECK_MS + 1_000);
  expect(kept.ended).toBe(false);

  const out = await t.inject({ method: 'POST', url: '/api/admin/logout', headers: bearer(token) });
  expect(out.statusCode).toBe(200);
  const after = await readUntil(reader, () => false, STREAM_SESSION_CHECK_MS + 3_000);
  expect(after.ended).toBe(true);

  await reader.cancel();
  const again = await fetch(`${base}/api/review/events`, { headers: bearer(token) });
  expect(again.status).toBe(401);
  expect((await again.json()).errorCode).toBe('SESSION_ENDED');
}, 30_000);
