import type { DailyCount, Stats } from '#contract/stats';
import type { StatsRepository } from './stats.repository';

export const STATS_DAYS = 30;

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (day: Date) => `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;

/**
 * The starts of the last `days` days (today included) in the server's time zone, and the end of
 * today: built from calendar dates, so a day that is 23 or 25 hours long is still one day.
 */
export function dayEdges(now: number, days: number): { dates: string[]; edges: number[] } {
  const today = new Date(now);
  const starts = Array.from(
    { length: days + 1 },
    (_, i) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - days + 1 + i),
  );
  return { dates: starts.slice(0, days).map(localDate), edges: starts.map((day) => day.getTime()) };
}

export type StatsService = ReturnType<typeof createStatsService>;

export function createStatsService(deps: { stats: StatsRepository; now?: () => number }) {
  const { stats } = deps;
  const now = deps.now ?? Date.now;

  return {
    async get(): Promise<Stats> {
      const { dates, edges } = dayEdges(now(), STATS_DAYS);
      const [counts, buckets] = await Promise.all([stats.counts(), stats.perDay(edges)]);
      const daily: DailyCount[] = dates.map((date) => ({ date, users: 0, issues: 0, comments: 0 }));
      for (const { series, bucket, n } of buckets) daily[bucket - 1][series] = n;
      return { counts, daily };
    },
  };
}
