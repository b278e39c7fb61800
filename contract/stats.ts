import { Type, type Static } from '@sinclair/typebox';

export const StatsCounts = Type.Object(
  {
    admins: Type.Integer(),
    users: Type.Integer(),
    books: Type.Integer(),
    interviews: Type.Integer(),
    issuesWaiting: Type.Integer({ description: '待审核的问答' }),
    issuesApproved: Type.Integer({ description: '已通过的问答' }),
    comments: Type.Integer(),
    types: Type.Integer(),
  },
  { title: 'StatsCounts' },
);
export type StatsCounts = Static<typeof StatsCounts>;

export const DailyCount = Type.Object(
  {
    date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: '服务器所在时区的日期 YYYY-MM-DD' }),
    users: Type.Integer({ description: '当天新注册的用户' }),
    issues: Type.Integer({ description: '当天新提的问答' }),
    comments: Type.Integer({ description: '当天新写的评论' }),
  },
  { title: 'DailyCount' },
);
export type DailyCount = Static<typeof DailyCount>;

export const Stats = Type.Object(
  {
    counts: StatsCounts,
    daily: Type.Array(DailyCount, { description: '最近 30 天，旧的在前，每天都有（没有则为 0）' }),
  },
  { title: 'Stats' },
);
export type Stats = Static<typeof Stats>;
