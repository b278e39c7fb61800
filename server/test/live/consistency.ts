import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';

/**
 * The invariants the services keep in their transactions: a crash, a restart or a long run must
 * never leave one of them broken. Each check answers the offending rows (empty when it holds).
 */
const CHECKS: Array<[string, SQL]> = [
  [
    'issues.comment_number equals the number of its comments',
    sql`select i.id, i.comment_number, count(c.id)::int as actual
        from issues i left join comments c on c.issue_id = i.id
        group by i.id having i.comment_number <> count(c.id)`,
  ],
  [
    'books.comment_number equals the number of its comments',
    sql`select b.id, b.comment_number, count(c.id)::int as actual
        from books b left join comments c on c.book_id = b.id
        group by b.id having b.comment_number <> count(c.id)`,
  ],
  [
    'a comment is on exactly the parent its comment_type says',
    sql`select id, comment_type, issue_id, book_id from comments
        where not ((comment_type = 1 and issue_id is not null and book_id is null)
                or (comment_type = 2 and book_id is not null and issue_id is null))`,
  ],
  [
    'no comment without its user, issue or book',
    sql`select c.id from comments c
        left join users u on u.id = c.user_id
        left join issues i on i.id = c.issue_id
        left join books b on b.id = c.book_id
        where u.id is null or (c.issue_id is not null and i.id is null) or (c.book_id is not null and b.id is null)`,
  ],
  ['no issue without its user', sql`select i.id from issues i left join users u on u.id = i.user_id where u.id is null`],
  [
    "a comment's type is its parent's",
    sql`select c.id from comments c
        left join issues i on i.id = c.issue_id
        left join books b on b.id = c.book_id
        where c.type_id <> coalesce(i.type_id, b.type_id)`,
  ],
  ['no session without its admin', sql`select s.id from admin_sessions s left join admins a on a.id = s.admin_id where a.id is null`],
  ['uploads keep the size they were stored with', sql`select id from uploads where size <> octet_length(data)`],
  [
    'the list counts kept by triggers equal the rows of each list',
    sql`with actual as (
          select 'users' as list, enabled as flag, 0 as kind, '' as type_id, count(*)::int as n from users group by enabled
          union all select 'issues', issue_status, 0, type_id, count(*)::int from issues group by issue_status, type_id
          union all select 'comments', false, comment_type, type_id, count(*)::int from comments group by comment_type, type_id
          union all select 'books', false, 0, type_id, count(*)::int from books group by type_id
          union all select 'interviews', false, 0, type_id, count(*)::int from interviews group by type_id
        ), kept as (
          select list, flag, kind::int as kind, type_id::text as type_id, n::int as n from list_counts where n <> 0
        )
        select list, flag, kind, type_id, a.n as actual, k.n as kept
        from actual a full join kept k using (list, flag, kind, type_id)
        where a.n is distinct from k.n`,
  ],
  [
    'the list buckets kept by triggers equal the rows of each list per key, hour, day and 32 days',
    sql`with rows as (
          select 'users' as list, k.key, register_date as at from users, lateral (values (''), ('enabled=' || enabled::text)) k(key)
          union all select 'books', k.key, on_shelf_date from books, lateral (values (''), ('type_id=' || type_id)) k(key)
          union all select 'interviews', k.key, on_shelf_date from interviews, lateral (values (''), ('type_id=' || type_id)) k(key)
          union all select 'issues', k.key, issue_date from issues,
            lateral (values (''), ('issue_status=' || issue_status::text), ('type_id=' || type_id),
                            ('issue_status=' || issue_status::text || '&type_id=' || type_id)) k(key)
          union all select 'comments', k.key, comment_date from comments,
            lateral (values ('comment_type=' || comment_type::text), ('comment_type=' || comment_type::text || '&type_id=' || type_id)) k(key)
        ), actual as (
          select list, key, s.span, (floor(at / 3600000.0 / s.span) * s.span)::int as start, count(*)::int as n
          from rows, (values (1), (24), (768)) s(span) group by 1, 2, 3, 4
        ), kept as (
          select list, key, span::int as span, start, n::int as n from list_buckets where n <> 0
        )
        select list, key, span, start, a.n as actual, k.n as kept
        from actual a full join kept k using (list, key, span, start)
        where a.n is distinct from k.n`,
  ],
];

export async function consistencyProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  for (const [rule, query] of CHECKS) {
    const rows = await queryRows<Record<string, unknown>>(db, query);
    if (rows.length) problems.push(`${rule}: ${rows.length} rows break it, e.g. ${JSON.stringify(rows.slice(0, 3))}`);
  }
  return problems;
}

/** Row counts of the content tables, for reports. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*)::int from users) as users, (select count(*)::int from issues) as issues,
               (select count(*)::int from books) as books, (select count(*)::int from comments) as comments,
               (select count(*)::int from interviews) as interviews, (select count(*)::int from uploads) as uploads`,
  );
  return row;
}
