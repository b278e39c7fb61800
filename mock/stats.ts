/**
 * GET /api/stats for `npm run dev:mock`, following server/src/modules/stats: the home page's
 * totals, and new users, issues and comments per day for the last 30 days (today included),
 * oldest first, by local calendar date, every day present.
 */
import { defineMock } from '@umijs/max';
import { content } from './lib/content';
import { guarded } from './lib/input';
import { db, ok } from './lib/store';

const STATS_DAYS = 30;

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (day: Date) => `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;

/** Built from calendar dates, as on the server, so a 23- or 25-hour day is still one day. */
function lastDays(now: number) {
  const today = new Date(now);
  const starts = Array.from(
    { length: STATS_DAYS + 1 },
    (_, i) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - STATS_DAYS + 1 + i),
  );
  return starts.slice(0, STATS_DAYS).map((start, i) => ({
    date: localDate(start),
    from: start.getTime(),
    to: starts[i + 1].getTime(),
  }));
}

export default defineMock({
  'GET /api/stats': guarded('normal', (_req, res) => {
    const within = (from: number, to: number) => (at: number) => at >= from && at < to;
    const daily = lastDays(Date.now()).map(({ date, from, to }) => {
      const inDay = within(from, to);
      return {
        date,
        users: content.users.filter((u) => inDay(u.registerDate)).length,
        issues: content.issues.filter((i) => inDay(i.issueDate)).length,
        comments: content.comments.filter((c) => inDay(c.commentDate)).length,
      };
    });
    ok(res, {
      counts: {
        admins: db.admins.length,
        users: content.users.length,
        books: content.books.length,
        interviews: content.interviews.length,
        issuesWaiting: content.issues.filter((i) => !i.issueStatus).length,
        issuesApproved: content.issues.filter((i) => i.issueStatus).length,
        comments: content.comments.length,
        types: db.types.length,
      },
      daily,
    });
  }),
});
