/**
 * Named counters of things worth watching (a PATCH without a version, a version conflict, a
 * refused action for want of a fresh proof): counted here, exported by the metrics endpoint.
 */
export const COUNTER_NAMES = [
  'unversionedPatches',
  'versionConflicts',
  'reauthRequired',
  'reauthProofs',
  'passwordChangeRequired',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];

const values = new Map<CounterName, number>(COUNTER_NAMES.map((name) => [name, 0]));

export const counters = {
  increment(name: CounterName, by = 1): void {
    values.set(name, (values.get(name) ?? 0) + by);
  },
  get(name: CounterName): number {
    return values.get(name) ?? 0;
  },
  /** Every counter and its value since the process started. */
  snapshot(): Record<CounterName, number> {
    return Object.fromEntries(values) as Record<CounterName, number>;
  },
};
