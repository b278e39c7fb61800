import { sql } from 'drizzle-orm';
import { POINTS_REASONS, POINTS_RULES } from '#contract/site';
import { queryRows } from '../../db/client';
import type { Locked } from '../../db/write-lock';

/*
 * A comment held by a moderation rule is neither counted on its parent nor earns its author
 * points until 审核台 approves it (issue 25). These two move both, in the caller's transaction,
 * which holds the write locks of users, issues and books.
 */

type CreditLocks = Locked<'users' | 'issues' | 'books'>;

// What a comment has earned so far (`comment` names a row of comments in the statement): the net of its ledger rows (a comment posted held before issue
// 25 earned its points at posting, so its approval adds nothing).
const COMMENT_REASONS = sql.raw(`'${POINTS_REASONS.issueComment}', '${POINTS_REASONS.bookComment}', '${POINTS_REASONS.commentHeldAgain}'`);
export const earned = (comment: ReturnType<typeof sql.raw>) =>
  sql`coalesce((select sum(l.delta) from points_ledger l
    where l.user_id = ${comment}.user_id and l.ref_id = ${comment}.id and l.reason in (${COMMENT_REASONS})), 0)::int`;

/**
 * The comments `ids`, just approved (held → published): each parent's commentNumber up by its
 * comments, and each author's points by what each comment earns (+4 on an issue, +2 on a book,
 * less what it already earned), with a ledger row per comment; one statement per table.
 */
export async function creditApproved(tx: CreditLocks, ids: readonly string[], at: number): Promise<void> {
  if (!ids.length) return;
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  for (const [parent, column] of [
    ['issues', 'issue_id'],
    ['books', 'book_id'],
  ] as const) {
    await tx.execute(sql`update ${sql.identifier(parent)} p set comment_number = p.comment_number + n.n
      from (select ${sql.identifier(column)} as id, count(*)::int as n from comments
            where id in (${list}) and ${sql.identifier(column)} is not null group by 1) n
      where p.id = n.id`);
  }
  // Balances run in comment order when one author has several comments approved at once.
  await tx.execute(sql`with due as (
      select c.id, c.user_id,
        (case when c.issue_id is not null then ${POINTS_RULES.issueComment}::int else ${POINTS_RULES.bookComment}::int end) - ${earned(sql.raw('c'))} as delta,
        case when c.issue_id is not null then ${POINTS_REASONS.issueComment}::text else ${POINTS_REASONS.bookComment}::text end as reason
      from comments c where c.id in (${list})),
    owed as (select * from due where delta > 0),
    total as (select user_id, sum(delta)::int as delta from owed group by user_id),
    paid as (update users u set points = u.points + total.delta from total where u.id = total.user_id returning u.id, u.points)
    insert into points_ledger (user_id, delta, reason, ref_id, balance, at)
    select owed.user_id, owed.delta, owed.reason, owed.id,
      paid.points - coalesce(sum(owed.delta) over (partition by owed.user_id order by owed.id desc rows between unbounded preceding and 1 preceding), 0),
      ${at}::bigint
    from owed join paid on paid.id = owed.user_id
    order by owed.user_id, owed.id`);
}

/**
 * 撤销 of an approval: the comment `id` is held again, so its parent's commentNumber goes one down
 * and what it earned is taken back, down to a balance of 0 (no ledger row when nothing is taken).
 * Answers false when the comment was already held (nothing moves).
 */
export async function debitHeldAgain(tx: CreditLocks & Locked<'comments'>, id: string, at: number): Promise<boolean> {
  const [row] = await queryRows<{ user_id: string; issue_id: string | null; book_id: string | null }>(
    tx,
    sql`update comments set held = true where id = ${id} and not held returning user_id, issue_id, book_id`,
  );
  if (!row) return false;
  const [parent, parentId] = row.issue_id ? (['issues', row.issue_id] as const) : (['books', row.book_id] as const);
  await tx.execute(sql`update ${sql.identifier(parent)} set comment_number = comment_number - 1 where id = ${parentId}`);
  await tx.execute(sql`with owed as (
      select u.id, u.points as before, least(${earned(sql.raw('c'))}, u.points) as take
      from comments c join users u on u.id = c.user_id where c.id = ${id}),
    taken as (update users u set points = u.points - owed.take from owed where u.id = owed.id and owed.take > 0 returning u.id, u.points, owed.take)
    insert into points_ledger (user_id, delta, reason, ref_id, balance, at)
    select taken.id, -taken.take, ${POINTS_REASONS.commentHeldAgain}::text, ${id}::varchar, taken.points, ${at}::bigint from taken`);
  return true;
}
