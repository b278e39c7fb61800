import { inArray, sql, type GetColumnData, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { UpdateAdminBody } from '#contract/admin';
import { AUDIT_ENTITIES } from '#contract/audit';
import { UpdateBookBody } from '#contract/book';
import { COMMENT_TYPES, type CommentType } from '#contract/comment';
import { UpdateInterviewBody } from '#contract/interview';
import { UpdateIssueBody } from '#contract/issue';
import { UpdateUserBody } from '#contract/user';
import type { CsvColumn } from '../lib/csv';
import type { Db } from './client';
import { admins, books, comments, interviews, issues, types, users } from './schema';

/**
 * The entity registry: what each record kind of the product is, declared once. The write locks
 * (LOCK_ORDER), the recycle bin (what a delete takes along and the entry's title), the audit log
 * (its name, the names it shows, the fields 撤销此修改 may put back), the CSV exports and the
 * backup's table order all read it. A new entity is one entry here plus its module, page and
 * contract (docs/architecture.md, "Adding an entity").
 */

/** The tables whose writes take a lock, in the one order every transaction takes them (write-lock.ts says why). */
export const LOCK_ORDER = ['admins', 'types', 'users', 'books', 'interviews', 'issues', 'comments'] as const;
export type LockedTable = (typeof LOCK_ORDER)[number];

/** What the lists show of a row in a CSV export: `date` in TIME_ZONE, `html` as text, `typeName` by id. */
export interface ExportText {
  date(ms: number | null | undefined): string;
  html(html: string): string;
  typeName(id: string): string;
}

/** How the audit log names a record by id (its lookups: one indexed query per entity). */
export interface Naming<N> {
  load(db: Db, ids: string[]): Promise<Array<[id: string, name: N]>>;
}

function naming<C extends Record<string, PgColumn>, N>(
  table: PgTable,
  id: PgColumn,
  columns: C,
  text: (row: { [K in keyof C]: GetColumnData<C[K], 'raw'> }) => N,
): Naming<N> {
  return {
    async load(db, ids) {
      const rows = (await db
        .select({ id, ...columns })
        .from(table)
        .where(inArray(id, ids))) as Array<{ id: string } & { [K in keyof C]: GetColumnData<C[K], 'raw'> }>;
      return rows.map((row) => [row.id, text(row)]);
    },
  };
}

/** The rows a delete takes along, per table, by a condition on alias `t`; the first is the record itself. */
export type Cascade<L extends LockedTable> = ReadonlyArray<readonly [table: L, where: (id: string) => SQL]>;

/**
 * A delete that goes to the recycle bin: the tables it locks (the cascade's and the parents whose
 * comment count it puts right), what it takes along, and the bin entry's title from main row `m`.
 */
export interface BinnedDelete<L extends LockedTable> {
  locks: readonly L[];
  cascade: Cascade<L>;
  title: SQL;
}

// A body's `version` says which version an edit started from: never a field a revert puts back.
const fieldsOf = (schema: { properties: object }) => Object.keys(schema.properties).filter((field) => field !== 'version');

const admin = {
  audit: 'admin',
  label: AUDIT_ENTITIES.admin,
  table: 'admins',
  lockKey: 7,
  naming: naming(admins, admins.id, { loginId: admins.loginId }, (r) => r.loginId),
  // A password is never put back (its change shows no values).
  revertable: fieldsOf(UpdateAdminBody).filter((field) => field !== 'loginPwd'),
} as const;

const type = {
  audit: 'type',
  label: AUDIT_ENTITIES.type,
  table: 'types',
  lockKey: 1,
  naming: naming(types, types.id, { name: types.typeName }, (r) => r.name),
  revertable: ['typeName'],
  // Every table that refers to types: a content write holding the type finishes before the delete looks.
  deleteLocks: ['types', 'books', 'interviews', 'issues', 'comments'],
} as const;

const user = {
  audit: 'user',
  label: AUDIT_ENTITIES.user,
  table: 'users',
  lockKey: 2,
  naming: naming(users, users.id, { loginId: users.loginId, nickname: users.nickname }, (r) =>
    r.nickname && r.nickname !== r.loginId ? `${r.nickname}（${r.loginId}）` : r.loginId,
  ),
  revertable: fieldsOf(UpdateUserBody),
  bin: {
    // Books: the comment counts of the books they had commented on are put right.
    locks: ['users', 'books', 'issues', 'comments'],
    cascade: [
      ['users', (id) => sql`t.id = ${id}`],
      ['issues', (id) => sql`t.user_id = ${id}`],
      // Their own comments and every comment under their issues: two indexed lookups, not an OR over every comment.
      [
        'comments',
        (id) => sql`t.id in (select c.id from comments c where c.user_id = ${id}
            union select c.id from comments c join issues i on i.id = c.issue_id where i.user_id = ${id})`,
      ],
    ],
    title: sql`m.login_id`,
  } satisfies BinnedDelete<'users' | 'books' | 'issues' | 'comments'>,
  exportName: '用户列表',
  exportColumns: (text: ExportText): Array<CsvColumn<ExportUser>> => [
    { header: '登录账号', value: (r) => r.loginId },
    { header: '昵称', value: (r) => r.nickname },
    { header: '头像', value: (r) => r.avatar },
    { header: '积分', value: (r) => r.points },
    { header: '注册时间', value: (r) => text.date(r.registerDate) },
    { header: '账号状态', value: (r) => (r.enabled ? '启用' : '禁用') },
  ],
} as const;

const book = {
  audit: 'book',
  label: AUDIT_ENTITIES.book,
  table: 'books',
  lockKey: 3,
  naming: naming(books, books.id, { title: books.bookTitle }, (r) => r.title),
  revertable: fieldsOf(UpdateBookBody),
  bin: {
    locks: ['books', 'comments'],
    cascade: [
      ['books', (id) => sql`t.id = ${id}`],
      ['comments', (id) => sql`t.book_id = ${id}`],
    ],
    title: sql`m.book_title`,
  } satisfies BinnedDelete<'books' | 'comments'>,
  exportName: '书籍列表',
  exportColumns: (text: ExportText): Array<CsvColumn<typeof books.$inferSelect>> => [
    { header: '书籍名称', value: (r) => r.bookTitle },
    { header: '书籍分类', value: (r) => text.typeName(r.typeId) },
    { header: '书籍简介', value: (r) => text.html(r.bookIntro) },
    { header: '书籍封面', value: (r) => r.bookPic },
    { header: '浏览数', value: (r) => r.scanNumber },
    { header: '评论数', value: (r) => r.commentNumber },
    { header: '上架日期', value: (r) => text.date(r.onShelfDate) },
  ],
} as const;

const interview = {
  audit: 'interview',
  label: AUDIT_ENTITIES.interview,
  table: 'interviews',
  lockKey: 4,
  naming: naming(interviews, interviews.id, { title: interviews.interviewTitle }, (r) => r.title),
  revertable: fieldsOf(UpdateInterviewBody),
  bin: {
    locks: ['interviews'],
    cascade: [['interviews', (id) => sql`t.id = ${id}`]],
    title: sql`m.interview_title`,
  } satisfies BinnedDelete<'interviews'>,
  exportName: '题目列表',
  exportColumns: (text: ExportText): Array<CsvColumn<typeof interviews.$inferSelect>> => [
    { header: '题目名称', value: (r) => r.interviewTitle },
    { header: '题目分类', value: (r) => text.typeName(r.typeId) },
    { header: '上架日期', value: (r) => text.date(r.onShelfDate) },
  ],
} as const;

const issue = {
  audit: 'issue',
  label: AUDIT_ENTITIES.issue,
  table: 'issues',
  lockKey: 5,
  naming: naming(issues, issues.id, { title: issues.issueTitle }, (r) => r.title),
  revertable: fieldsOf(UpdateIssueBody),
  bin: {
    locks: ['issues', 'comments'],
    cascade: [
      ['issues', (id) => sql`t.id = ${id}`],
      ['comments', (id) => sql`t.issue_id = ${id}`],
    ],
    title: sql`m.issue_title`,
  } satisfies BinnedDelete<'issues' | 'comments'>,
  exportName: '问答列表',
  exportColumns: (text: ExportText): Array<CsvColumn<typeof issues.$inferSelect & { user: { nickname: string } }>> => [
    { header: 'ID', value: (r) => r.id },
    { header: '问答标题', value: (r) => r.issueTitle },
    { header: '问答描述', value: (r) => text.html(r.issueContent) },
    { header: '提问用户', value: (r) => r.user.nickname },
    { header: '浏览数', value: (r) => r.scanNumber },
    { header: '评论数', value: (r) => r.commentNumber },
    { header: '问题分类', value: (r) => text.typeName(r.typeId) },
    { header: '审核状态', value: (r) => (r.issueStatus ? '已通过' : '待审核') },
    { header: '提问时间', value: (r) => text.date(r.issueDate) },
  ],
} as const;

const comment = {
  audit: 'comment',
  label: AUDIT_ENTITIES.comment,
  table: 'comments',
  lockKey: 6,
  // A live comment is named by its parent: the issue or book whose page it is on.
  naming: naming(comments, comments.id, { issueId: comments.issueId, bookId: comments.bookId }, (r) =>
    r.issueId ? { parentId: r.issueId, parentEntity: 'issue' as const } : { parentId: r.bookId!, parentEntity: 'book' as const },
  ),
  revertable: [],
  bin: {
    // The parents: a comment's delete puts its issue's or book's comment count right.
    locks: ['books', 'issues', 'comments'],
    cascade: [['comments', (id) => sql`t.id = ${id}`]],
    // A comment has no title: 「评论：<the start of its text>（问答：<its issue's title>）」, or 书籍 for a
    // book's, so the bin says where it was. Its parent is live when the comment alone is deleted.
    title: sql`'评论：' || left(btrim(regexp_replace(regexp_replace(m.comment_content, '<[^>]*>', ' ', 'g'), '&[a-z#0-9]+;|\\s+', ' ', 'g')), 60)
      || coalesce('（问答：' || (select p.issue_title from issues p where p.id = m.issue_id) || '）',
                  '（书籍：' || (select p.book_title from books p where p.id = m.book_id) || '）', '')`,
  } satisfies BinnedDelete<'books' | 'issues' | 'comments'>,
  exportName: (commentType: CommentType) => (commentType === COMMENT_TYPES.issue ? '问答评论列表' : '书籍评论列表'),
  exportColumns: (
    text: ExportText,
    commentType: CommentType,
  ): Array<CsvColumn<typeof comments.$inferSelect & { user: { nickname: string }; target: { title: string } }>> => [
    { header: commentType === COMMENT_TYPES.issue ? '问题标题' : '书籍标题', value: (r) => r.target.title },
    { header: '评论内容', value: (r) => text.html(r.commentContent) },
    { header: '评论用户', value: (r) => r.user.nickname },
    { header: '评论分类', value: (r) => text.typeName(r.typeId) },
    { header: '评论日期', value: (r) => text.date(r.commentDate) },
  ],
} as const;

type ExportUser = Omit<typeof users.$inferSelect, 'passwordHash' | 'passwordLegacy' | 'loginKey'>;

/** Every entity, in LOCK_ORDER (which is also an order where each row's references come before it). */
export const ENTITIES = { admin, type, user, book, interview, issue, comment } as const;
export type EntityName = keyof typeof ENTITIES;

/** The entities a delete sends to the recycle bin, in the order a restore puts their rows back. */
export const BINNED = { user, book, interview, issue, comment } as const;
export type BinnedEntity = keyof typeof BINNED;
/** The tables a bin entry may hold rows of, in the order their rows are put back. */
export const RESTORE_ORDER = ['users', 'books', 'interviews', 'issues', 'comments'] as const satisfies readonly LockedTable[];
export type ContentTable = (typeof RESTORE_ORDER)[number];

/** Each locked table's advisory-lock key, fixed apart from its place in LOCK_ORDER. */
export const LOCK_KEY = Object.fromEntries(Object.values(ENTITIES).map((e) => [e.table, e.lockKey])) as Record<LockedTable, number>;

/** The entity tables in the order a backup writes and a restore reads them. */
export const ENTITY_TABLES_BY_REFERENCE: readonly LockedTable[] = LOCK_ORDER;

/** The fields of a change that hold an id, and the entity that names it. */
export const REFERENCE_FIELDS = {
  typeId: 'type',
  userId: 'user',
  adminId: 'admin',
  issueId: 'issue',
  bookId: 'book',
} as const satisfies Record<string, EntityName>;

/** The tables a delete of entity `E` locks (its cascade's and the parents it recounts). */
export type BinLocks<E extends BinnedEntity> = (typeof BINNED)[E]['bin']['locks'][number];
