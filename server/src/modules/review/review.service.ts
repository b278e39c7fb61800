import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS, type AuditChange } from '#contract/audit';
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
  type ReviewReasonEntry,
} from '#contract/review';
import type { Db } from '../../db/client';
import { ENTITIES } from '../../db/entities';
import { keptTotal } from '../../db/list-counts';
import { auditLog, issues, reviewDecisions, reviewReasons } from '../../db/schema';
import { writeTransaction, type LockedTable } from '../../db/write-lock';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { plainTitle, sanitizeHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { diff, type Actor, type Audit } from '../audit/audit';
import type { IssueService } from '../issue/issue.service';
import type { TrashService } from '../trash/trash.service';
import { authorFiles } from './author-file';

/** One waiting item before its author's file is added. */
interface Waiting {
  kind: ReviewKind;
  id: string;
  title: string;
  content: string;
  postedAt: number;
  authorId: string;
  where: ReviewItem['where'];
  reasons: ReviewItem['reasons'];
}

export type ReviewService = ReturnType<typeof createReviewService>;

export function createReviewService(deps: {
  db: Db;
  audit: Audit;
  issues: Pick<IssueService, 'removeIn'>;
  trash: Pick<TrashService, 'restore'>;
  now?: () => number;
}) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;

  /** Questions awaiting approval (审核状态 待审核), oldest first: issues_status_date_idx read backwards. */
  async function waitingIssues(limit: number, offset: number): Promise<Waiting[]> {
    const rows = await db
      .select({ id: issues.id, title: issues.issueTitle, content: issues.issueContent, at: issues.issueDate, userId: issues.userId })
      .from(issues)
      .where(eq(issues.issueStatus, false))
      .orderBy(asc(issues.issueDate), asc(issues.id))
      .limit(limit)
      .offset(offset);
    return rows.map((row) => ({
      kind: 'issue' as const,
      id: row.id,
      title: row.title,
      content: row.content,
      postedAt: row.at,
      authorId: row.userId,
      where: { kind: 'issue' as const, id: row.id, title: row.title },
      reasons: [{ rule: AWAITING_APPROVAL_RULE, action: 'hold', words: [] }],
    }));
  }

  async function counts(): Promise<ReviewCounts> {
    const [row] = await db.select({ issue: keptTotal('issues', { flag: false }) }).from(sql`(select 1) as one`);
    const issue = Number(row.issue);
    return { total: issue, issue, comment: 0, user: 0 };
  }

  /** Who decided an item last and how, from the audit log (whatever screen it was decided on). */
  async function lastDecision(kind: ReviewKind, id: string): Promise<string> {
    const [row] = await db
      .select({ loginId: auditLog.adminLoginId, action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, kind), eq(auditLog.entityId, id)))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(1);
    return row ? `已被 ${row.loginId} ${row.action}` : REVIEW_MESSAGES.gone;
  }

  return {
    counts,

    async list(query: ReviewListQuery): Promise<Page<ReviewItem>> {
      const current = query.current ?? FIRST_PAGE;
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      const total = await counts();
      const issuesOnly = (!query.kind || query.kind === 'issue') && (!query.rule || query.rule === AWAITING_APPROVAL_RULE);
      const count = issuesOnly ? total.issue : 0;
      const waiting = issuesOnly ? await waitingIssues(pageSize, (current - 1) * pageSize) : [];
      const files = await authorFiles(
        db,
        waiting.map((w) => w.authorId),
        now(),
        null,
      );
      const data = waiting.flatMap((w) => {
        const author = files.get(w.authorId);
        if (!author) return [];
        const { authorId: _, ...item } = w;
        return [{ ...item, content: sanitizeHtml(w.content), author } satisfies ReviewItem];
      });
      return { currentPage: current, eachPage: pageSize, count, totalPage: Math.ceil(count / pageSize), data };
    },

    /** The author's file of one member; null when there is no such member. */
    async fileOf(userId: string): Promise<AuthorFile | null> {
      return (await authorFiles(db, [userId], now(), null)).get(userId) ?? null;
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
      const locks = new Set<LockedTable>();
      for (const item of items) {
        if (item.kind === 'issue') for (const t of ENTITIES.issue.bin.locks) locks.add(t);
      }
      const issueIds = items.filter((i) => i.kind === 'issue').map((i) => i.id);
      const unsupported = items.filter((i) => i.kind !== 'issue');
      const result = await writeTransaction(db, [...locks], async (tx): Promise<{ decided: ReviewItemRef[]; auditIds: number[] }> => {
        const rows = issueIds.length
          ? await tx.select().from(issues).where(inArray(issues.id, issueIds)).orderBy(issues.id).for('update')
          : [];
        const byId = new Map(rows.map((row) => [row.id, row]));
        const decided: ReviewItemRef[] = [
          ...unsupported,
          ...issueIds.filter((id) => byId.get(id)?.issueStatus !== false).map((id) => ({ kind: 'issue' as const, id })),
        ];
        if (decided.length) return { decided, auditIds: [] };
        const waiting = issueIds.map((id) => byId.get(id)!);
        const at = now();
        let auditIds: number[] = [];
        if (body.decision === 'approve') {
          await tx.update(issues).set({ issueStatus: true }).where(inArray(issues.id, issueIds));
          auditIds = await audit.record(
            tx,
            actor,
            waiting.map((row) => ({
              action: AUDIT_ACTIONS.approve,
              entity: 'issue' as const,
              entityId: row.id,
              title: row.issueTitle,
              changes: [...diff(row, { issueStatus: true }), ...(reason ? [{ field: 'reason', note: reason } satisfies AuditChange] : [])],
            })),
          );
        } else {
          auditIds = await deps.issues.removeIn(tx, actor, AUDIT_ACTIONS.reviewReject, waiting, reason);
        }
        if (waiting.length) {
          await tx.insert(reviewDecisions).values(
            waiting.map((row) => ({
              kind: 'issue',
              itemId: row.id,
              authorId: row.userId,
              decision: body.decision,
              reason,
              decidedBy: actor.id,
              decidedByLoginId: actor.loginId,
              decidedAt: at,
            })),
          );
        }
        return { decided: [], auditIds };
      });
      if (result.decided.length) {
        const named = await Promise.all(
          result.decided.map(async (item) => {
            const row = await db.select({ title: issues.issueTitle }).from(issues).where(eq(issues.id, item.id));
            const label = row[0] ? `「${plainTitle(row[0].title)}」` : item.id;
            return `${REVIEW_KIND_LABELS[item.kind]}${label}${await lastDecision(item.kind, item.id)}`;
          }),
        );
        throw conflict(`${REVIEW_MESSAGES.alreadyDecided}${named.join('；')}`);
      }
      return { done: items.length, auditIds: result.auditIds.map(String) };
    },

    /** 撤销此修改 on a 审核拒绝 entry: its bin entry comes back, and the item waits again. */
    async revertReject(actor: Actor, entry: { entity: string; entityId: string; changes: AuditChange[] }): Promise<void> {
      const trashId = String(entry.changes.find((c) => c.field === 'trash')?.after ?? '');
      await deps.trash.restore(trashId, actor);
      await db
        .update(reviewDecisions)
        .set({ revertedAt: now() })
        .where(
          and(
            eq(reviewDecisions.kind, entry.entity),
            eq(reviewDecisions.itemId, entry.entityId),
            sql`${reviewDecisions.revertedAt} is null`,
          ),
        );
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
