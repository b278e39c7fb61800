import { INTERVIEW_MESSAGES } from '#contract/interview';
import type { CreateInterviewBody, Interview, InterviewListQuery, UpdateInterviewBody } from '#contract/interview';
import type { Page } from '#contract/paging';
import { TYPE_MESSAGES } from '#contract/type';
import { AUDIT_ACTIONS, type AuditAction, type BatchResult } from '#contract/audit';
import type { Db } from '../../db/client';
import { interviews as interviewsTable } from '../../db/schema';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { ENTITIES, type BinLocks } from '../../db/entities';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard } from '../audit/audit';
import { lockRow, lockRows, uniqueIds } from '../../db/rows';
import type { TrashBin } from '../trash/trash.service';
import type { TypeRepository } from '../type/type.repository';
import type { InterviewChanges, InterviewRepository, InterviewRow } from './interview.repository';

function toInterview(row: InterviewRow): Interview {
  return {
    _id: row.id,
    interviewTitle: row.interviewTitle,
    interviewContent: row.interviewContent,
    onShelfDate: row.onShelfDate,
    typeId: row.typeId,
    version: row.version,
  };
}

export type InterviewService = ReturnType<typeof createInterviewService>;

export function createInterviewService(deps: {
  db: Db;
  interviews: InterviewRepository;
  types: TypeRepository;
  bin: TrashBin;
  audit: Audit;
  now?: () => number;
}) {
  const { db, interviews, types, bin, audit } = deps;
  const now = deps.now ?? Date.now;

  /**
   * The one delete path of interview questions (DELETE and the bulk delete): each question, locked
   * by the caller, goes to the recycle bin (one bin entry per question) and gets its audit entry
   * (one insert for all), inside the caller's transaction.
   */
  async function removeIn(
    tx: Locked<BinLocks<'interview'>>,
    actor: Actor,
    action: AuditAction,
    rows: ReadonlyArray<{ id: string; interviewTitle: string }>,
  ): Promise<void> {
    for (const { id } of rows) {
      if (!(await bin.capture(tx, 'interview', id, actor))) throw notFound(INTERVIEW_MESSAGES.notFound);
      await interviews.delete(id, tx);
    }
    await audit.record(
      tx,
      actor,
      rows.map((row) => ({ action, entity: 'interview' as const, entityId: row.id, title: row.interviewTitle })),
    );
  }

  async function get(id: string): Promise<Interview> {
    const row = await interviews.findById(id);
    if (!row) throw notFound(INTERVIEW_MESSAGES.notFound);
    return toInterview(row);
  }

  return {
    get,

    async list({ current, pageSize, interviewTitle, typeId }: InterviewListQuery): Promise<Page<Interview>> {
      return mapPage(await interviews.list({ interviewTitle, typeId }, { current, pageSize }), toInterview);
    },

    async create(actor: Actor, body: CreateInterviewBody): Promise<Interview> {
      const interviewContent = requiredHtml('interviewContent', body.interviewContent);
      const at = now();
      const created = await writeTransaction(db, ['interviews'], async (tx) => {
        if (!(await types.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        const inserted = await interviews.insert(
          { id: newId(at), interviewTitle: body.interviewTitle, interviewContent, onShelfDate: at, typeId: body.typeId },
          tx,
        );
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.create,
          entity: 'interview',
          entityId: inserted.id,
          title: inserted.interviewTitle,
        });
        return inserted;
      });
      return toInterview(created);
    },

    async update(actor: Actor, id: string, { version, ...body }: UpdateInterviewBody, guard?: RevertGuard): Promise<Interview> {
      const changes: InterviewChanges = {
        ...body,
        ...(body.interviewContent !== undefined && { interviewContent: requiredHtml('interviewContent', body.interviewContent) }),
      };
      if (!Object.keys(changes).length) return get(id);
      const updated = await writeTransaction(db, ['interviews'], async (tx) => {
        const before = await lockRow(tx, interviewsTable, id);
        if (!before) throw missingRecord(guard, notFound(INTERVIEW_MESSAGES.notFound));
        checkGuard(before, guard);
        if (!guard) await checkVersion(tx, { entity: 'interview', id, version: before.version }, version, () => toInterview(before));
        if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        const row = await interviews.update(id, changes, tx);
        if (!row) throw notFound(INTERVIEW_MESSAGES.notFound);
        await audit.record(tx, actor, {
          action: guard?.action ?? AUDIT_ACTIONS.update,
          entity: 'interview',
          entityId: id,
          title: row.interviewTitle,
          changes: diff(before, changes),
        });
        return row;
      });
      return toInterview(updated);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await writeTransaction(db, ENTITIES.interview.bin.locks, async (tx) => {
        const interview = await lockRow(tx, interviewsTable, id);
        if (!interview) throw notFound(INTERVIEW_MESSAGES.notFound);
        await removeIn(tx, actor, AUDIT_ACTIONS.delete, [interview]);
      });
    },

    /** All or nothing: every id must exist, and each question gets its own bin entry and audit entry. */
    async batch(actor: Actor, _action: 'delete', given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      await writeTransaction(db, ENTITIES.interview.bin.locks, async (tx) => {
        await removeIn(tx, actor, AUDIT_ACTIONS.batchDelete, await lockRows(tx, interviewsTable, ids));
      });
      return { done: ids.length };
    },
  };
}
