import { ISSUE_MESSAGES } from '#contract/issue';
import type { CreateIssueBody, Issue, IssueListQuery, UpdateIssueBody } from '#contract/issue';
import type { Page } from '#contract/paging';
import { TYPE_MESSAGES } from '#contract/type';
import { USER_MESSAGES } from '#contract/user';
import { AUDIT_ACTIONS, type AuditAction, type BatchResult, type IssueBatchAction } from '#contract/audit';
import type { Db } from '../../db/client';
import { issues as issuesTable } from '../../db/schema';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { ENTITIES, type BinLocks } from '../../db/entities';
import { booleanFilter } from '../../lib/filters';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { recordHold, screenAdminWrite } from '../moderation/moderation';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard, removalEntries } from '../audit/audit';
import { lockRow, lockRows, uniqueIds } from '../../db/rows';
import type { CommentRepository } from '../comment/comment.repository';
import type { TrashBin } from '../trash/trash.service';
import type { TypeRepository } from '../type/type.repository';
import type { UserRepository } from '../user/user.repository';
import type { IssueRepository, IssueWithUser } from './issue.repository';

export function toIssue(row: IssueWithUser): Issue {
  const { user } = row;
  return {
    _id: row.id,
    issueTitle: row.issueTitle,
    issueContent: row.issueContent,
    scanNumber: row.scanNumber,
    commentNumber: row.commentNumber,
    issueStatus: row.issueStatus,
    issueDate: row.issueDate,
    userId: row.userId,
    typeId: row.typeId,
    version: row.version,
    user: { _id: user.id, nickname: user.nickname, avatar: user.avatar },
  };
}

export type IssueService = ReturnType<typeof createIssueService>;

export function createIssueService(deps: {
  db: Db;
  issues: IssueRepository;
  comments: CommentRepository;
  users: UserRepository;
  types: TypeRepository;
  bin: TrashBin;
  audit: Audit;
  now?: () => number;
}) {
  const { db, issues, comments, users, types, bin, audit } = deps;
  const now = deps.now ?? Date.now;

  async function get(id: string): Promise<Issue> {
    const row = await issues.findById(id);
    if (!row) throw notFound(ISSUE_MESSAGES.notFound);
    return toIssue(row);
  }

  /**
   * The one delete path of issues (DELETE and the bulk delete): each issue, locked by the caller,
   * goes with its comments to the recycle bin (one bin entry per issue) and gets its audit entry
   * (one insert for all), inside the caller's transaction.
   */
  async function removeIn(
    tx: Locked<BinLocks<'issue'>>,
    actor: Actor,
    action: AuditAction,
    rows: ReadonlyArray<{ id: string; issueTitle: string }>,
    reason?: string,
  ): Promise<number[]> {
    const binned: string[] = [];
    for (const { id } of rows) {
      const trashId = await bin.capture(tx, 'issue', id, actor);
      if (!trashId) throw notFound(ISSUE_MESSAGES.notFound);
      binned.push(trashId);
      await comments.deleteUnder(1, id, tx);
      await issues.delete(id, tx);
    }
    const records = rows.map((row) => ({ id: row.id, title: row.issueTitle }));
    return audit.record(tx, actor, removalEntries('issue', action, records, binned, reason));
  }

  /** Only the status changed: the log says 审核通过 or 取消审核 rather than 修改. */
  function updateAction(changes: Record<string, unknown>) {
    const keys = Object.keys(changes);
    if (keys.length === 1 && keys[0] === 'issueStatus') return changes.issueStatus ? AUDIT_ACTIONS.approve : AUDIT_ACTIONS.unapprove;
    return AUDIT_ACTIONS.update;
  }

  return {
    get,
    removeIn,

    async list({ current, pageSize, issueTitle, typeId, issueStatus }: IssueListQuery): Promise<Page<Issue>> {
      const page = await issues.list({ issueTitle, typeId, issueStatus: booleanFilter(issueStatus) }, { current, pageSize });
      return mapPage(page, toIssue);
    },

    async create(actor: Actor, body: CreateIssueBody): Promise<Issue> {
      const issueContent = requiredHtml('issueContent', body.issueContent);
      const at = now();
      const id = newId(at);
      const verdict = await screenAdminWrite(
        db,
        'issue',
        [
          { text: body.issueTitle, html: false },
          { text: issueContent, html: true },
        ],
        at,
      );
      await writeTransaction(db, ['issues'], async (tx) => {
        if (!(await users.holdForUse(body.userId, tx))) throw badRequest(USER_MESSAGES.notFound);
        if (!(await types.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        await issues.insert(
          {
            id,
            issueTitle: body.issueTitle,
            issueContent,
            scanNumber: 0,
            commentNumber: 0,
            issueStatus: false,
            issueDate: at,
            userId: body.userId,
            typeId: body.typeId,
          },
          tx,
        );
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'issue', entityId: id, title: body.issueTitle });
        if (verdict) await recordHold(tx, { kind: 'issue', itemId: id, verdict }, at);
      });
      return get(id);
    },

    async update(actor: Actor, id: string, { version, ...body }: UpdateIssueBody, guard?: RevertGuard): Promise<Issue> {
      const changes = {
        ...body,
        ...(body.issueContent !== undefined && { issueContent: requiredHtml('issueContent', body.issueContent) }),
      };
      // A revert puts back text that was stored before: the rules judged it then.
      const verdict = guard
        ? null
        : await screenAdminWrite(db, 'issue', [
            { text: changes.issueTitle, html: false },
            { text: changes.issueContent, html: true },
          ]);
      if (Object.keys(changes).length) {
        await writeTransaction(db, ['issues', 'comments'], async (tx) => {
          const before = await lockRow(tx, issuesTable, id);
          if (!before) throw missingRecord(guard, notFound(ISSUE_MESSAGES.notFound));
          checkGuard(before, guard);
          if (!guard) {
            const { id: _id, issueTitle, issueContent, typeId, userId, issueStatus, issueDate, scanNumber, commentNumber } = before;
            const current = {
              _id,
              issueTitle,
              issueContent,
              typeId,
              userId,
              issueStatus,
              issueDate,
              scanNumber,
              commentNumber,
              version: before.version,
            };
            await checkVersion(tx, { entity: 'issue', id, version: before.version }, version, () => current);
          }
          if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
          if (!(await issues.update(id, changes, tx))) throw notFound(ISSUE_MESSAGES.notFound);
          if (changes.typeId) await comments.retypeUnder(1, id, changes.typeId, tx);
          await audit.record(tx, actor, {
            action: guard?.action ?? updateAction(changes),
            entity: 'issue',
            entityId: id,
            title: changes.issueTitle ?? before.issueTitle,
            changes: diff(before, changes),
          });
          if (verdict) await recordHold(tx, { kind: 'issue', itemId: id, verdict }, now());
        });
      }
      return get(id);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await writeTransaction(db, ENTITIES.issue.bin.locks, async (tx) => {
        const issue = await lockRow(tx, issuesTable, id);
        if (!issue) throw notFound(ISSUE_MESSAGES.notFound);
        await removeIn(tx, actor, AUDIT_ACTIONS.delete, [issue]);
      });
    },

    /** All or nothing: every id must exist, and each issue gets its own audit entry. */
    async batch(actor: Actor, action: IssueBatchAction, given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      if (action === 'delete') {
        await writeTransaction(db, ENTITIES.issue.bin.locks, async (tx) => {
          await removeIn(tx, actor, AUDIT_ACTIONS.batchDelete, await lockRows(tx, issuesTable, ids));
        });
        return { done: ids.length };
      }
      const issueStatus = action === 'approve';
      await writeTransaction(db, ['issues'], async (tx) => {
        const rows = await lockRows(tx, issuesTable, ids);
        await issues.setStatus(ids, issueStatus, tx);
        await audit.record(
          tx,
          actor,
          rows.map((row) => ({
            action: issueStatus ? AUDIT_ACTIONS.batchApprove : AUDIT_ACTIONS.batchUnapprove,
            entity: 'issue' as const,
            entityId: row.id,
            title: row.issueTitle,
            changes: diff(row, { issueStatus }),
          })),
        );
      });
      return { done: ids.length };
    },
  };
}
