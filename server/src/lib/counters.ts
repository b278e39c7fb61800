/**
 * Named counters of things that happen deep inside the server (a lock time-out, a version
 * conflict, an action refused for want of a fresh proof), read by GET /metrics. Process-wide on
 * purpose: the code that notices has no handle on the app, and a scrape wants the process's total.
 */
export const COUNTERS = {
  lockTimeouts: 'lockTimeouts',
  statementTimeouts: 'statementTimeouts',
  throttledSignIns: 'throttledSignIns',
  versionConflicts: 'versionConflicts',
  /** A PATCH without a version: last write wins, as for old clients. */
  unversionedWrites: 'unversionedPatches',
  reauthRequired: 'reauthRequired',
  reauthProofs: 'reauthProofs',
  passwordChangeRequired: 'passwordChangeRequired',
} as const;
export type CounterName = (typeof COUNTERS)[keyof typeof COUNTERS];
export const COUNTER_NAMES = Object.values(COUNTERS) as CounterName[];

const values = new Map<CounterName, number>(COUNTER_NAMES.map((name) => [name, 0]));

export function increment(name: CounterName, by = 1): void {
  values.set(name, (values.get(name) ?? 0) + by);
}

export function counterValue(name: CounterName): number {
  return values.get(name) ?? 0;
}

export const counters = {
  increment,
  get: counterValue,
  /** Every counter and its value since the process started. */
  snapshot(): Record<CounterName, number> {
    return Object.fromEntries(values) as Record<CounterName, number>;
  },
};
