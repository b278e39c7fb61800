import { INTERVIEW_MESSAGES } from '../../../../contract/interview';
import type { CreateInterviewBody, Interview, InterviewListQuery, UpdateInterviewBody } from '../../../../contract/interview';
import type { Page } from '../../../../contract/paging';
import { TYPE_MESSAGES } from '../../../../contract/type';
import { AUDIT_ACTIONS, type BatchResult } from '../../../../contract/audit';
import type { Db } from '../../db/client';
import { interviews as interviewsTable } from '../../db/schema';
import { writeTransaction } from '../../db/write-lock';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import { checkGuard, diff, lockRow, lockRows, missingRecord, uniqueIds, type Actor, type Audit, type RevertGuard } from '../audit/audit';
import type { TypeRepository } from '../type/type.repository';
import type { InterviewChanges, InterviewRepository, InterviewRow } from './interview.repository';

function toInterview({ id, ...row }: InterviewRow): Interview {
  return { _id: id, ...row };
}

export type InterviewService = ReturnType<typeof createInterviewService>;

export function createInterviewService(deps: {
  db: Db;
  interviews: InterviewRepository;
  types: TypeRepository;
  audit: Audit;
  now?: () => number;
}) {
  const { db, interviews, types, audit } = deps;
  const now = deps.now ?? Date.now;

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

    async update(actor: Actor, id: string, body: UpdateInterviewBody, guard?: RevertGuard): Promise<Interview> {
      const changes: InterviewChanges = {
        ...body,
        ...(body.interviewContent !== undefined && { interviewContent: requiredHtml('interviewContent', body.interviewContent) }),
      };
      if (!Object.keys(changes).length) return get(id);
      const updated = await writeTransaction(db, ['interviews'], async (tx) => {
        const before = await lockRow(tx, interviewsTable, id);
        if (!before) throw missingRecord(guard, notFound(INTERVIEW_MESSAGES.notFound));
        checkGuard(before, guard);
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
      await writeTransaction(db, ['interviews'], async (tx) => {
        const interview = await lockRow(tx, interviewsTable, id);
        if (!interview) throw notFound(INTERVIEW_MESSAGES.notFound);
        await interviews.delete(id, tx);
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.delete, entity: 'interview', entityId: id, title: interview.interviewTitle });
      });
    },

    /** All or nothing: every id must exist, and each question gets its own audit entry. */
    async batch(actor: Actor, _action: 'delete', given: readonly string[]): Promise<BatchResult> {
      const ids = uniqueIds(given);
      await writeTransaction(db, ['interviews'], async (tx) => {
        const rows = await lockRows(tx, interviewsTable, ids);
        for (const id of ids) await interviews.delete(id, tx);
        await audit.record(
          tx,
          actor,
          rows.map((row) => ({
            action: AUDIT_ACTIONS.batchDelete,
            entity: 'interview' as const,
            entityId: row.id,
            title: row.interviewTitle,
          })),
        );
      });
      return { done: ids.length };
    },
  };
}
