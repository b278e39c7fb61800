import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { eq } from 'drizzle-orm';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_MESSAGES } from '#contract/webhook';
import { webhooks } from '../../db/schema';
import { bearer, createTestContext, ROOT_PASSWORD, type TestContext } from '../../../test/harness';
import { enqueueEvent } from '../moderation/webhook.queue';
import { recordHold } from '../moderation/moderation';
import { backoffMs, createWebhookService } from './webhook.service';
import { checkUrlForm, hostAllowed, isPrivateAddress, maskUrl, publicOnly, send } from './webhook.sender';

interface Received {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

/** A receiver on loopback; `answer` picks each call's status (and body). */
async function receiver(answer: (call: number, request: Received) => number | [number, string] = () => 200, delayMs = 0) {
  const calls: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const received: Received = { path: url.pathname, query: url.searchParams, headers: request.headers, body, status: 0 };
      const given = answer(calls.length, received);
      const [status, text] = Array.isArray(given) ? given : [given, '{"errcode":0,"errmsg":"ok"}'];
      received.status = status;
      calls.push(received);
      setTimeout(() => response.writeHead(status, { 'content-type': 'application/json' }).end(text), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    calls,
    base,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let t: TestContext;
let root: string;
beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  root = await t.rootToken();
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = root) =>
  t.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

// The tests move the clock past the proof window (back-off): each change is proved afresh.
async function createHook(body: Record<string, unknown>) {
  await t.prove(root, ROOT_PASSWORD);
  const response = await call('POST', '/api/settings/webhooks', body);
  expect(response.statusCode).toBe(201);
  return response.json().data as { webhook: { _id: string }; secret: string | null };
}
const removeHook = async (id: string) => {
  await t.prove(root, ROOT_PASSWORD);
  expect((await call('DELETE', `/api/settings/webhooks/${id}`)).statusCode).toBe(200);
};
const deliveriesOf = async (id: string) => (await call('GET', `/api/settings/webhooks/${id}/deliveries?pageSize=100`)).json().data;
const hold = (itemId = '0123456789abcdef01234567') =>
  t.database.db.transaction((tx) =>
    recordHold(tx, { kind: 'comment', itemId, verdict: { action: 'hold', reasons: [{ rule: 'word', words: ['spam'] }] } as never }),
  );

describe('each kind’s message and signature, checked by a receiver that recomputes it', () => {
  it('钉钉: markdown, timestamp and sign (HMAC-SHA256 of "timestamp\\nsecret", base64) in the query', async () => {
    const rx = await receiver();
    const secret = 'SECdingtalk-robot-secret';
    const { webhook } = await createHook({
      name: '钉钉群',
      kind: 'dingtalk',
      url: `${rx.base}/robot/send?access_token=abc123`,
      secret,
      events: ['item.waiting'],
    });
    await hold('0123456789abcdef01234501');
    expect(await t.app.webhooks.deliverDue()).toBe(1);
    const [got] = rx.calls;
    expect(got.query.get('access_token')).toBe('abc123');
    const timestamp = got.query.get('timestamp') ?? '';
    expect(Math.abs(Number(timestamp) - t.clock.now())).toBeLessThan(5_000);
    expect(got.query.get('sign')).toBe(createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64'));
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ msgtype: 'markdown', markdown: { title: '新内容待审' } });
    expect(body.markdown.text).toContain('一条评论等待审核（敏感词）');
    await removeHook(webhook._id);
    await rx.close();
  });

  it('飞书: text, timestamp (seconds) and sign (HMAC-SHA256 keyed by "timestamp\\nsecret" over nothing) in the body', async () => {
    const rx = await receiver(() => [200, '{"code":0,"msg":"success"}']);
    const secret = 'feishu-secret';
    const { webhook } = await createHook({
      name: '飞书群',
      kind: 'feishu',
      url: `${rx.base}/open-apis/bot/v2/hook/tok`,
      secret,
      events: ['item.waiting', 'rule.fired'],
    });
    await enqueueEvent(
      t.database.db,
      'rule.fired',
      { kind: 'issue', itemId: null, action: 'reject', reasons: [{ rule: 'word' }] },
      t.clock.now(),
    );
    await t.app.webhooks.deliverDue();
    const body = JSON.parse(rx.calls[0].body);
    expect(body.msg_type).toBe('text');
    expect(body.content.text).toBe('【规则触发】一条问答被规则拒绝（敏感词）。');
    expect(Math.abs(Number(body.timestamp) * 1000 - t.clock.now())).toBeLessThan(5_000);
    expect(body.sign).toBe(createHmac('sha256', `${body.timestamp}\n${secret}`).update('').digest('base64'));
    expect((await deliveriesOf(webhook._id)).data[0]).toMatchObject({
      event: 'rule.fired',
      state: 'delivered',
      attempts: 1,
      lastStatus: 200,
    });
    await removeHook(webhook._id);
    await rx.close();
  });

  it('企业微信: markdown to the key URL, no secret; a 200 that says errcode ≠ 0 is a failure', async () => {
    let first = true;
    const rx = await receiver(() => {
      const answer: [number, string] = first ? [200, '{"errcode":45009,"errmsg":"api freq out of limit"}'] : [200, '{"errcode":0}'];
      first = false;
      return answer;
    });
    const refused = await call('POST', '/api/settings/webhooks', {
      name: 'x',
      kind: 'wecom',
      url: `${rx.base}/cgi-bin/webhook/send?key=k`,
      secret: 's',
      events: ['item.waiting'],
    });
    expect(refused.statusCode).toBe(400);
    const { webhook, secret } = await createHook({
      name: '企业微信群',
      kind: 'wecom',
      url: `${rx.base}/cgi-bin/webhook/send?key=0a1b2c3d-key`,
      events: ['item.waiting'],
    });
    expect(secret).toBeNull();
    await hold('0123456789abcdef01234502');
    await t.app.webhooks.deliverDue();
    expect(JSON.parse(rx.calls[0].body)).toMatchObject({
      msgtype: 'markdown',
      markdown: { content: expect.stringContaining('**新内容待审**') },
    });
    expect(rx.calls[0].query.get('key')).toBe('0a1b2c3d-key');
    const [delivery] = (await deliveriesOf(webhook._id)).data;
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 200, lastError: expect.stringContaining('45009') });
    t.clock.advance(backoffMs(1));
    await t.app.webhooks.deliverDue();
    expect((await deliveriesOf(webhook._id)).data[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    await removeHook(webhook._id);
    await rx.close();
  });

  it('通用 JSON: the event as the body, X-Signature-256 = sha256=<hex HMAC of the raw body>, delivery id and timestamp headers', async () => {
    const rx = await receiver();
    const { webhook, secret } = await createHook({ name: '自建服务', kind: 'json', url: `${rx.base}/hook`, events: ['item.waiting'] });
    expect(secret).toMatch(/^[\w-]{40,}$/);
    await hold('0123456789abcdef01234503');
    await t.app.webhooks.deliverDue();
    const [got] = rx.calls;
    expect(got.headers['x-signature-256']).toBe(
      `sha256=${createHmac('sha256', secret ?? '')
        .update(got.body)
        .digest('hex')}`,
    );
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ event: 'item.waiting', data: { kind: 'comment', itemId: '0123456789abcdef01234503', action: 'hold' } });
    expect(got.headers['x-webhook-id']).toBe(String(body.id));
    expect(got.headers['x-webhook-timestamp']).toMatch(/^\d{13}$/);
    // A receiver holding another secret would refuse it.
    expect(got.headers['x-signature-256']).not.toBe(`sha256=${createHmac('sha256', 'other').update(got.body).digest('hex')}`);
    await removeHook(webhook._id);
    await rx.close();
  });
});

describe('retries', () => {
  it('against a receiver that fails every other call: every delivery ends delivered, once, after backing off', async () => {
    const rx = await receiver((n) => (n % 2 === 0 ? 500 : 200));
    const { webhook } = await createHook({ name: '半数失败', kind: 'json', url: `${rx.base}/flaky`, events: ['item.waiting'] });
    for (let i = 0; i < 6; i++) await enqueueEvent(t.database.db, 'item.waiting', { kind: 'comment', itemId: `item-${i}` }, t.clock.now());

    await t.app.webhooks.deliverDue();
    let page = await deliveriesOf(webhook._id);
    const failedOnce = page.data.filter((row: { state: string }) => row.state === 'pending');
    expect(failedOnce.length).toBeGreaterThan(0);
    for (const row of failedOnce) {
      expect(row).toMatchObject({ attempts: 1, lastStatus: 500, lastError: expect.stringContaining('HTTP 500') });
      expect(row.nextAttemptAt - t.clock.now()).toBeGreaterThan(backoffMs(1) - 2_000);
    }
    // Not due yet: nothing is sent before the back-off ends.
    const before = rx.calls.length;
    await t.app.webhooks.deliverDue();
    expect(rx.calls.length).toBe(before);

    for (let round = 1; round <= WEBHOOK_MAX_ATTEMPTS && page.data.some((row: { state: string }) => row.state !== 'delivered'); round++) {
      t.clock.advance(backoffMs(round));
      await t.app.webhooks.deliverDue();
      page = await deliveriesOf(webhook._id);
    }
    expect(page.data).toHaveLength(6);
    for (const row of page.data) expect(row).toMatchObject({ state: 'delivered', lastStatus: 200, deliveredAt: expect.any(Number) });
    expect(page.data.some((row: { attempts: number }) => row.attempts > 1)).toBe(true);
    // Each event reached the receiver successfully exactly once; later runs send nothing more.
    const okIds = rx.calls.filter((c) => c.status === 200).map((c) => JSON.parse(c.body).data.itemId);
    expect(okIds.sort()).toEqual(['item-0', 'item-1', 'item-2', 'item-3', 'item-4', 'item-5']);
    const sent = rx.calls.length;
    t.clock.advance(backoffMs(WEBHOOK_MAX_ATTEMPTS));
    await t.app.webhooks.deliverDue();
    expect(rx.calls.length).toBe(sent);
    await removeHook(webhook._id);
    await rx.close();
  });

  it('gives up after the last attempt: failed, with the attempts and the last error', async () => {
    const rx = await receiver(() => 503);
    const { webhook } = await createHook({ name: '总是失败', kind: 'json', url: `${rx.base}/down`, events: ['rule.fired'] });
    await enqueueEvent(t.database.db, 'rule.fired', { kind: 'issue' }, t.clock.now());
    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS + 2; attempt++) {
      await t.app.webhooks.deliverDue();
      t.clock.advance(backoffMs(attempt));
    }
    expect(rx.calls).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect((await deliveriesOf(webhook._id)).data[0]).toMatchObject({ state: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, lastStatus: 503 });
    await removeHook(webhook._id);
    await rx.close();
  });

  it('a receiver that does not answer in time is a failure named so', async () => {
    const rx = await receiver(() => 200, 500);
    const { webhook } = await createHook({ name: '太慢', kind: 'json', url: `${rx.base}/slow`, events: ['rule.fired'] });
    const slow = createWebhookService({
      db: t.database.db,
      audit: { record: async () => [] } as never,
      keys: async () => ({ seal: (s) => s, open: () => 'x' }),
      allowPrivate: true,
      retentionDays: 30,
      timeoutMs: 100,
      now: t.clock.now,
    });
    await enqueueEvent(t.database.db, 'rule.fired', { kind: 'issue' }, t.clock.now());
    await slow.deliverDue();
    expect((await deliveriesOf(webhook._id)).data[0]).toMatchObject({ state: 'pending', lastStatus: null, lastError: '超时（100 毫秒）' });
    await removeHook(webhook._id);
    await rx.close();
  });

  it('two claimers at once never send the same delivery twice', async () => {
    const rx = await receiver(() => 200, 5);
    // A hook without a secret: the second service stands for another process with the same keys, and opens none here.
    const { webhook } = await createHook({ name: '并发', kind: 'wecom', url: `${rx.base}/race?key=k`, events: ['item.waiting'] });
    for (let i = 0; i < 40; i++) await enqueueEvent(t.database.db, 'item.waiting', { kind: 'comment', itemId: `race-${i}` }, t.clock.now());
    const other = createWebhookService({
      db: t.database.db,
      audit: { record: async () => [] } as never,
      keys: async () => ({ seal: (s) => s, open: () => null }),
      allowPrivate: true,
      retentionDays: 30,
      now: t.clock.now,
    });
    const [a, b] = await Promise.all([t.app.webhooks.deliverDue(), other.deliverDue()]);
    expect(a + b).toBe(40);
    expect(rx.calls).toHaveLength(40);
    const page = await deliveriesOf(webhook._id);
    expect(page.count).toBe(40);
    expect(page.data.every((row: { attempts: number }) => row.attempts === 1)).toBe(true);
    await removeHook(webhook._id);
    await rx.close();
  });

  it('removes deliveries older than WEBHOOK_RETENTION_DAYS', async () => {
    const rx = await receiver();
    const { webhook } = await createHook({ name: '保留', kind: 'wecom', url: `${rx.base}/keep?key=k`, events: ['item.waiting'] });
    await enqueueEvent(t.database.db, 'item.waiting', { kind: 'comment' }, t.clock.now());
    await t.app.webhooks.deliverDue();
    // A service on a clock of its own: the test's clock (and its sessions) stay where they are.
    let later = 29 * 86_400_000;
    const purger = createWebhookService({
      db: t.database.db,
      audit: { record: async () => [] } as never,
      keys: async () => ({ seal: (s) => s, open: () => null }),
      allowPrivate: true,
      retentionDays: 30,
      now: () => t.clock.now() + later,
    });
    expect(await purger.purgeOld()).toBe(0);
    later = 31 * 86_400_000;
    expect(await purger.purgeOld()).toBe(1);
    expect((await deliveriesOf(webhook._id)).count).toBe(0);
    await removeHook(webhook._id);
    await rx.close();
  });
});

describe('the routes', () => {
  it('are for super admins; writes need a fresh proof; the secret is shown once and never again', async () => {
    const normal = await t.createAdmin('hook-normal', 2);
    expect((await call('GET', '/api/settings/webhooks', undefined, normal.token)).statusCode).toBe(403);
    expect(
      (
        await call(
          'POST',
          '/api/settings/webhooks',
          { name: 'x', kind: 'json', url: 'http://127.0.0.1:9/x', events: ['item.waiting'] },
          normal.token,
        )
      ).statusCode,
    ).toBe(403);

    const created = await createHook({ name: '一次', kind: 'json', url: 'http://127.0.0.1:9/x', events: ['item.waiting'] });
    const list = await call('GET', '/api/settings/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().data.find((hook: { _id: string }) => hook._id === created.webhook._id)).toMatchObject({
      hasSecret: true,
      kind: 'json',
    });
    const rotated = await call('POST', `/api/settings/webhooks/${created.webhook._id}/secret`);
    expect(rotated.json().data.secret).not.toBe(created.secret);
    const sealed = await t.database.db.select().from(webhooks).where(eq(webhooks.id, created.webhook._id));
    expect(sealed[0].secret).toMatch(/^v1\./);
    expect(JSON.stringify(sealed)).not.toContain(created.secret);

    // Past the proof window every change asks for a new proof.
    t.clock.advance(t.config.reauthWindowMs + 1_000);
    const stale = await call('PATCH', `/api/settings/webhooks/${created.webhook._id}`, { enabled: false });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().errorCode).toBe('REAUTH_REQUIRED');
    await t.prove(root, ROOT_PASSWORD);
    const patched = await call('PATCH', `/api/settings/webhooks/${created.webhook._id}`, { enabled: false, name: '改名' });
    expect(patched.json().data).toMatchObject({ enabled: false, name: '改名' });
    expect((await call('PATCH', `/api/settings/webhooks/${created.webhook._id}`, { secret: 'mine' })).statusCode).toBe(400);
    await removeHook(created.webhook._id);
    expect((await call('GET', `/api/settings/webhooks/${created.webhook._id}/deliveries`)).statusCode).toBe(404);
  });

  it('refuses addresses that are not http(s), and private ones unless allowed', async () => {
    await t.prove(root, ROOT_PASSWORD);
    expect(
      (
        await call('POST', '/api/settings/webhooks', { name: 'x', kind: 'json', url: 'ftp://example.com/x', events: ['item.waiting'] })
      ).json().msg,
    ).toBe('地址应为 http:// 或 https:// 开头的网址');
    expect(checkUrlForm('javascript:alert(1)')).toBe('地址应为 http:// 或 https:// 开头的网址');
    expect(checkUrlForm('http://user:pw@example.com/')).toBe('地址应为 http:// 或 https:// 开头的网址');
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '172.20.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1', 'fd00::1']) {
      expect(isPrivateAddress(address)).toBe(true);
    }
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    expect(await hostAllowed(new URL('http://169.254.169.254/latest'), false)).toBe(false);
    expect(await hostAllowed(new URL('http://localhost:8080/'), false)).toBe(false);
    expect(await hostAllowed(new URL('http://[::1]:8080/'), false)).toBe(false);
    expect(await hostAllowed(new URL('http://127.0.0.1:8080/'), true)).toBe(true);
  });

  it('checks the address the connection is made to, so a name re-pointed at a private one after the check is refused (DNS re-binding)', async () => {
    const rx = await receiver(() => 200);
    const port = new URL(rx.base).port;
    // A name server that answers the loopback receiver's address: the check before the send cannot
    // resolve `.example` (reserved, never in DNS) and lets it pass to be judged at connection time.
    const rebinding: LookupFunction = (_host, options, callback) =>
      options.all
        ? (callback as unknown as (error: null, all: Array<{ address: string; family: number }>) => void)(null, [
            { address: '127.0.0.1', family: 4 },
          ])
        : callback(null, '127.0.0.1', 4);
    const request = { url: `http://rebind.example:${port}/hook`, headers: { 'content-type': 'application/json' }, body: '{}' };
    const refused = await send('json', request, { timeoutMs: 2000, allowPrivate: false, resolve: rebinding });
    expect(refused).toMatchObject({ ok: false, status: null, error: WEBHOOK_MESSAGES.privateUrl });
    expect(rx.calls).toHaveLength(0);
    // The same resolver where private addresses are allowed (an intranet install): delivered.
    expect(await send('json', request, { timeoutMs: 2000, allowPrivate: true, resolve: rebinding })).toMatchObject({
      ok: true,
      status: 200,
    });
    expect(rx.calls).toHaveLength(1);
    // A public answer goes through the guard as it came.
    const publicAnswer: LookupFunction = (_host, _options, callback) =>
      (callback as unknown as (error: null, all: Array<{ address: string; family: number }>) => void)(null, [
        { address: '93.184.216.34', family: 4 },
      ]);
    const answered = await new Promise<unknown>((resolve) =>
      publicOnly(publicAnswer)('example.org', { all: true }, (error, all) => resolve(error ?? all)),
    );
    expect(answered).toEqual([{ address: '93.184.216.34', family: 4 }]);
    await rx.close();
  });

  it('发送测试 sends one test delivery now and answers it; the list shows the last delivery; the URL’s key is shortened', async () => {
    const rx = await receiver();
    const { webhook } = await createHook({
      name: '测试',
      kind: 'wecom',
      url: `${rx.base}/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4`,
      events: ['item.waiting'],
    });
    const tested = await call('POST', `/api/settings/webhooks/${webhook._id}/test`);
    expect(tested.statusCode).toBe(200);
    expect(tested.json().data).toMatchObject({
      event: 'webhook.test',
      state: 'delivered',
      attempts: 1,
      lastStatus: 200,
      lastDurationMs: expect.any(Number),
    });
    expect(JSON.parse(rx.calls[0].body).markdown.content).toContain('测试通知');
    const hook = (await call('GET', '/api/settings/webhooks')).json().data.find((row: { _id: string }) => row._id === webhook._id);
    expect(hook.lastDelivery).toMatchObject({ state: 'delivered', status: 200 });
    expect(hook.url).toBe(`${rx.base}/cgi-bin/webhook/send?key=693a…`);
    expect(maskUrl('https://open.feishu.cn/open-apis/bot/v2/hook/0123456789abcdef0123')).toBe(
      'https://open.feishu.cn/open-apis/bot/v2/hook/0123…',
    );
    await removeHook(webhook._id);
    await rx.close();
  });
});
