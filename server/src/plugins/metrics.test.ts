import { bearer, createTestContext, type TestContext } from '../../test/harness';

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics', () => {
  let off: TestContext;
  let withToken: TestContext;
  let loopback: TestContext;
  beforeAll(async () => {
    off = await createTestContext();
    withToken = await createTestContext({ METRICS_TOKEN: TOKEN });
    loopback = await createTestContext({ METRICS: 'loopback' });
  }, 120_000);
  afterAll(async () => {
    await off?.close();
    await withToken?.close();
    await loopback?.close();
  });

  it('is off by default: 404 to anyone, loopback included', async () => {
    const response = await off.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_request_duration_seconds');
  });

  it('with METRICS_TOKEN: the bearer token only, even from loopback', async () => {
    expect((await withToken.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    expect((await withToken.inject({ method: 'GET', url: '/metrics', headers: bearer(`${TOKEN}x`) })).statusCode).toBe(404);
    const root = await withToken.rootToken();
    await withToken.inject({ method: 'GET', url: '/api/user', headers: bearer(root) });
    await withToken.inject({ method: 'GET', url: '/api/user' });
    const response = await withToken.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN), remoteAddress: '203.0.113.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    // Requests by route pattern and status, with a latency histogram.
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/user",status="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/user",status="401"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/user",status="200"\}/);
    for (const name of [
      'db_pool_waiting_requests',
      'db_lock_waits',
      'db_lock_timeouts_total',
      'db_statement_timeouts_total',
      'sign_in_throttled_total',
      'sessions_in_memory',
      'public_answers_in_memory',
      'version_conflicts_total',
      'unversioned_writes_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect({ name, present: new RegExp(`^${name} `, 'm').test(text) }).toEqual({ name, present: true });
    }
    // On PostgreSQL, the pool and the change feed.
    if (withToken.database.kind === 'postgres') {
      expect(text).toMatch(/^db_pool_connections\{state="open"\} \d+/m);
      expect(text).toMatch(/^change_feed_live [01]$/m);
    }
  });

  it('with METRICS=loopback: a direct caller on 127.0.0.1 or ::1, not a stranger nor one through a proxy', async () => {
    expect((await loopback.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await loopback.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    expect((await loopback.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.1' })).statusCode).toBe(404);
    const proxied = await loopback.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('GET /livez and /readyz', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  }, 120_000);
  afterAll(() => t?.close());

  it('both 200 while serving; /readyz 503 once a stop begins, /livez still 200; /healthz as before', async () => {
    expect((await t.inject({ method: 'GET', url: '/livez' })).json()).toEqual({ status: 'ok' });
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok' }]);
    expect((await t.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    t.app.unready();
    expect((await t.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    // Calls are still served until the drain.
    expect((await t.inject({ method: 'GET', url: '/api/user', headers: bearer(await t.rootToken()) })).statusCode).toBe(200);
    await t.app.drain(100);
    expect((await t.inject({ method: 'GET', url: '/api/user', headers: bearer(await t.rootToken()) })).statusCode).toBe(503);
    expect((await t.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
  });
});
