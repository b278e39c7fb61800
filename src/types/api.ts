/**
 * Payload shapes of docs/api.md, written by hand until they are generated from the server's
 * OpenAPI document. Ids are 24 lowercase hex characters; times are epoch milliseconds.
 */

/** 1 is SuperAdmin, 2 is NormalAdmin (docs/requirements.md, roles). */
export type Permission = 1 | 2;

export interface Admin {
  _id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  permission: Permission;
  enabled: boolean;
  createdAt: number;
}

/** What whoami answers: the admin without the account state and dates. */
export type AdminInfo = Pick<Admin, '_id' | 'loginId' | 'nickname' | 'avatar' | 'permission'>;

/** The server returns a generated password once, only when the request carried none. */
export interface CreatedAdmin extends Admin {
  initialPassword?: string;
}

export interface NewAdmin {
  loginId: string;
  loginPwd?: string;
  nickname?: string;
  avatar?: string;
  permission: Permission;
}

export interface AdminChanges {
  nickname?: string;
  avatar?: string;
  permission?: Permission;
  enabled?: boolean;
  loginPwd?: string;
}

export interface LoginParams {
  loginId: string;
  loginPwd: string;
  captcha: string;
  remember: boolean;
}

/** The reference's shape, kept: the token beside the admin. */
export interface LoginResult {
  token: string;
  data: Pick<Admin, '_id' | 'loginId' | 'nickname' | 'avatar' | 'permission' | 'enabled'>;
}

export interface Type {
  _id: string;
  typeName: string;
  createdAt: number;
}

export interface Page<T> {
  currentPage: number;
  eachPage: number;
  count: number;
  totalPage: number;
  data: T[];
}

export interface User {
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
}

/** What deleting a user takes along with it. */
export interface UserImpact {
  issues: number;
  comments: number;
}

/** The author as list rows carry it. */
export type UserBrief = Pick<User, '_id' | 'nickname' | 'avatar'>;

export interface Issue {
  _id: string;
  issueTitle: string;
  issueContent: string;
  scanNumber: number;
  commentNumber: number;
  /** false = waiting for review, true = approved. */
  issueStatus: boolean;
  issueDate: number;
  userId: string;
  typeId: string;
  user: UserBrief | null;
}

/** 1 = on an issue, 2 = on a book. */
export type CommentType = 1 | 2;

export interface Comment {
  _id: string;
  userId: string;
  issueId: string | null;
  bookId: string | null;
  typeId: string;
  commentContent: string;
  commentDate: number;
  commentType: CommentType;
  user: UserBrief | null;
  target: { _id: string; title: string } | null;
}

export interface Interview {
  _id: string;
  interviewTitle: string;
  /** Sanitised HTML from the rich editor. */
  interviewContent: string;
  onShelfDate: number;
  typeId: string;
}

/** What the interview form sends: the server sets `_id` and `onShelfDate`. */
export type InterviewFields = Pick<Interview, 'interviewTitle' | 'interviewContent' | 'typeId'>;

export interface Book {
  _id: string;
  bookTitle: string;
  /** Cover address; the server stores its default cover when none is given. */
  bookPic: string;
  downloadLink: string;
  /** Sanitised HTML from the rich editor. */
  bookIntro: string;
  scanNumber: number;
  commentNumber: number;
  onShelfDate: number;
  requirePoints: number;
  typeId: string;
}

/** What the book form sends: the server sets `_id`, the counters and `onShelfDate`. */
export type BookFields = Pick<
  Book,
  'bookTitle' | 'bookPic' | 'downloadLink' | 'bookIntro' | 'requirePoints' | 'typeId'
>;
