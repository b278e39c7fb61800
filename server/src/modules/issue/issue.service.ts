import { ISSUE_MESSAGES } from '../../../../contract/issue';
import type { CreateIssueBody, Issue, IssueListQuery, UpdateIssueBody } from '../../../../contract/issue';
import type { Page } from '../../../../contract/paging';
import { TYPE_MESSAGES } from '../../../../contract/type';
import { USER_MESSAGES } from '../../../../contract/user';
import type { Db } from '../../db/client';
import { writeTransaction, type Locked } from '../../db/write-lock';
import { booleanFilter } from '../../lib/filters';
import { badRequest, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { mapPage } from '../../lib/paging';
import type { CommentRepository } from '../comment/comment.repository';
import type { Actor, TrashBin } from '../trash/trash.service';
import type { TypeRepository } from '../type/type.repository';
import type { UserRepository } from '../user/user.repository';
import type { IssueRepository, IssueWithUser } from './issue.repository';


function toIssue({ id, user, ...row }: IssueWithUser): Issue {
  return {
    _id: id,
    issueTitle: row.issueTitle,
    issueContent: row.issueContent,
    scanNumber: row.scanNumber,
    commentNumber: row.commentNumber,
    issueStatus: row.issueStatus,
    issueDate: row.issueDate,
    userId: row.userId,
    typeId: row.typeId,
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
  now?: () => number;
}) {
  const { db, issues, comments, users, types, bin } = deps;
  const now = deps.now ?? Date.now;

  async function get(id: string): Promise<Issue> {
    const row = await issues.findById(id);
    if (!row) throw notFound(ISSUE_MESSAGES.notFound);
    return toIssue(row);
  }

  return {
    get,

    async list({ current, pageSize, issueTitle, typeId, issueStatus }: IssueListQuery): Promise<Page<Issue>> {
      const page = await issues.list({ issueTitle, typeId, issueStatus: booleanFilter(issueStatus) }, { current, pageSize });
      return mapPage(page, toIssue);
    },

    async create(body: CreateIssueBody): Promise<Issue> {
      const issueContent = requiredHtml('issueContent', body.issueContent);
      const at = now();
      const id = newId(at);
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
      });
      return get(id);
    },

    async update(id: string, body: UpdateIssueBody): Promise<Issue> {
      const changes = {
        ...body,
        ...(body.issueContent !== undefined && { issueContent: requiredHtml('issueContent', body.issueContent) }),
      };
      if (Object.keys(changes).length) {
        await writeTransaction(db, ['issues', 'comments'], async (tx) => {
          if (changes.typeId && !(await types.holdForUse(changes.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
          if (!(await issues.update(id, changes, tx))) throw notFound(ISSUE_MESSAGES.notFound);
          if (changes.typeId) await comments.retypeUnder(1, id, changes.typeId, tx);
        });
      }
      return get(id);
    },

    /** Moves the issue and its comments to the recycle bin, inside `tx` (for bulk deletes too). */
    async removeIn(tx: Locked<'issues' | 'comments'>, id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      if (!(await bin.capture(tx, 'issue', id, by))) throw notFound(ISSUE_MESSAGES.notFound);
      await comments.deleteUnder(1, id, tx);
      await issues.delete(id, tx);
    },

    async remove(id: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<void> {
      await writeTransaction(db, ['issues', 'comments'], (tx) => this.removeIn(tx, id, by));
    },
  };
}
