import { AUDIT_ACTIONS, type AuditChange, type AuditEntity } from '#contract/audit';
import type { CommentExportQuery, BookExportQuery, InterviewExportQuery, IssueExportQuery, UserExportQuery } from '#contract/export';
import { AUDIT_ENTITIES, type AuditExportQuery, type AuditEntry } from '#contract/audit';
import { changeLines } from '#contract/labels';
import { COMMENT_TYPES } from '#contract/comment';
import { ENTITIES } from '../../db/entities';
import type { CsvColumn, CsvExport } from '../../lib/csv';
import { zonedDate } from '../../lib/csv';
import type { Db } from '../../db/client';
import { booleanFilter } from '../../lib/filters';
import { newId } from '../../lib/ids';
import type { Actor, Audit } from '../audit/audit';
import type { AuditRepository } from '../audit/audit.repository';
import type { AuditService } from '../audit/audit.service';
import type { BookRepository, BookRow } from '../book/book.repository';
import type { CommentListRow, CommentRepository } from '../comment/comment.repository';
import type { InterviewRepository, InterviewRow } from '../interview/interview.repository';
import type { IssueRepository, IssueWithUser } from '../issue/issue.repository';
import type { TypeRepository } from '../type/type.repository';
import type { UserRepository, UserRow } from '../user/user.repository';

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** The text of stored (sanitised) HTML, as the lists show it: tags out, entities read, spaces collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => HTML_ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim();
}

export type ExportService = ReturnType<typeof createExportService>;

/**
 * The CSV exports of the lists: the columns each list shows, under its Chinese headers
 * (docs/screens.md), from every row its filters let through. No password or hash is selected.
 */
export function createExportService(deps: {
  db: Db;
  audit: Audit;
  onAuditError: (error: unknown) => void;
  now?: () => number;
  /** The installation's time zone (TIME_ZONE): every date of every CSV is in it. */
  timeZone: string;
  users: UserRepository;
  books: BookRepository;
  interviews: InterviewRepository;
  issues: IssueRepository;
  comments: CommentRepository;
  types: TypeRepository;
  auditRepo: AuditRepository;
  auditLog: AuditService;
}) {
  const { db, audit, users, books, interviews, issues, comments, types } = deps;
  const now = deps.now ?? Date.now;
  const csvDate = (ms: number | null | undefined) => zonedDate(ms, deps.timeZone);
  const text = { date: csvDate, html: htmlToText };

  /**
   * The export's one audit entry (导出): who exported which list, with which filters, and how many
   * rows. The count is known only once the stream has ended, so the entry is written then, outside
   * any transaction (an export writes nothing else); a client that went away mid-way is recorded
   * too, with the rows it was sent and 「（中断）」 in the title. An export is a read: the file has
   * been sent when the entry is written, so a failure to store it is reported, not thrown.
   */
  function audited<R>(actor: Actor, entity: AuditEntity, filters: object, csv: CsvExport<R>): CsvExport<R> {
    async function* counted(): AsyncGenerator<R[]> {
      let rows = 0;
      let complete = false;
      try {
        for await (const batch of csv.batches) {
          rows += batch.length;
          yield batch;
        }
        complete = true;
      } finally {
        const changes: AuditChange[] = Object.entries(filters)
          .filter(([, value]) => value !== undefined && value !== '')
          .map(([field, value]) => ({ field, after: value }));
        changes.push({ field: 'rows', after: rows });
        await audit
          .record(db, actor, {
            action: AUDIT_ACTIONS.export,
            entity,
            // An export is no record: the entry gets an id of its own.
            entityId: newId(now()),
            title: `${csv.name}（${rows} 行${complete ? '' : '，中断'}）`,
            changes,
          })
          .catch(deps.onAuditError);
      }
    }
    return { ...csv, batches: counted() };
  }

  /** Type names by id, read once per export (types are a handful). */
  async function typeNames(): Promise<(id: string) => string> {
    const names = new Map((await types.list()).map((t) => [t.id, t.typeName]));
    return (id) => names.get(id) ?? '';
  }

  /** The batches of a scan, each with the names of what its entries refer to. */
  async function* namedEntries(batches: AsyncIterable<Parameters<AuditService['entries']>[0]>): AsyncGenerator<AuditEntry[]> {
    for await (const rows of batches) yield await deps.auditLog.entries(rows);
  }

  return {
    /** 操作日志: the entries the list's filters let through (a normal admin's own only), changes in words. */
    audit(actor: Actor, query: AuditExportQuery): CsvExport<AuditEntry> {
      const filter = deps.auditLog.filterFor(actor, query);
      const columns: Array<CsvColumn<AuditEntry>> = [
        { header: '时间', value: (r) => csvDate(r.at) },
        { header: '管理员', value: (r) => r.adminLoginId },
        { header: '对象', value: (r) => AUDIT_ENTITIES[r.entity] },
        { header: '操作', value: (r) => r.action },
        { header: '记录', value: (r) => r.title },
        { header: '记录 ID', value: (r) => r.entityId },
        { header: '变更', value: (r) => changeLines(r.action, r.changes, text).join('；') },
      ];
      return audited(actor, 'audit', query, { name: '操作日志', columns, batches: namedEntries(deps.auditRepo.scan(filter)) });
    },

    user(actor: Actor, query: UserExportQuery): CsvExport<UserRow> {
      const { loginId, nickname, enabled } = query;
      const { exportName: name, exportColumns } = ENTITIES.user;
      const columns = exportColumns({ ...text, typeName: () => '' });
      return audited(actor, 'user', query, { name, columns, batches: users.scan({ loginId, nickname, enabled: booleanFilter(enabled) }) });
    },

    async book(actor: Actor, query: BookExportQuery): Promise<CsvExport<BookRow>> {
      const { bookTitle, typeId } = query;
      const columns = ENTITIES.book.exportColumns({ ...text, typeName: await typeNames() });
      return audited(actor, 'book', query, { name: ENTITIES.book.exportName, columns, batches: books.scan({ bookTitle, typeId }) });
    },

    async interview(actor: Actor, query: InterviewExportQuery): Promise<CsvExport<InterviewRow>> {
      const { interviewTitle, typeId } = query;
      const { exportName: name, exportColumns } = ENTITIES.interview;
      const columns = exportColumns({ ...text, typeName: await typeNames() });
      return audited(actor, 'interview', query, { name, columns, batches: interviews.scan({ interviewTitle, typeId }) });
    },

    async issue(actor: Actor, query: IssueExportQuery): Promise<CsvExport<IssueWithUser>> {
      const { issueTitle, typeId, issueStatus } = query;
      const { exportName: name, exportColumns } = ENTITIES.issue;
      const columns = exportColumns({ ...text, typeName: await typeNames() });
      return audited<IssueWithUser>(actor, 'issue', query, {
        name,
        columns,
        batches: issues.scan({ issueTitle, typeId, issueStatus: booleanFilter(issueStatus) }),
      });
    },

    async comment(actor: Actor, query: CommentExportQuery): Promise<CsvExport<CommentListRow>> {
      const { commentType = COMMENT_TYPES.issue, commentContent, typeId } = query;
      const { exportName, exportColumns } = ENTITIES.comment;
      const columns = exportColumns({ ...text, typeName: await typeNames() }, commentType);
      return audited<CommentListRow>(
        actor,
        'comment',
        { ...query, commentType },
        { name: exportName(commentType), columns, batches: comments.scan({ commentType, commentContent, typeId }) },
      );
    },
  };
}
