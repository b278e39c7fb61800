import { isDatabaseUnavailable } from './errors';

describe('isDatabaseUnavailable', () => {
  it('sees a lost connection through drizzle wrapping the driver error', () => {
    const driver = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: driver }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      true,
    );
  });

  // Without the `watch` layer (DB_LAYERS=plain) pg's query_timeout gives up on a statement:
  // that was answered 500 instead of 503 (permissions.test.ts on a loaded machine).
  it("sees pg's own statement bound run out", () => {
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: new Error('Query read timeout') }))).toBe(true);
  });

  it('does not take an ordinary query error for an outage', () => {
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: Object.assign(new Error('syntax error'), { code: '42601' }) }))).toBe(
      false,
    );
  });
});
