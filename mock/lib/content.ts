/**
 * The community's content for `npm run dev:mock`: users, books, interview questions, issues and
 * comments, held in memory beside mock/lib/store.ts's admins and types, with the rules the server
 * keeps in its transactions (docs/api.md): a comment's type is its parent's, `commentNumber` is
 * always the true count, and removing a user, an issue or a book takes what hangs on it along.
 *
 * The demo rows are dated relative to the start, so the home page's 30-day charts always show
 * recent activity; a seeded random keeps the same shape from one start to the next.
 */
import { randomInt } from 'crypto';
import { db, DEFAULT_AVATAR, objectId } from './store';
import {
  BOOKS,
  GENERIC_REPLIES,
  GENERIC_REVIEWS,
  INTERVIEWS,
  ISSUES,
  USERS,
  type TypeName,
} from './demo';

export const DEFAULT_BOOK_COVER = '/default-cover.svg';
/** A new user's nickname when none is given: this, followed by digits (as on the server). */
export const DEFAULT_USER_NICKNAME = '新用户';
export const DEFAULT_USER_POINTS = 100;
/** Every seeded user's password, so a developer can tell what a login would need. */
export const SEEDED_USER_PASSWORD = '123456';

export interface MockUser {
  _id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  mail: string;
  qq: string;
  wechat: string;
  intro: string;
  points: number;
  enabled: boolean;
  registerDate: number;
  lastLoginDate: number;
  /** Kept only so that a password can be "set"; never part of an answer. */
  password: string;
}

export type PublicUser = Omit<MockUser, 'password'>;

export interface UserSummary {
  _id: string;
  nickname: string;
  avatar: string;
}

export interface MockBook {
  _id: string;
  bookTitle: string;
  bookPic: string;
  downloadLink: string;
  bookIntro: string;
  scanNumber: number;
  commentNumber: number;
  onShelfDate: number;
  requirePoints: number;
  typeId: string;
}

export interface MockInterview {
  _id: string;
  interviewTitle: string;
  interviewContent: string;
  onShelfDate: number;
  typeId: string;
}

export interface MockIssue {
  _id: string;
  issueTitle: string;
  issueContent: string;
  scanNumber: number;
  commentNumber: number;
  issueStatus: boolean;
  issueDate: number;
  userId: string;
  typeId: string;
}

export type CommentType = 1 | 2;

export interface MockComment {
  _id: string;
  userId: string;
  issueId: string | null;
  bookId: string | null;
  typeId: string;
  commentContent: string;
  commentDate: number;
  commentType: CommentType;
}

export const content = {
  users: [] as MockUser[],
  books: [] as MockBook[],
  interviews: [] as MockInterview[],
  issues: [] as MockIssue[],
  comments: [] as MockComment[],
};

// ---------------------------------------------------------------------------------------------
// Views: what the answers carry.

export function publicUser(user: MockUser): PublicUser {
  const { password: _neverSent, ...rest } = user;
  return rest;
}

/** The author beside an issue or a comment. A removed user takes their rows along, so the
 * fallback only guards against a row written by hand in a debugger. */
export function userSummary(userId: string): UserSummary {
  const user = content.users.find((u) => u._id === userId);
  return user
    ? { _id: user._id, nickname: user.nickname, avatar: user.avatar }
    : { _id: userId, nickname: '已注销用户', avatar: DEFAULT_AVATAR };
}

export function issueView(issue: MockIssue) {
  return { ...issue, user: userSummary(issue.userId) };
}

export function commentView(comment: MockComment) {
  const parentId = comment.issueId ?? comment.bookId ?? '';
  const title =
    comment.commentType === 1
      ? content.issues.find((i) => i._id === parentId)?.issueTitle
      : content.books.find((b) => b._id === parentId)?.bookTitle;
  return {
    ...comment,
    user: userSummary(comment.userId),
    target: { _id: parentId, title: title ?? '' },
  };
}

/** "Newest first", as the server sorts: by the date, then by the (time-ordered) id. */
export function newestFirst<T extends { _id: string }>(dateOf: (row: T) => number) {
  return (a: T, b: T): number =>
    dateOf(b) - dateOf(a) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Rules the server keeps in its transactions.

export function typeExists(typeId: string): boolean {
  return db.types.some((t) => t._id === typeId);
}

export function userExists(userId: string): boolean {
  return content.users.some((u) => u._id === userId);
}

/** What still uses a type: the type mock refuses to delete it while anything does (409). */
export function typeUsage(typeId: string): { books: number; interviews: number; issues: number; comments: number } {
  const uses = (row: { typeId: string }) => row.typeId === typeId;
  return {
    books: content.books.filter(uses).length,
    interviews: content.interviews.filter(uses).length,
    issues: content.issues.filter(uses).length,
    comments: content.comments.filter(uses).length,
  };
}

/** Sets the commentNumber of these issues and books to their true count. */
function recount(issueIds: Iterable<string>, bookIds: Iterable<string>): void {
  for (const id of new Set(issueIds)) {
    const issue = content.issues.find((i) => i._id === id);
    if (issue) issue.commentNumber = content.comments.filter((c) => c.issueId === id).length;
  }
  for (const id of new Set(bookIds)) {
    const book = content.books.find((b) => b._id === id);
    if (book) book.commentNumber = content.comments.filter((c) => c.bookId === id).length;
  }
}

/** Removes the comments matching `which` and puts right the counters of what they were on. */
function removeComments(which: (comment: MockComment) => boolean): void {
  const removed = content.comments.filter(which);
  content.comments = content.comments.filter((c) => !which(c));
  recount(
    removed.flatMap((c) => (c.issueId ? [c.issueId] : [])),
    removed.flatMap((c) => (c.bookId ? [c.bookId] : [])),
  );
}

/** What goes with a user: their issues, and the comments they wrote or that sit under their issues. */
export function userImpact(userId: string): { issues: number; comments: number } {
  const issueIds = new Set(content.issues.filter((i) => i.userId === userId).map((i) => i._id));
  return {
    issues: issueIds.size,
    comments: content.comments.filter(
      (c) => c.userId === userId || (c.issueId !== null && issueIds.has(c.issueId)),
    ).length,
  };
}

export function removeUser(userId: string): void {
  const issueIds = new Set(content.issues.filter((i) => i.userId === userId).map((i) => i._id));
  removeComments((c) => c.userId === userId || (c.issueId !== null && issueIds.has(c.issueId)));
  content.issues = content.issues.filter((i) => i.userId !== userId);
  content.users = content.users.filter((u) => u._id !== userId);
}

export function removeIssue(issueId: string): void {
  removeComments((c) => c.issueId === issueId);
  content.issues = content.issues.filter((i) => i._id !== issueId);
}

export function removeBook(bookId: string): void {
  removeComments((c) => c.bookId === bookId);
  content.books = content.books.filter((b) => b._id !== bookId);
}

export function removeInterview(interviewId: string): void {
  content.interviews = content.interviews.filter((i) => i._id !== interviewId);
}

export function removeComment(commentId: string): void {
  removeComments((c) => c._id === commentId);
}

/** A comment's type follows its parent's: moving an issue or a book moves its comments. */
export function retypeComments(commentType: CommentType, parentId: string, typeId: string): void {
  for (const comment of content.comments) {
    const parent = commentType === 1 ? comment.issueId : comment.bookId;
    if (parent === parentId) comment.typeId = typeId;
  }
}

/** Adds a comment under its issue or book (which must exist) and counts it there. */
export function addComment(fields: Omit<MockComment, '_id' | 'typeId'>): MockComment {
  const parentId = fields.commentType === 1 ? fields.issueId : fields.bookId;
  const parent =
    fields.commentType === 1
      ? content.issues.find((i) => i._id === parentId)
      : content.books.find((b) => b._id === parentId);
  if (!parent) throw new Error(`no parent ${String(parentId)} for a comment`);
  const comment: MockComment = {
    _id: objectId(fields.commentDate),
    userId: fields.userId,
    issueId: fields.issueId,
    bookId: fields.bookId,
    typeId: parent.typeId,
    commentContent: fields.commentContent,
    commentDate: fields.commentDate,
    commentType: fields.commentType,
  };
  content.comments.push(comment);
  recount(comment.issueId ? [comment.issueId] : [], comment.bookId ? [comment.bookId] : []);
  return comment;
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** Like the server's: 16 characters without look-alikes, shown once as initialPassword. */
export function randomPassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

export function defaultNickname(): string {
  return `${DEFAULT_USER_NICKNAME}${randomInt(100_000, 1_000_000)}`;
}

// ---------------------------------------------------------------------------------------------
// Demo rows.

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** A small seeded generator (mulberry32): the same demo on every start. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seed(now: number): void {
  const random = seededRandom(20240601);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];

  const typeIdOf = (name: TypeName): string => {
    const type = db.types.find((t) => t.typeName === name);
    // store.ts seeds every name demo.ts uses; a mismatch is a bug in the demo, not a user error.
    if (!type) throw new Error(`mock/lib/demo.ts uses the type ${name}, which store.ts does not seed`);
    return type._id;
  };

  // Users joined over the last ~170 days, a handful within the charts' 30 days.
  content.users = USERS.map((demo, i) => {
    const registerDate = now - Math.round((170 - i * 4.7) * DAY) + between(0, 20) * HOUR;
    const lastLoginDate = Math.min(now - HOUR, registerDate + between(0, now - registerDate));
    const digits = String(between(10_000, 99_999));
    return {
      _id: objectId(registerDate),
      loginId: demo.loginId,
      nickname: demo.nickname,
      avatar: DEFAULT_AVATAR,
      mail: demo.mail ? `${demo.loginId.toLowerCase()}@${demo.mail}` : '',
      qq: demo.qq ? `${between(1, 9)}${digits}${between(100, 999)}` : '',
      wechat: demo.wechat ? `wx_${demo.loginId.toLowerCase()}` : '',
      intro: demo.intro,
      points: between(0, 60) * 10,
      enabled: demo.enabled,
      registerDate,
      lastLoginDate,
      password: SEEDED_USER_PASSWORD,
    };
  });
  const registeredBy = (at: number) => content.users.filter((u) => u.registerDate < at);

  content.books = BOOKS.map((demo, i) => {
    const onShelfDate = now - Math.round((150 - i * 7.3) * DAY) + between(0, 10) * HOUR;
    return {
      _id: objectId(onShelfDate),
      bookTitle: demo.title,
      bookPic: DEFAULT_BOOK_COVER,
      downloadLink: `https://pan.baidu.com/s/1${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`,
      bookIntro: demo.intro,
      scanNumber: between(80, 3_000),
      commentNumber: 0,
      onShelfDate,
      requirePoints: demo.points,
      typeId: typeIdOf(demo.type),
    };
  });

  content.interviews = INTERVIEWS.map((demo, i) => {
    const onShelfDate = now - Math.round((160 - i * 7.9) * DAY) + between(0, 10) * HOUR;
    return {
      _id: objectId(onShelfDate),
      interviewTitle: demo.title,
      interviewContent: demo.content,
      onShelfDate,
      typeId: typeIdOf(demo.type),
    };
  });

  // Approved issues over the last ~100 days; those waiting for review are from the last 10.
  let approvedIndex = 0;
  let waitingIndex = 0;
  const approvedCount = ISSUES.filter((d) => d.approved).length;
  const issueReplies: Array<{ issue: MockIssue; replies: string[] }> = [];
  content.issues = ISSUES.map((demo) => {
    const daysAgo = demo.approved
      ? 100 - (approvedIndex++ * 97) / approvedCount
      : 10 - waitingIndex++ * 1.2;
    const issueDate = now - Math.round(daysAgo * DAY) + between(0, 8) * HOUR;
    const author = pick(registeredBy(issueDate).filter((u) => u.enabled));
    const issue: MockIssue = {
      _id: objectId(issueDate),
      issueTitle: demo.title,
      issueContent: demo.content,
      scanNumber: demo.approved ? between(30, 1_800) : between(0, 12),
      commentNumber: 0,
      issueStatus: demo.approved,
      issueDate,
      userId: author._id,
      typeId: typeIdOf(demo.type),
    };
    issueReplies.push({ issue, replies: demo.replies });
    return issue;
  });

  // A reply comes after its parent, from someone registered by then (never the issue's author).
  const reply = (commentType: CommentType, parentId: string, after: number, html: string, not?: string) => {
    const commentDate = after + Math.floor(random() * (now - after) * 0.9) + HOUR;
    const author = pick(registeredBy(commentDate).filter((u) => u._id !== not));
    addComment({
      userId: author._id,
      issueId: commentType === 1 ? parentId : null,
      bookId: commentType === 2 ? parentId : null,
      commentContent: html,
      commentDate,
      commentType,
    });
  };
  for (const { issue, replies } of issueReplies) {
    for (const html of replies) reply(1, issue._id, issue.issueDate, html, issue.userId);
  }
  const approved = content.issues.filter((i) => i.issueStatus);
  GENERIC_REPLIES.forEach((html, i) => {
    const issue = approved[(i * 7) % approved.length];
    reply(1, issue._id, issue.issueDate, html, issue.userId);
  });
  BOOKS.forEach((demo, i) => {
    for (const html of demo.reviews) reply(2, content.books[i]._id, content.books[i].onShelfDate, html);
  });
  GENERIC_REVIEWS.forEach((html, i) => {
    const book = content.books[(i * 3) % content.books.length];
    reply(2, book._id, book.onShelfDate, html);
  });
}

seed(Date.now());
