/**
 * Named counters of things that happen deep inside the server (a lock time-out, a version
 * conflict), read by GET /metrics. Process-wide on purpose: the code that notices has no handle
 * on the app, and a scrape wants the process's total.
 */
const counts = new Map<string, number>();

export function increment(name: string, by = 1): void {
  counts.set(name, (counts.get(name) ?? 0) + by);
}

export function counterValue(name: string): number {
  return counts.get(name) ?? 0;
}

/** The counters the server names; each is exposed by /metrics even before it first moves. */
export const COUNTERS = {
  lockTimeouts: 'lock_timeouts',
  statementTimeouts: 'statement_timeouts',
  throttledSignIns: 'throttled_sign_ins',
  versionConflicts: 'version_conflicts',
  unversionedWrites: 'unversioned_writes',
} as const;
