import { api } from './api';

/** Totals shown on the home page. */
export interface StatsCounts {
  admins: number;
  users: number;
  books: number;
  interviews: number;
  /** Issues waiting for review. */
  issuesWaiting: number;
  issuesApproved: number;
  comments: number;
  types: number;
}

/** What was added on one calendar day (the server's time zone), dated `YYYY-MM-DD`. */
export interface DailyCount {
  date: string;
  users: number;
  issues: number;
  comments: number;
}

export interface Stats {
  counts: StatsCounts;
  /** The last 30 days, oldest first, every day present. */
  daily: DailyCount[];
}

export function getStats(): Promise<Stats> {
  return api<Stats>('/api/stats');
}
