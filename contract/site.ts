import { Type, type Static } from '@sinclair/typebox';
import { ImagePath, LoginId } from './fields';
import { Id, RefId } from './ids';
import { CommentType } from './comment';
import { HtmlField } from './fields';

export * from './values/site';

/** What anybody may see of a user (GET /api/user/:id by a visitor or another member). */
export const PublicProfile = Type.Object(
  {
    _id: Id,
    nickname: Type.String(),
    avatar: Type.String(),
    intro: Type.String(),
    points: Type.Integer(),
    registerDate: Type.Integer({ description: 'epoch 毫秒' }),
  },
  { title: 'PublicProfile' },
);
export type PublicProfile = Static<typeof PublicProfile>;

/** A member's own record, as the personal centre reads it. */
export const OwnProfile = Type.Composite(
  [
    PublicProfile,
    Type.Object({
      loginId: Type.String(),
      mail: Type.String(),
      qq: Type.String(),
      wechat: Type.String(),
      enabled: Type.Boolean(),
      lastLoginDate: Type.Integer({ description: 'epoch 毫秒' }),
      hasPassword: Type.Boolean({ description: 'false：注册后还没有设置自己的密码' }),
    }),
  ],
  { title: 'OwnProfile' },
);
export type OwnProfile = Static<typeof OwnProfile>;

export const SiteWhoAmI = Type.Object({ _id: Id, loginId: Type.String() }, { title: 'SiteWhoAmI' });

/** POST /api/user/login: the reference's three shapes (wrong password, frozen, signed in). */
export const SiteLoginAnswer = Type.Object(
  {
    data: Type.Union([Type.Null(), Type.Object({ _id: Id, loginId: Type.String(), enabled: Type.Boolean() })]),
    token: Type.Optional(Type.String()),
  },
  { title: 'SiteLoginAnswer' },
);
export type SiteLoginAnswer = Static<typeof SiteLoginAnswer>;

export const SiteLoginBody = Type.Object(
  {
    loginId: Type.String({ minLength: 1, maxLength: 64 }),
    loginPwd: Type.String({ minLength: 1, maxLength: 128 }),
    captcha: Type.String({ maxLength: 16 }),
    remember: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type SiteLoginBody = Static<typeof SiteLoginBody>;

/** Sign-up: no password (the account has none until the member sets one); other fields are dropped. */
export const SignUpBody = Type.Object(
  {
    loginId: LoginId,
    nickname: Type.Optional(Type.String({ maxLength: 32 })),
    captcha: Type.String({ maxLength: 16 }),
  },
  { additionalProperties: false },
);
export type SignUpBody = Static<typeof SignUpBody>;

export const SignUpResult = Type.Object({ result: OwnProfile, token: Type.String() }, { title: 'SignUpResult' });
export type SignUpResult = Static<typeof SignUpResult>;

/** A member's PATCH of their own record: these fields only (the rest, points included, is dropped). */
export const SiteUpdateUserBody = Type.Object(
  {
    nickname: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    avatar: Type.Optional(ImagePath),
    intro: Type.Optional(Type.String({ maxLength: 500 })),
    mail: Type.Optional(Type.String({ maxLength: 254, pattern: '^(|[^\\s@]+@[^\\s@]+\\.[^\\s@]+)$' })),
    qq: Type.Optional(Type.String({ maxLength: 12, pattern: '^(|[1-9][0-9]{4,11})$' })),
    wechat: Type.Optional(Type.String({ maxLength: 64 })),
    loginPwd: Type.Optional(Type.String({ maxLength: 128, description: '新密码；须先用 passwordcheck 验证当前密码' })),
  },
  { additionalProperties: false },
);
export type SiteUpdateUserBody = Static<typeof SiteUpdateUserBody>;

export const PasswordCheckBody = Type.Object({ userId: RefId, loginPwd: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
export type PasswordCheckBody = Static<typeof PasswordCheckBody>;

/** A member's question: the asker is the caller, whatever userId says. */
export const SiteCreateIssueBody = Type.Object(
  {
    issueTitle: Type.String({ minLength: 1, maxLength: 200 }),
    issueContent: HtmlField(500_000),
    typeId: RefId,
  },
  { additionalProperties: false },
);
export type SiteCreateIssueBody = Static<typeof SiteCreateIssueBody>;

/** A member's comment: the author is the caller; the type is the target's. */
export const SiteCreateCommentBody = Type.Object(
  {
    commentType: CommentType,
    issueId: Type.Optional(Type.Union([RefId, Type.Null()])),
    bookId: Type.Optional(Type.Union([RefId, Type.Null()])),
    commentContent: HtmlField(50_000),
  },
  { additionalProperties: false },
);
export type SiteCreateCommentBody = Static<typeof SiteCreateCommentBody>;

/** The old client's PATCH of an issue or a book: only scanNumber means something (one view). */
export const ViewBody = Type.Object(
  { scanNumber: Type.Optional(Type.Number({ minimum: 0, maximum: 1e15 })) },
  { additionalProperties: false },
);

export const PointsEntry = Type.Object(
  {
    _id: Type.String(),
    delta: Type.Integer(),
    reason: Type.String(),
    refId: Type.String(),
    balance: Type.Integer(),
    at: Type.Integer({ description: 'epoch 毫秒' }),
  },
  { title: 'PointsEntry' },
);
export type PointsEntry = Static<typeof PointsEntry>;

export const MemberSession = Type.Object(
  {
    id: Type.String(),
    createdAt: Type.Integer(),
    expiresAt: Type.Integer(),
    ip: Type.String(),
    userAgent: Type.String(),
  },
  { title: 'MemberSession' },
);
export type MemberSession = Static<typeof MemberSession>;

export const InterviewTitles = Type.Array(Type.Array(Type.Object({ _id: Id, interviewTitle: Type.String() })));
