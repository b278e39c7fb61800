import { AUDIT_ACTIONS } from '#contract/audit';
import type { Actor, Audit } from '../audit/audit';
import { combine, holds, recordHold, screen } from '../moderation/moderation';
import type { SanctionService } from '../sanction/sanction.service';
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '#contract/auth';
import type { Book, BookListQuery } from '#contract/book';
import { BOOK_MESSAGES } from '#contract/book';
import { COMMENT_TYPES, type Comment, type CommentRow } from '#contract/comment';
import type { Interview, InterviewListQuery } from '#contract/interview';
import { ISSUE_MESSAGES, type Issue, type IssueListQuery } from '#contract/issue';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '#contract/paging';
import {
  POINTS_REASONS,
  POINTS_RULES,
  SITE_MESSAGES,
  type OwnProfile,
  type PasswordCheckBody,
  type PointsEntry,
  type PointsReason,
  type PublicProfile,
  type SignUpBody,
  type SignUpResult,
  type SiteCreateCommentBody,
  type SiteCreateIssueBody,
  type SiteLoginAnswer,
  type SiteLoginBody,
  type SiteUpdateUserBody,
} from '#contract/site';
import { TYPE_MESSAGES } from '#contract/type';
import { USER_MESSAGES } from '#contract/user';
import { PUBLIC_TABLES } from '../../db/change-feed';
import { memoUntilWrite, type Db } from '../../db/client';
import { ENTITIES } from '../../db/entities';
import { bookUnlocks, books, interviews, issues, pointsLedger, users } from '../../db/schema';
import { type Locked, writeTransaction } from '../../db/write-lock';
import { canonicalLoginId } from '../../lib/account-names';
import { DEFAULT_AVATAR, DEFAULT_USER_NICKNAME, DEFAULT_USER_POINTS } from '../../lib/defaults';
import { AppError, badRequest, conflict, forbidden, missingField, notFound } from '../../lib/errors';
import { requiredHtml } from '../../lib/html';
import { newId } from '../../lib/ids';
import { type PageRequest, pageOf } from '../../lib/paging';
import { checkUserPassword, hashPassword, verifyAgainstNothing, verifyLegacyMd5, verifyPassword } from '../../lib/passwords';
import { randomInt } from 'node:crypto';
import type { AuthRepository } from '../auth/auth.repository';
import { THROTTLE_MAX_FAILURES, THROTTLE_WINDOW_MS, type AuthService, type ClientInfo } from '../auth/auth.service';
import { toBook, type BookService } from '../book/book.service';
import type { CommentRepository } from '../comment/comment.repository';
import type { CommentService } from '../comment/comment.service';
import type { InterviewService } from '../interview/interview.service';
import type { IssueRepository } from '../issue/issue.repository';
import { toIssue, type IssueService } from '../issue/issue.service';
import type { TypeRepository } from '../type/type.repository';
import type { TypeService } from '../type/type.service';
import type { UserRepository } from '../user/user.repository';
import type { AuthenticatedMember, MemberAuth } from './site.auth';
import type { Limits } from './site.limits';
import type { ViewCounter } from './site.views';

/** A new password is taken only this soon after the same session proved the current one (passwordcheck). */
export const PASSWORD_CHECK_VALID_MS = 10 * 60 * 1000;
/** GET /api/user/pointsrank: the reference's top ten. */
export const POINTS_RANK_SIZE = 10;
const tooManyAttempts = () => new AppError(429, AUTH_MESSAGES.tooManyAttempts);

/** A viewer of the public site: a member, or a visitor known by address. */
export interface Viewer {
  member: AuthenticatedMember | null;
  ip: string;
}
const viewerKey = (viewer: Viewer) => (viewer.member ? `m:${viewer.member.id}` : `ip:${viewer.ip}`);

type UserRecord = typeof users.$inferSelect;

function publicProfile(row: Pick<UserRecord, 'id' | 'nickname' | 'avatar' | 'intro' | 'points' | 'registerDate'>): PublicProfile {
  return { _id: row.id, nickname: row.nickname, avatar: row.avatar, intro: row.intro, points: row.points, registerDate: row.registerDate };
}

function ownProfile(row: UserRecord): OwnProfile {
  return {
    ...publicProfile(row),
    loginId: row.loginId,
    mail: row.mail,
    qq: row.qq,
    wechat: row.wechat,
    enabled: row.enabled,
    lastLoginDate: row.lastLoginDate,
    hasPassword: row.passwordHash !== '',
  };
}

export type SiteService = ReturnType<typeof createSiteService>;

/** How many public answers a process keeps, and how many characters of JSON they may hold in all. */
const PUBLIC_ANSWERS_MAX = 2000;
const PUBLIC_ANSWERS_MAX_CHARS = 8 * 1024 * 1024;

/**
 * The public site's calls (docs/api.md "Public calls"): what visitors read, what members write,
 * and the counters and points the server keeps for them.
 */
export function createSiteService(deps: {
  db: Db;
  auth: AuthService;
  authRepo: AuthRepository;
  members: MemberAuth;
  limits: Limits;
  views: ViewCounter;
  userRepo: UserRepository;
  issueRepo: IssueRepository;
  commentRepo: CommentRepository;
  typeRepo: TypeRepository;
  issues: IssueService;
  books: BookService;
  comments: CommentService;
  interviews: InterviewService;
  types: TypeService;
  /** 禁言 and 封禁 (modules/sanction): asked before a member posts or signs in. */
  sanctions: Pick<SanctionService, 'refuseIfSanctioned'>;
  /** The back-office's 结束会话 of a member is recorded as the admins' is. */
  audit: Audit;
  now?: () => number;
}) {
  const { db, members, limits, views } = deps;
  const now = deps.now ?? Date.now;

  /**
   * The public site's hot reads, the same for every visitor and member, kept in memory until a
   * write to what they read (layer `answers`, docs/decisions/0021): a visitor's page costs no
   * statement while nothing changed. A 404 is never kept. Bounded by count and by size.
   */
  function publicRead<A extends unknown[], R>(name: string, lookup: (...args: A) => Promise<R>) {
    return memoUntilWrite(db, lookup, {
      layer: 'answers',
      tables: PUBLIC_TABLES,
      key: (...args) => `${name} ${JSON.stringify(args)}`,
      keep: () => true,
      fresh: () => true,
      max: PUBLIC_ANSWERS_MAX,
      size: (answer) => JSON.stringify(answer).length,
      maxSize: PUBLIC_ANSWERS_MAX_CHARS,
    });
  }
  const approvedIssues = publicRead('issues', (query: IssueListQuery) => deps.issues.list({ ...query, issueStatus: 'true' }));
  const approvedIssueById = publicRead('issue', async (id: string) => toIssue(await approvedIssue(id)));
  const issueCommentPage = publicRead('issue comments', async (id: string, page: PageRequest) => {
    // Only the status is needed here: one small prepared statement, which is also the parent check.
    if (!(await deps.issueRepo.statusOf(id))) throw notFound(ISSUE_MESSAGES.notFound);
    return deps.comments.listUnder(COMMENT_TYPES.issue, id, page, true, true);
  });
  const bookCommentPage = publicRead('book comments', (id: string, page: PageRequest) =>
    deps.comments.listUnder(COMMENT_TYPES.book, id, page, true),
  );

  async function userRecord(id: string, executor: Db = db): Promise<UserRecord | null> {
    const [row] = await executor.select().from(users).where(eq(users.id, id));
    return row ?? null;
  }

  async function byLoginId(loginId: string): Promise<UserRecord | null> {
    const [row] = await db
      .select()
      .from(users)
      .where(or(eq(users.loginId, loginId), eq(users.loginKey, canonicalLoginId(loginId))))
      .orderBy(desc(sql`${users.loginId} = ${loginId}`))
      .limit(1);
    return row ?? null;
  }

  /** A user's password against `password`: false for an account without one, md5 of an import upgraded on success. */
  async function passwordMatches(user: UserRecord | null, password: string): Promise<boolean> {
    if (!user || user.passwordHash === '') return verifyAgainstNothing(password);
    if (!user.passwordLegacy) return verifyPassword(user.passwordHash, password);
    if (!verifyLegacyMd5(user.passwordHash, password)) return verifyAgainstNothing(password);
    const passwordHash = await hashPassword(password);
    await writeTransaction(db, ['users'], (tx) =>
      tx
        .update(users)
        .set({ passwordHash, passwordLegacy: false })
        .where(and(eq(users.id, user.id), eq(users.passwordLegacy, true))),
    );
    return true;
  }

  /** A member's secret check under the login throttle, keyed apart from the admins' accounts. */
  async function throttled(loginId: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    const at = now();
    const since = at - THROTTLE_WINDOW_MS;
    const idKey = `member:${canonicalLoginId(loginId)}`;
    const keys = [idKey, `ip:${ip}`];
    const failures = await deps.authRepo.countFailuresSince(keys, since);
    if (keys.some((key) => (failures.get(key) ?? 0) >= THROTTLE_MAX_FAILURES)) throw tooManyAttempts();
    const succeeded = await check();
    const outcome = await deps.authRepo.settleAttempt({ keys, since, at, limit: THROTTLE_MAX_FAILURES, succeeded, clearKey: idKey });
    if (outcome === 'locked') throw tooManyAttempts();
    return succeeded;
  }

  /** Adds `delta` to a user's points and records why, in the caller's transaction; null when the balance would go below zero. */
  async function movePoints(
    tx: Locked<'users'>,
    userId: string,
    delta: number,
    reason: PointsReason,
    refId: string,
  ): Promise<number | null> {
    const [row] = await tx
      .update(users)
      .set({ points: sql`${users.points} + ${delta}` })
      .where(and(eq(users.id, userId), sql`${users.points} + ${delta} >= 0`))
      .returning({ points: users.points });
    if (!row) return null;
    await tx.insert(pointsLedger).values({ userId, delta, reason, refId, balance: row.points, at: now() });
    return row.points;
  }

  async function approvedIssue(id: string) {
    const row = await deps.issueRepo.findById(id);
    if (!row?.issueStatus) throw notFound(ISSUE_MESSAGES.notFound);
    return row;
  }

  /** The books of a page as this viewer may see them: a download link only once unlocked. */
  async function withLinks(rows: Book[], viewer: Viewer): Promise<Book[]> {
    const unlocked = new Set<string>();
    if (viewer.member && rows.length) {
      const found = await db
        .select({ bookId: bookUnlocks.bookId })
        .from(bookUnlocks)
        .where(
          and(
            eq(bookUnlocks.userId, viewer.member.id),
            inArray(
              bookUnlocks.bookId,
              rows.map((row) => row._id),
            ),
          ),
        );
      for (const { bookId } of found) unlocked.add(bookId);
    }
    return rows.map((row) => (unlocked.has(row._id) ? row : { ...row, downloadLink: '' }));
  }

  async function getBook(id: string): Promise<Book> {
    const [row] = await db.select().from(books).where(eq(books.id, id));
    if (!row) throw notFound(BOOK_MESSAGES.notFound);
    return toBook(row);
  }

  return {
    // —— accounts ——

    /** An admin's 结束会话 of a member: one session, or all; recorded in the audit log. */
    async endMemberSessions(actor: Actor, userId: string, sessionId?: string): Promise<number> {
      return db.transaction(async (tx) => {
        const user = await userRecord(userId, tx);
        if (!user) throw notFound(USER_MESSAGES.notFound);
        const ended = sessionId ? Number(await members.endOne(userId, sessionId, tx)) : await members.endAllOf([userId], tx);
        if (sessionId && !ended) throw notFound(SITE_MESSAGES.sessionNotFound);
        if (ended) {
          await deps.audit.record(tx, actor, {
            action: AUDIT_ACTIONS.endSessions,
            entity: 'user',
            entityId: userId,
            title: user.loginId,
            changes: [{ field: 'session', note: `结束了 ${ended} 个前台会话` }],
          });
        }
        return ended;
      });
    },

    async signIn(body: SiteLoginBody, captchaId: string | null, client: ClientInfo): Promise<SiteLoginAnswer> {
      await deps.auth.passCaptcha(captchaId, body.captcha);
      const user = await byLoginId(body.loginId);
      const succeeded = await throttled(body.loginId, client.ip, async () => Boolean(user) && (await passwordMatches(user, body.loginPwd)));
      if (!user || !succeeded) return { data: null };
      if (!user.enabled) return { data: { _id: user.id, loginId: user.loginId, enabled: false } };
      // Only after the password: a suspension is not told to whoever merely knows the account name.
      await deps.sanctions.refuseIfSanctioned(user.id, 'suspend');
      const at = now();
      // The server sets the time of the last sign-in (the old client PATCHed it itself).
      await writeTransaction(db, ['users'], (tx) => tx.update(users).set({ lastLoginDate: at }).where(eq(users.id, user.id)));
      const token = await members.start(user.id, body.remember ?? false, client);
      return { data: { _id: user.id, loginId: user.loginId, enabled: true }, token };
    },

    async signUp(body: SignUpBody, captchaId: string | null, client: ClientInfo): Promise<SignUpResult> {
      await deps.auth.passCaptcha(captchaId, body.captcha);
      await limits.take('signup', { ip: client.ip });
      if (await deps.userRepo.loginIdOwner(body.loginId)) throw conflict(USER_MESSAGES.taken);
      const at = now();
      // No password at all (never the old server's 123456): the member sets one from the personal centre.
      const row = {
        id: newId(at),
        loginId: body.loginId,
        passwordHash: '',
        nickname: body.nickname || `${DEFAULT_USER_NICKNAME}${randomInt(100_000, 1_000_000)}`,
        avatar: DEFAULT_AVATAR,
        points: DEFAULT_USER_POINTS,
        registerDate: at,
        lastLoginDate: at,
      };
      const verdict = body.nickname ? await screen(db, { kind: 'user', text: body.nickname, author: null, html: false }, at) : null;
      const created = await writeTransaction(db, ['users'], async (tx) => {
        const inserted = await deps.userRepo.insert(row, tx);
        // A nickname a rule found goes to the queue as the account's flag.
        if (inserted && verdict) await recordHold(tx, { kind: 'user', itemId: inserted.id, verdict }, at);
        return inserted;
      });
      if (!created) throw conflict(USER_MESSAGES.taken);
      const token = await members.start(created.id, false, client);
      return { result: ownProfile((await userRecord(created.id))!), token };
    },

    async logout(member: AuthenticatedMember): Promise<void> {
      await members.end(member.sessionId);
    },

    async loginIdTaken(loginId: string): Promise<boolean> {
      return (await deps.userRepo.loginIdOwner(loginId)) !== null;
    },

    /** A member's own record in full; anybody else's public part. A disabled user is nobody's to see. */
    async profile(id: string, viewer: Viewer): Promise<PublicProfile | OwnProfile> {
      const row = await userRecord(id);
      if (!row?.enabled) throw notFound(USER_MESSAGES.notFound);
      return viewer.member?.id === id ? ownProfile(row) : publicProfile(row);
    },

    async pointsRank(): Promise<PublicProfile[]> {
      const rows = await db
        .select()
        .from(users)
        .where(eq(users.enabled, true))
        .orderBy(desc(users.points), desc(users.registerDate), desc(users.id))
        .limit(POINTS_RANK_SIZE);
      return rows.map(publicProfile);
    },

    async updateOwn(member: AuthenticatedMember, id: string, body: SiteUpdateUserBody): Promise<OwnProfile> {
      if (id !== member.id) throw forbidden();
      const { loginPwd, ...fields } = body;
      // A nickname and an intro are what others read: a muted member cannot change them.
      const publicText = [fields.nickname, fields.intro].filter((text): text is string => Boolean(text));
      if (fields.nickname !== undefined || fields.intro !== undefined) await deps.sanctions.refuseIfSanctioned(member.id, 'mute');
      const verdict = publicText.length
        ? combine(...(await Promise.all(publicText.map((text) => screen(db, { kind: 'user', text, author: null, html: false }, now())))))
        : null;
      let passwordHash: string | undefined;
      // A new password of spaces only arrives trimmed to nothing: refused, never taken as "no change".
      if (loginPwd !== undefined) {
        checkUserPassword(loginPwd);
        const checkedAt = await members.passwordCheckedAt(member.sessionId);
        if (checkedAt === null || now() - checkedAt > PASSWORD_CHECK_VALID_MS) throw badRequest(SITE_MESSAGES.checkPasswordFirst);
        passwordHash = await hashPassword(loginPwd);
      }
      const changes = {
        ...fields,
        ...(fields.avatar !== undefined && { avatar: fields.avatar || DEFAULT_AVATAR }),
        ...(passwordHash && { passwordHash, passwordLegacy: false }),
      };
      const row = await writeTransaction(db, ['users'], async (tx) => {
        if (Object.keys(changes).length) await tx.update(users).set(changes).where(eq(users.id, id));
        if (verdict) await recordHold(tx, { kind: 'user', itemId: id, verdict }, now());
        // A new password signs the account out everywhere else; this session stays, its check used up.
        if (passwordHash) {
          await members.endAllOf([id], tx, member.sessionId);
          await members.markPasswordChecked(member.sessionId, null, tx);
        }
        return userRecord(id, tx);
      });
      if (!row) throw notFound(USER_MESSAGES.notFound);
      return ownProfile(row);
    },

    /** The personal centre's "current password" check: the caller's own account only, throttled. */
    async passwordCheck(member: AuthenticatedMember, body: PasswordCheckBody): Promise<boolean> {
      if (body.userId !== member.id) throw forbidden(SITE_MESSAGES.notOwnAccount);
      const user = await userRecord(member.id);
      if (!user) throw notFound(USER_MESSAGES.notFound);
      // An account made by sign-up has no password yet: its own session may set the first one.
      const passed = user.passwordHash === '' ? true : await throttled(user.loginId, member.ip, () => passwordMatches(user, body.loginPwd));
      if (passed) await members.markPasswordChecked(member.sessionId);
      return passed;
    },

    // —— questions and comments ——

    async listIssues(query: IssueListQuery): Promise<Page<Issue>> {
      return approvedIssues(query);
    },

    async getIssue(id: string): Promise<Issue> {
      return approvedIssueById(id);
    },

    /** The old client's PATCH of an issue: one view when it sends scanNumber, else nothing. */
    async viewIssue(id: string, viewer: Viewer, counts: boolean): Promise<Issue> {
      const row = await approvedIssue(id);
      if (counts) views.view('issues', id, viewerKey(viewer));
      return toIssue(row);
    },

    async ask(member: AuthenticatedMember, body: SiteCreateIssueBody): Promise<Issue> {
      await deps.sanctions.refuseIfSanctioned(member.id, 'mute');
      // A question refused as empty is not one of the hour's questions (nor is a comment, below).
      const issueContent = requiredHtml('issueContent', body.issueContent);
      await limits.take('issue', { memberId: member.id, ip: member.ip });
      const at = now();
      const id = newId(at);
      // The moderation rules (a 拒绝 word refuses here); a question waits for approval anyway, and
      // what a rule found goes with it into the queue.
      const verdict = combine(
        await screen(db, { kind: 'issue', text: body.issueTitle, author: null, html: false }, at),
        await screen(db, { kind: 'issue', text: issueContent, author: member.id }, at),
      );
      await writeTransaction(db, ['issues'], async (tx) => {
        if (!(await deps.userRepo.holdForUse(member.id, tx))) throw badRequest(USER_MESSAGES.notFound);
        if (!(await deps.typeRepo.holdForUse(body.typeId, tx))) throw badRequest(TYPE_MESSAGES.unknown);
        await deps.issueRepo.insert(
          {
            id,
            issueTitle: body.issueTitle,
            issueContent,
            scanNumber: 0,
            commentNumber: 0,
            issueStatus: false,
            issueDate: at,
            userId: member.id,
            typeId: body.typeId,
          },
          tx,
        );
        await recordHold(tx, { kind: 'issue', itemId: id, verdict }, at);
      });
      const row = await deps.issueRepo.findById(id);
      return toIssue(row!);
    },

    async issueComments(id: string, page: PageRequest): Promise<Page<CommentRow>> {
      return issueCommentPage(id, page);
    },

    async bookComments(id: string, page: PageRequest): Promise<Page<CommentRow>> {
      return bookCommentPage(id, page);
    },

    /**
     * A comment on an approved issue (+4 points) or a book (+2), counted on its parent, in one
     * transaction; one held by a moderation rule is neither counted nor paid for until approved.
     */
    async comment(member: AuthenticatedMember, body: SiteCreateCommentBody): Promise<Comment> {
      const onIssue = body.commentType === COMMENT_TYPES.issue;
      const parentId = onIssue ? body.issueId : body.bookId;
      if (!parentId) throw missingField(onIssue ? 'issueId' : 'bookId');
      const commentContent = requiredHtml('commentContent', body.commentContent);
      await deps.sanctions.refuseIfSanctioned(member.id, 'mute');
      await limits.take('comment', { memberId: member.id, ip: member.ip });
      const at = now();
      const id = newId(at);
      const verdict = await screen(db, { kind: 'comment', text: commentContent, author: member.id }, at);
      const locks = [...new Set(['users', ...ENTITIES.comment.bin.locks] as const)];
      return writeTransaction(db, locks, async (tx) => {
        if (onIssue) {
          const [issue] = await tx.select({ status: issues.issueStatus }).from(issues).where(eq(issues.id, parentId)).for('share');
          if (!issue?.status) throw notFound(ISSUE_MESSAGES.notFound);
        }
        if (!(await deps.userRepo.holdForUse(member.id, tx))) throw badRequest(USER_MESSAGES.notFound);
        // A held comment is neither counted nor paid for until 审核台 approves it (comment-credit.ts).
        const held = holds(verdict);
        const typeId = await deps.commentRepo.countOnParent(body.commentType, parentId, held ? 0 : 1, tx);
        if (!typeId) throw notFound(onIssue ? ISSUE_MESSAGES.notFound : BOOK_MESSAGES.notFound);
        const inserted = await deps.commentRepo.insert(
          {
            id,
            userId: member.id,
            issueId: onIssue ? parentId : null,
            bookId: onIssue ? null : parentId,
            typeId,
            commentContent,
            commentDate: at,
            commentType: body.commentType,
            // Held by a rule: seen by admins only, until approved in 审核台.
            held,
          },
          tx,
        );
        await recordHold(tx, { kind: 'comment', itemId: id, verdict }, at);
        if (!held)
          await movePoints(
            tx,
            member.id,
            onIssue ? POINTS_RULES.issueComment : POINTS_RULES.bookComment,
            onIssue ? POINTS_REASONS.issueComment : POINTS_REASONS.bookComment,
            id,
          );
        return {
          _id: inserted.id,
          userId: inserted.userId,
          issueId: inserted.issueId,
          bookId: inserted.bookId,
          typeId: inserted.typeId,
          commentContent: inserted.commentContent,
          commentDate: inserted.commentDate,
          commentType: inserted.commentType as Comment['commentType'],
        };
      });
    },

    // —— books, interview questions, types ——

    async listBooks(query: BookListQuery, viewer: Viewer): Promise<Page<Book>> {
      const page = await deps.books.list(query);
      return { ...page, data: await withLinks(page.data, viewer) };
    },

    async getBook(id: string, viewer: Viewer): Promise<Book> {
      const [book] = await withLinks([await getBook(id)], viewer);
      return book;
    },

    async viewBook(id: string, viewer: Viewer, counts: boolean): Promise<Book> {
      const [book] = await withLinks([await getBook(id)], viewer);
      if (counts) views.view('books', id, viewerKey(viewer));
      return book;
    },

    /** Pays a book's requirePoints once; answers the book with its download link. */
    async unlockBook(member: AuthenticatedMember, id: string): Promise<Book> {
      const book = await getBook(id);
      await writeTransaction(db, ['users', 'books'], async (tx) => {
        const inserted = await tx
          .insert(bookUnlocks)
          .values({ userId: member.id, bookId: id, at: now() })
          .onConflictDoNothing()
          .returning();
        if (!inserted.length || book.requirePoints === 0) return;
        const balance = await movePoints(tx, member.id, -book.requirePoints, POINTS_REASONS.bookUnlock, id);
        if (balance === null) throw badRequest(SITE_MESSAGES.notEnoughPoints);
      });
      return book;
    },

    listInterviews(query: InterviewListQuery): Promise<Page<Interview>> {
      return deps.interviews.list(query);
    },

    getInterview(id: string): Promise<Interview> {
      return deps.interviews.get(id);
    },

    /** The questions' titles, one array per type in the order GET /api/type lists the types. */
    async interviewTitles(): Promise<Array<Array<{ _id: string; interviewTitle: string }>>> {
      const [typeList, rows] = await Promise.all([
        deps.types.list(),
        db
          .select({ id: interviews.id, title: interviews.interviewTitle, typeId: interviews.typeId })
          .from(interviews)
          .orderBy(desc(interviews.onShelfDate), desc(interviews.id)),
      ]);
      const byType = new Map(typeList.map((type) => [type._id, [] as Array<{ _id: string; interviewTitle: string }>]));
      for (const row of rows) byType.get(row.typeId)?.push({ _id: row.id, interviewTitle: row.title });
      return [...byType.values()];
    },

    listTypes() {
      return deps.types.list();
    },

    // —— the back-office's view of a member ——

    async pointsHistory(userId: string, { current = FIRST_PAGE, pageSize = DEFAULT_PAGE_SIZE }: PageRequest): Promise<Page<PointsEntry>> {
      if (!(await deps.userRepo.findById(userId))) throw notFound(USER_MESSAGES.notFound);
      const [[{ n }], rows] = await Promise.all([
        db.select({ n: count() }).from(pointsLedger).where(eq(pointsLedger.userId, userId)),
        db
          .select()
          .from(pointsLedger)
          .where(eq(pointsLedger.userId, userId))
          .orderBy(desc(pointsLedger.at), desc(pointsLedger.id))
          .limit(pageSize)
          .offset((current - 1) * pageSize),
      ]);
      const data = rows.map((row) => ({
        _id: String(row.id),
        delta: row.delta,
        reason: row.reason,
        refId: row.refId,
        balance: row.balance,
        at: row.at,
      }));
      return pageOf(data, n, { current, pageSize });
    },
  };
}
