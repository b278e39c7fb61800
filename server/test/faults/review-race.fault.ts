import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, signIn } from '../live/client';
import { PostgresCluster } from '../live/postgres';
import { ServerProcess } from '../live/server-process';

/**
 * The review queue on two server processes sharing one PostgreSQL (issue 25): two admins deciding
 * one item at once get one 200 and one 409 naming who decided it, and the live events of one
 * process tell of what the other did (LISTEN on review_changes) within a second.
 */

const LIVE_BOUND_MS = 1000;
const SECOND = { loginId: 'reviewer2', password: 'Reviewer-Tern-8814' };

let cluster: PostgresCluster;
let a: ServerProcess;
let b: ServerProcess;
let tokenA: string;
let tokenB: string;
let userId: string;
let typeId: string;
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await PostgresCluster.create();
  const databaseUrl = await cluster.createDatabase('review');
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-review-'));
    dirs.push(dir);
    return dir;
  };
  [a, b] = await Promise.all([
    ServerProcess.start({ dataDir: dataDir(), databaseUrl }),
    ServerProcess.start({ dataDir: dataDir(), databaseUrl }),
  ]);
  tokenA = await signIn(a.url);
  const created = await call(a.url, 'POST', '/api/admin', {
    token: tokenA,
    body: { loginId: SECOND.loginId, loginPwd: SECOND.password, nickname: '审核员二', permission: 2 },
  });
  expect(created.status).toBe(201);
  tokenB = await signIn(b.url, SECOND.loginId, SECOND.password);
  typeId = (await call(a.url, 'POST', '/api/type', { token: tokenA, body: { typeName: '审核' } })).body.data._id;
  userId = (await call(a.url, 'POST', '/api/user', { token: tokenA, body: { loginId: 'poster', loginPwd: 'Poster-Tern-5521' } })).body.data
    ._id;
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.terminate(), b?.terminate()]);
  await cluster?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function waitingIssue(title: string): Promise<string> {
  const answer = await call(a.url, 'POST', '/api/issue', {
    token: tokenA,
    body: { issueTitle: title, issueContent: '<p>内容</p>', userId, typeId },
  });
  expect(answer.status).toBe(201);
  return answer.body.data._id;
}

/** The events of GET /api/review/events on `baseUrl`, as they come. */
function events(baseUrl: string, token: string) {
  const seen: Array<{ type: string; data: unknown; at: number }> = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${baseUrl}/api/review/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) return;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (type && data) seen.push({ type, data: JSON.parse(data), at: performance.now() });
      }
    }
  })().catch(() => undefined);
  return {
    seen,
    async until(test: (event: { type: string; data: unknown }) => boolean, ms = 5000) {
      const start = performance.now();
      while (performance.now() - start < ms) {
        const found = seen.find(test);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no such event within ${ms} ms: ${JSON.stringify(seen)}`);
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

it('two admins on two processes deciding one item at once: one 200, one 409 naming who and how', async () => {
  for (let round = 0; round < 5; round++) {
    const id = await waitingIssue(`并发 ${round}`);
    const decision = round % 2 ? 'reject' : 'approve';
    const [first, second] = await Promise.all([
      call(a.url, 'POST', '/api/review/decisions', { token: tokenA, body: { items: [{ kind: 'issue', id }], decision } }),
      call(b.url, 'POST', '/api/review/decisions', { token: tokenB, body: { items: [{ kind: 'issue', id }], decision: 'approve' } }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    const winner = first.status === 200 ? 'admin' : SECOND.loginId;
    expect(loser.body.errorCode).toBe('CONFLICT');
    expect(loser.body.msg).toContain(`已被 ${winner} `);
  }
});

it('what one process decides, and who looks at what, reaches the other process within a second', async () => {
  const stream = events(b.url, tokenB);
  try {
    const initial = (await stream.until((e) => e.type === 'counts')).data as { total: number };
    const id = await waitingIssue('实时');
    const grown = await stream.until((e) => e.type === 'counts' && (e.data as { total: number }).total === initial.total + 1);
    expect(grown).toBeTruthy();

    const sent = performance.now();
    expect((await call(a.url, 'POST', '/api/review/presence', { token: tokenA, body: { kind: 'issue', id, open: true } })).status).toBe(
      200,
    );
    const looked = await stream.until((e) => e.type === 'presence' && (e.data as { id: string }).id === id);
    expect(looked.data).toMatchObject({ kind: 'issue', id, loginId: 'admin', open: true });
    const presenceAt = stream.seen.find((e) => e.type === 'presence')!.at;
    expect(presenceAt - sent).toBeLessThan(LIVE_BOUND_MS);

    const decided = performance.now();
    expect(
      (await call(a.url, 'POST', '/api/review/decisions', { token: tokenA, body: { items: [{ kind: 'issue', id }], decision: 'approve' } }))
        .status,
    ).toBe(200);
    const after = await stream.until((e) => e.type === 'counts' && (e.data as { total: number }).total === initial.total);
    expect((after as { at: number }).at - decided).toBeLessThan(LIVE_BOUND_MS);
  } finally {
    await stream.close();
  }
});
