import { sql } from 'drizzle-orm';
import type { StatsCounts } from '#contract/stats';
import { queryRows, type Db } from '../../db/client';
import { keptTotal } from '../../db/list-counts';

export type StatsRepository = ReturnType<typeof createStatsRepository>;

export type Series = 'users' | 'issues' | 'comments';

export interface BucketCount {
  series: Series;
  /** 1-based: the day that starts at `edges[bucket - 1]`. */
  bucket: number;
  n: number;
}

export function createStatsRepository(db: Db) {
  return {
    /**
     * Every count of the home page in one round trip: the content from the kept list counts
     * (migration 0002), admins and types from their small tables.
     */
    async counts(): Promise<StatsCounts> {
      const [row] = await queryRows<StatsCounts>(
        db,
        sql`
        select
          (select count(*)::int from admins) as "admins",
          ${keptTotal('users')} as "users",
          ${keptTotal('books')} as "books",
          ${keptTotal('interviews')} as "interviews",
          ${keptTotal('issues', { flag: false })} as "issuesWaiting",
          ${keptTotal('issues', { flag: true })} as "issuesApproved",
          ${keptTotal('comments')} as "comments",
          (select count(*)::int from types) as "types"`,
      );
      return {
        admins: Number(row.admins),
        users: Number(row.users),
        books: Number(row.books),
        interviews: Number(row.interviews),
        issuesWaiting: Number(row.issuesWaiting),
        issuesApproved: Number(row.issuesApproved),
        comments: Number(row.comments),
        types: Number(row.types),
      };
    },

    /**
     * New users, issues and comments per day. `edges` are the days' starts plus the end of the
     * last day, made by the caller in its own time zone; each range is read from a date index.
     */
    async perDay(edges: number[]): Promise<BucketCount[]> {
      const bounds = sql`${sql.param(edges)}::bigint[]`;
      const first = edges[0];
      const end = edges[edges.length - 1];
      const rows = await queryRows<BucketCount>(
        db,
        sql`
        select 'users' as "series", width_bucket(register_date, ${bounds}) as "bucket", count(*)::int as "n"
          from users where register_date >= ${first} and register_date < ${end} group by 2
        union all
        select 'issues', width_bucket(issue_date, ${bounds}), count(*)::int
          from issues where issue_date >= ${first} and issue_date < ${end} group by 2
        union all
        select 'comments', width_bucket(comment_date, ${bounds}), count(*)::int
          from comments where comment_type in (1, 2) and comment_date >= ${first} and comment_date < ${end} group by 2`,
      );
      return rows.map((row) => ({ series: row.series, bucket: Number(row.bucket), n: Number(row.n) }));
    },
  };
}
