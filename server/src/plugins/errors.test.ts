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

  it('does not take an ordinary query error for an outage', () => {
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: Object.assign(new Error('syntax error'), { code: '42601' }) }))).toBe(
      false,
    );
  });
});
