import { INTERVIEW_MESSAGES } from '../../../../contract/interview';
import type { CreateInterviewBody, Interview, InterviewListQuery, UpdateInterviewBody } from '../../../../contract/interview';
import type { Page } from '../../../../contract/paging';
import { TYPE_MESSAGES } from '../../../../contract/type';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import type { Actor, TrashBin } from '../trash/trash.service';
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
  bin: TrashBin;
  now?: () => number;
}) {
  const { db, interviews, types, bin } = deps;
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

    async create(body: CreateInterviewBody): Promise<Interview> {
      const interviewContent = requiredHtml('interviewContent', body.interviewContent);
      const at = now();
      const created = await writeTransaction(db, ['interviews'], async (tx) => {
        if (!(await types.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        return interviews.insert({ id: newId(at), interviewTitle: body.interviewTitle, interviewContent, onShelfDate: at, typeId: body.typeId }, tx);
      });
      return toInterview(created);
    },

    async update(id: string, body: UpdateInterviewBody): Promise<Interview> {
      const changes: InterviewChanges = {
        ...body,
        ...(body.interviewContent !== undefined && { interviewContent: requiredHtml('interviewContent', body.interviewContent) }),
      };
      if (!Object.keys(changes).length) return get(id);
      const updated = await writeTransaction(db, ['interviews'], async (tx) => {
        if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        return interviews.update(id, changes, tx);
      });
      if (!updated) throw notFound(INTERVIEW_MESSAGES.notFound);
      return toInterview(updated);
    },

    /** Moves the interview question to the recycle bin, inside `tx` (for bulk deletes too). */
    async removeIn(tx: Locked<'interviews'>, id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      if (!(await bin.capture(tx, 'interview', id, by))) throw notFound(INTERVIEW_MESSAGES.notFound);
      await interviews.delete(id, tx);
    },

    async remove(id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      await writeTransaction(db, ['interviews'], (tx) => this.removeIn(tx, id, by));
    },
  };
}
