import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS, AUDIT_MESSAGES, type AuditChange } from '#contract/audit';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '#contract/paging';
import {
  AWAITING_APPROVAL_RULE,
  REVIEW_KIND_LABELS,
  REVIEW_MESSAGES,
  type AuthorFile,
  type ReviewCounts,
  type ReviewDecisionBody,
  type ReviewDecisionResult,
  type ReviewItem,
  type ReviewItemRef,
  type ReviewKind,
  type ReviewListQuery,
  type ReviewReason,
  type ReviewDecision,
  type ReviewReasonEntry,
} from '#contract/review';
import { queryRows, type Db } from '../../db/client';
import { ENTITIES } from '../../db/entities';
import { keptTotal } from '../../db/list-counts';
import { auditLog, books, comments, issues, moderationFlags, openFlagCounts, reviewDecisions, reviewReasons, users } from '../../db/schema';
import { writeTransaction, type LockedTable } from '../../db/write-lock';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { plainTitle, sanitizeHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { diff, type Actor, type Audit } from '../audit/audit';
import type { CommentService } from '../comment/comment.service';
import type { IssueService } from '../issue/issue.service';
import type { UserService } from '../user/user.service';
import type { TrashService } from '../trash/trash.service';
import { creditApproved, debitHeldAgain } from '../site/comment-credit';
import { authorFiles } from './author-file';
import { pageOf } from '../../lib/paging';

/** One waiting item before its author's file is added. */
interface Waiting {
  kind: ReviewKind;
  id: string;
  title: string;
  content: string;
  postedAt: number;
  authorId: string;
  where: ReviewItem['where'];
  reasons: ReviewReason[];
}

type FlagRow = typeof moderationFlags.$inferSelect;
type IssueRow = typeof issues.$inferSelect;
type CommentRow = typeof comments.$inferSelect;
type UserRow = typeof users.$inferSelect;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The rules named by a flag's reasons, for its audit note. */
const ruleNames = (reasons: unknown) => (Array.isArray(reasons) ? reasons.map((r: ReviewReason) => r.rule).join('、') : '');

const AWAITING: ReviewReason = { rule: AWAITING_APPROVAL_RULE, action: 'hold', words: [] };

/** The write locks a decision on each kind of item takes: its delete's (a rejection goes to the bin). */
const KIND_LOCKS: Record<ReviewKind, readonly LockedTable[]> = {
  issue: ENTITIES.issue.bin.locks,
  comment: ENTITIES.comment.bin.locks,
  user: ENTITIES.user.bin.locks,
};

/**
 * The oldest `limit` questions awaiting approval that no open flag names, for the queue. Their
 * index (issues_status_date_idx) is built `desc nulls last` (db/list.ts newestFirst); read backwards
 * it is `asc nulls first`, and only an ORDER BY that says so about nulls walks it and stops at
 * `limit` instead of sorting every question that waits (43 ms → 0.2 ms at 60,000 waiting).
 */
export function awaitingApproval(limit: number) {
  return sql`select 'issue'::varchar as kind, i.id, i.issue_date as at, null::jsonb as reasons
      from issues i
      where i.issue_status = false
        and not exists (select 1 from moderation_flags f where f.kind = 'issue' and f.item_id = i.id and f.state = 'open')
      order by i.issue_date asc nulls first, i.id asc nulls first limit ${limit}`;
}

export type ReviewService = ReturnType<typeof createReviewService>;

export function createReviewService(deps: {
  db: Db;
  audit: Audit;
  issues: Pick<IssueService, 'removeIn'>;
  comments: Pick<CommentService, 'removeIn'>;
  users: Pick<UserService, 'removeIn'>;
  trash: Pick<TrashService, 'restore'>;
  now?: () => number;
}) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;

  /**
   * One page of what waits, oldest first: the open flags (moderation_flags_state_created_at_idx)
   * merged with the questions awaiting approval that no flag names (issues_status_date_idx read
   * backwards); a flag whose item is gone is left out.
   */
  async function waitingPage(query: ReviewListQuery, limit: number, offset: number) {
    const kind = query.kind || null;
    const rule = query.rule || null;
    // Each side walks its own index in order and stops at the page's end; the two are then merged.
    // A sort over the union would read every waiting row (100,000) for each page.
    const end = limit + offset;
    const flags = sql`(select f.kind, f.item_id as id, f.created_at as at, f.reasons
      from moderation_flags f
      where f.state = 'open'
        ${kind ? sql`and f.kind = ${kind}` : sql``}
        ${rule ? sql`and f.reasons @> ${JSON.stringify([{ rule }])}::jsonb` : sql``}
        and case f.kind when 'issue' then exists (select 1 from issues x where x.id = f.item_id)
          when 'comment' then exists (select 1 from comments x where x.id = f.item_id)
          else exists (select 1 from users x where x.id = f.item_id) end
      order by f.created_at, f.id limit ${end})`;
    const awaiting = sql`(${awaitingApproval(end)})`;
    const withAwaiting = (!kind || kind === 'issue') && (!rule || rule === AWAITING_APPROVAL_RULE);
    const onlyAwaiting = rule === AWAITING_APPROVAL_RULE;
    const parts = [...(onlyAwaiting ? [] : [flags]), ...(withAwaiting ? [awaiting] : [])];
    return queryRows<{ kind: ReviewKind; id: string; at: number; reasons: ReviewReason[] | null }>(
      db,
      sql`select kind, id, at, reasons from (${sql.join(parts, sql` union all `)}) q order by at, id limit ${limit} offset ${offset}`,
    );
  }

  /** The items of a page with what to show of them: one query per kind. */
  async function details(page: Array<{ kind: ReviewKind; id: string; reasons: ReviewReason[] | null }>): Promise<Waiting[]> {
    const ids = (kind: ReviewKind) => page.filter((row) => row.kind === kind).map((row) => row.id);
    const [issueRows, commentRows, userRows] = await Promise.all([
      ids('issue').length
        ? db
            .select()
            .from(issues)
            .where(inArray(issues.id, ids('issue')))
        : [],
      ids('comment').length
        ? db
            .select({
              id: comments.id,
              content: comments.commentContent,
              at: comments.commentDate,
              userId: comments.userId,
              issueId: comments.issueId,
              bookId: comments.bookId,
              issueTitle: issues.issueTitle,
              bookTitle: books.bookTitle,
            })
            .from(comments)
            .leftJoin(issues, eq(issues.id, comments.issueId))
            .leftJoin(books, eq(books.id, comments.bookId))
            .where(inArray(comments.id, ids('comment')))
        : [],
      ids('user').length
        ? db
            .select()
            .from(users)
            .where(inArray(users.id, ids('user')))
        : [],
    ]);
    const issueById = new Map(issueRows.map((row) => [row.id, row]));
    const commentById = new Map(commentRows.map((row) => [row.id, row]));
    const userById = new Map(userRows.map((row) => [row.id, row]));
    return page.flatMap((row): Waiting[] => {
      const reasons = row.reasons ?? [AWAITING];
      if (row.kind === 'issue') {
        const issue = issueById.get(row.id);
        if (!issue) return [];
        const title = issue.issueTitle;
        return [
          {
            kind: 'issue',
            id: issue.id,
            title,
            content: issue.issueContent,
            postedAt: issue.issueDate,
            authorId: issue.userId,
            where: { kind: 'issue', id: issue.id, title },
            reasons,
          },
        ];
      }
      if (row.kind === 'comment') {
        const comment = commentById.get(row.id);
        if (!comment) return [];
        const where: ReviewItem['where'] = comment.issueId
          ? { kind: 'issue', id: comment.issueId, title: comment.issueTitle ?? '' }
          : { kind: 'book', id: comment.bookId, title: comment.bookTitle ?? '' };
        return [
          {
            kind: 'comment',
            id: comment.id,
            title: '',
            content: comment.content,
            postedAt: comment.at,
            authorId: comment.userId,
            where,
            reasons,
          },
        ];
      }
      const user = userById.get(row.id);
      if (!user) return [];
      return [
        {
          kind: 'user',
          id: user.id,
          title: user.nickname,
          content: `<p>${escapeHtml(user.nickname)}</p><p>${escapeHtml(user.intro)}</p>`,
          postedAt: user.registerDate,
          authorId: user.id,
          where: { kind: 'user', id: user.id, title: user.loginId },
          reasons,
        },
      ];
    });
  }

  /**
   * How many flags of `kind` are open, from the counts migration 0021's triggers keep: one row read
   * instead of an index range as long as the queue (50,000 held comments cost ~20 ms to count).
   */
  const openFlags = (kind: ReviewKind) =>
    sql`(select coalesce(sum(${openFlagCounts.n}), 0)::int from ${openFlagCounts} where ${openFlagCounts.kind} = ${kind})`;

  /**
   * The queue's counts by kind. A question is waiting when it awaits approval or has an open flag;
   * the ones with both are counted once, through the join of the open question flags with their
   * questions: an index range as long as the open question flags, not as the queue.
   */
  async function countParts(): Promise<ReviewCounts & { awaitingOnly: number }> {
    const [row] = await queryRows<{ awaiting: number; overlap: number; issue: number; comment: number; user: number }>(
      db,
      sql`select ${keptTotal('issues', { flag: false })} as awaiting,
        (select count(*) from moderation_flags f join issues i on i.id = f.item_id
          where f.state = 'open' and f.kind = 'issue' and i.issue_status = false)::int as overlap,
        ${openFlags('issue')} as issue, ${openFlags('comment')} as comment, ${openFlags('user')} as user`,
    );
    const issue = Number(row.issue) + Number(row.awaiting) - Number(row.overlap);
    const comment = Number(row.comment);
    const user = Number(row.user);
    return { total: issue + comment + user, issue, comment, user, awaitingOnly: Number(row.awaiting) - Number(row.overlap) };
  }

  async function counts(): Promise<ReviewCounts> {
    const { awaitingOnly: _, ...byKind } = await countParts();
    return byKind;
  }

  /** Who decided an item last and how, from the audit log (whatever screen it was decided on). */
  async function lastDecision(kind: ReviewKind, id: string): Promise<string> {
    const [row] = await db
      .select({ loginId: auditLog.adminLoginId, action: auditLog.action, title: auditLog.title })
      .from(auditLog)
      .where(and(eq(auditLog.entity, kind), eq(auditLog.entityId, id)))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(1);
    const label = row ? `「${row.title}」` : id;
    return `${REVIEW_KIND_LABELS[kind]}${label}${row ? `已被 ${row.loginId} ${row.action}` : REVIEW_MESSAGES.gone}`;
  }

  /** Closes the open flags of `items` as decided, in `tx`; answers them by `kind:id`. */
  async function closeFlags(tx: Db, actor: Actor, flags: FlagRow[], decision: ReviewDecision, reason: string) {
    if (!flags.length) return;
    await tx
      .update(moderationFlags)
      .set({ state: decision === 'approve' ? 'approved' : 'rejected', decidedBy: actor.id, decidedAt: now(), reason })
      .where(
        inArray(
          moderationFlags.id,
          flags.map((flag) => flag.id),
        ),
      );
  }

  /** The open flag an audit entry of a decision closed, opened again (撤销). */
  async function reopenFlag(tx: Db, changes: AuditChange[]) {
    const flagId = changes.find((c) => c.field === 'flag')?.after;
    if (typeof flagId !== 'number') return;
    await tx
      .update(moderationFlags)
      .set({ state: 'open', decidedBy: null, decidedAt: null, reason: null })
      .where(eq(moderationFlags.id, flagId));
  }

  const flagChange = (flag: FlagRow | undefined): AuditChange[] =>
    flag ? [{ field: 'flag', after: flag.id, note: flag.reasons ? ruleNames(flag.reasons) : '' }] : [];

  return {
    counts,

    async list(query: ReviewListQuery): Promise<Page<ReviewItem>> {
      const current = query.current ?? FIRST_PAGE;
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      const [total, page] = await Promise.all([countParts(), waitingPage(query, pageSize, (current - 1) * pageSize)]);
      const count =
        query.rule && query.rule !== AWAITING_APPROVAL_RULE
          ? Number(
              (
                await queryRows<{ n: number }>(
                  db,
                  sql`select count(*)::int as n from moderation_flags where state = 'open' and reasons @> ${JSON.stringify([{ rule: query.rule }])}::jsonb ${query.kind ? sql`and kind = ${query.kind}` : sql``}`,
                )
              )[0].n,
            )
          : query.kind
            ? total[query.kind]
            : query.rule === AWAITING_APPROVAL_RULE
              ? total.awaitingOnly
              : total.total;
      const waiting = await details(page);
      const files = await authorFiles(
        db,
        waiting.map((w) => w.authorId),
        now(),
      );
      const data = waiting.flatMap((w) => {
        const author = files.get(w.authorId);
        if (!author) return [];
        const { authorId: _, ...item } = w;
        return [{ ...item, content: sanitizeHtml(w.content), author } satisfies ReviewItem];
      });
      return pageOf(data, count, { current, pageSize });
    },

    /** The author's file of one member; null when there is no such member. */
    async fileOf(userId: string): Promise<AuthorFile | null> {
      return (await authorFiles(db, [userId], now())).get(userId) ?? null;
    },

    /**
     * 通过 or 拒绝 several items at once, all or nothing, under the write locks of every table the
     * decision writes (LOCK_ORDER) and the items' row locks; an item no longer waiting (someone
     * decided it, or it is gone) makes the whole call a 409 naming each such item, who and how.
     */
    async decide(actor: Actor, body: ReviewDecisionBody): Promise<ReviewDecisionResult> {
      const seen = new Set<string>();
      const items = body.items.filter((item) => !seen.has(`${item.kind}:${item.id}`) && seen.add(`${item.kind}:${item.id}`));
      const reason = (body.reason ?? '').trim();
      const ids = (kind: ReviewKind) => items.filter((i) => i.kind === kind).map((i) => i.id);
      // Rejecting a member deletes them with what they wrote: a super admin's decision, as on 用户.
      if (body.decision === 'reject' && ids('user').length && actor.permission !== 1) throw forbidden();
      // Approving a held comment pays its author: the users' lock too.
      const locks = [
        ...new Set([...items.flatMap((item) => KIND_LOCKS[item.kind]), ...(ids('comment').length ? (['users'] as const) : [])]),
      ];
      const result = await writeTransaction(db, locks, async (tx): Promise<{ decided: ReviewItemRef[]; auditIds: number[] }> => {
        const lock = async <T extends { id: string }>(table: typeof issues | typeof comments | typeof users, list: string[]) =>
          list.length
            ? ((await tx.select().from(table).where(inArray(table.id, list)).orderBy(table.id).for('update')) as unknown as T[])
            : [];
        const issueRows = new Map((await lock<IssueRow>(issues, ids('issue'))).map((r) => [r.id, r]));
        const commentRows = new Map((await lock<CommentRow>(comments, ids('comment'))).map((r) => [r.id, r]));
        const userRows = new Map((await lock<UserRow>(users, ids('user'))).map((r) => [r.id, r]));
        const flagList = await tx
          .select()
          .from(moderationFlags)
          .where(
            and(
              eq(moderationFlags.state, 'open'),
              inArray(
                moderationFlags.itemId,
                items.map((i) => i.id),
              ),
            ),
          )
          .orderBy(moderationFlags.id)
          .for('update');
        const flagOf = new Map(flagList.filter((f) => seen.has(`${f.kind}:${f.itemId}`)).map((f) => [`${f.kind}:${f.itemId}`, f]));
        const waitingNow = (item: ReviewItemRef) => {
          const flag = flagOf.has(`${item.kind}:${item.id}`);
          if (item.kind === 'issue') return issueRows.has(item.id) && (flag || issueRows.get(item.id)!.issueStatus === false);
          if (item.kind === 'comment') return commentRows.has(item.id) && flag;
          return userRows.has(item.id) && flag;
        };
        const decided = items.filter((item) => !waitingNow(item));
        if (decided.length) return { decided, auditIds: [] };
        const flags = [...flagOf.values()];
        await closeFlags(tx, actor, flags, body.decision, reason);
        const auditIds: number[] = [];
        const issueList = ids('issue').map((id) => issueRows.get(id)!);
        const commentList = ids('comment').map((id) => commentRows.get(id)!);
        const userList = ids('user').map((id) => userRows.get(id)!);
        const note = reason ? [{ field: 'reason', note: reason } satisfies AuditChange] : [];
        if (body.decision === 'approve') {
          const toLive = issueList.filter((row) => !row.issueStatus).map((row) => row.id);
          if (toLive.length) await tx.update(issues).set({ issueStatus: true }).where(inArray(issues.id, toLive));
          const unheld = commentList.filter((row) => row.held).map((row) => row.id);
          if (unheld.length) await tx.update(comments).set({ held: false }).where(inArray(comments.id, unheld));
          await creditApproved(tx, unheld, now());
          auditIds.push(
            ...(await audit.record(tx, actor, [
              ...issueList.map((row) => ({
                action: AUDIT_ACTIONS.approve,
                entity: 'issue' as const,
                entityId: row.id,
                title: row.issueTitle,
                changes: [...diff(row, { issueStatus: true }), ...flagChange(flagOf.get(`issue:${row.id}`)), ...note],
              })),
              ...commentList.map((row) => ({
                action: AUDIT_ACTIONS.approve,
                entity: 'comment' as const,
                entityId: row.id,
                title: plainTitle(row.commentContent),
                changes: [...diff(row, { held: false }), ...flagChange(flagOf.get(`comment:${row.id}`)), ...note],
              })),
              ...userList.map((row) => ({
                action: AUDIT_ACTIONS.approve,
                entity: 'user' as const,
                entityId: row.id,
                title: row.loginId,
                changes: [...flagChange(flagOf.get(`user:${row.id}`)), ...note],
              })),
            ])),
          );
        } else {
          if (issueList.length)
            auditIds.push(...(await deps.issues.removeIn(tx as never, actor, AUDIT_ACTIONS.reviewReject, issueList, reason)));
          if (commentList.length)
            auditIds.push(...(await deps.comments.removeIn(tx as never, actor, AUDIT_ACTIONS.reviewReject, commentList, reason)));
          if (userList.length)
            auditIds.push(...(await deps.users.removeIn(tx as never, actor, AUDIT_ACTIONS.reviewReject, userList, reason)));
        }
        const at = now();
        const authorOf = (item: ReviewItemRef) =>
          item.kind === 'issue' ? issueRows.get(item.id)!.userId : item.kind === 'comment' ? commentRows.get(item.id)!.userId : item.id;
        await tx.insert(reviewDecisions).values(
          items.map((item) => ({
            kind: item.kind,
            itemId: item.id,
            authorId: authorOf(item),
            decision: body.decision,
            reason,
            decidedBy: actor.id,
            decidedByLoginId: actor.loginId,
            decidedAt: at,
          })),
        );
        return { decided: [], auditIds };
      });
      if (result.decided.length) {
        const named = await Promise.all(result.decided.map((item) => lastDecision(item.kind, item.id)));
        throw conflict(`${REVIEW_MESSAGES.alreadyDecided}${named.join('；')}`);
      }
      return { done: items.length, auditIds: result.auditIds.map(String) };
    },

    /** 撤销此修改 on a 审核拒绝 entry: its bin entry comes back, its flag opens again, and the item waits again. */
    async revertReject(actor: Actor, entry: { entity: string; entityId: string; changes: AuditChange[] }): Promise<void> {
      const trashId = String(entry.changes.find((c) => c.field === 'trash')?.after ?? '');
      await deps.trash.restore(trashId, actor);
      await db.transaction(async (tx) => {
        const [flag] = await tx
          .select({ id: moderationFlags.id })
          .from(moderationFlags)
          .where(
            and(eq(moderationFlags.kind, entry.entity), eq(moderationFlags.itemId, entry.entityId), eq(moderationFlags.state, 'rejected')),
          )
          .orderBy(desc(moderationFlags.id))
          .limit(1);
        if (flag) await reopenFlag(tx, [{ field: 'flag', after: flag.id }]);
        await tx
          .update(reviewDecisions)
          .set({ revertedAt: now() })
          .where(
            and(eq(reviewDecisions.kind, entry.entity), eq(reviewDecisions.itemId, entry.entityId), isNull(reviewDecisions.revertedAt)),
          );
      });
    },

    /**
     * 撤销此修改 on a queue's 审核通过 of a comment or a member: held again (a comment that was,
     * uncounted and its points taken back), and its flag open again; refused when the item is gone.
     */
    async revertApprove(actor: Actor, entry: { entity: string; entityId: string; changes: AuditChange[] }): Promise<void> {
      const kind = entry.entity as ReviewKind;
      await writeTransaction(db, [...KIND_LOCKS[kind], 'users'], async (tx) => {
        const table = kind === 'comment' ? comments : users;
        const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.id, entry.entityId)).for('update');
        if (!row) throw conflict(AUDIT_MESSAGES.gone);
        const held = entry.changes.find((c) => c.field === 'held');
        // Held again: uncounted on its parent, and what it earned taken back.
        if (kind === 'comment' && held) await debitHeldAgain(tx, entry.entityId, now());
        await reopenFlag(tx, entry.changes);
        const [named] = await queryRows<{ title: string }>(
          tx,
          sql`select ${kind === 'comment' ? sql`left(comment_content, 120)` : sql`login_id`} as title from ${table} where id = ${entry.entityId}`,
        );
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.revert,
          entity: kind,
          entityId: entry.entityId,
          title: kind === 'comment' ? plainTitle(named?.title ?? '') : (named?.title ?? ''),
          changes: held ? [{ field: 'held', before: false, after: true }] : null,
        });
      });
    },

    async reasons(): Promise<ReviewReasonEntry[]> {
      const rows = await db.select().from(reviewReasons).orderBy(asc(reviewReasons.createdAt), asc(reviewReasons.id));
      return rows.map((row) => ({ _id: row.id, text: row.text, createdAt: row.createdAt }));
    },

    async addReason(actor: Actor, text: string): Promise<ReviewReasonEntry> {
      const at = now();
      const row = { id: newId(at), text: text.trim(), createdAt: at };
      try {
        await db.transaction(async (tx) => {
          await tx.insert(reviewReasons).values(row);
          await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'reviewReason', entityId: row.id, title: row.text });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(REVIEW_MESSAGES.reasonTaken);
        throw error;
      }
      return { _id: row.id, text: row.text, createdAt: row.createdAt };
    },

    async removeReason(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [gone] = await tx.delete(reviewReasons).where(eq(reviewReasons.id, id)).returning({ text: reviewReasons.text });
        if (!gone) throw notFound(REVIEW_MESSAGES.reasonNotFound);
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.delete, entity: 'reviewReason', entityId: id, title: gone.text });
      });
    },
  };
}
