import { Type, type Static } from '@sinclair/typebox';
import { Id, IdParams, ID_PATTERN, NullableRefId } from './ids';
import { PageQuery } from './paging';
import { MODERATION_RULES } from './values/moderation';
import { AWAITING_APPROVAL_RULE } from './values/review';
import { type ReviewKind, REVIEW_DECISION_MAX, REVIEW_DECISIONS, REVIEW_KINDS, SANCTION_DAYS, SANCTION_KINDS } from './values/review';

export * from './values/review';

export const ReviewKindSchema = Type.Union([Type.Literal('issue'), Type.Literal('comment'), Type.Literal('user')], {
  description: REVIEW_KINDS.join('、'),
});
const SanctionKindSchema = Type.Union([Type.Literal('mute'), Type.Literal('suspend')], { description: SANCTION_KINDS.join('、') });
const DecisionSchema = Type.Union([Type.Literal('approve'), Type.Literal('reject')], { description: REVIEW_DECISIONS.join('、') });

export const ReviewListQuery = Type.Object(
  {
    ...PageQuery,
    kind: Type.Optional(Type.Union([ReviewKindSchema, Type.Literal('')], { description: '只看一类：issue、comment、user' })),
    // One of the rules by name (an exact choice, not a text search): the moderation rules, or the
    // questions waiting for approval without a rule.
    rule: Type.Optional(
      Type.Union(
        [...Object.keys(MODERATION_RULES), AWAITING_APPROVAL_RULE, ''].map((name) => Type.Literal(name)),
        { description: '只看某条规则拦下的：word、firstPosts、newAccountLinks、reviewFirst、awaiting-approval' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ReviewListQuery = Static<typeof ReviewListQuery>;

/** Why an item waits: the rule that fired and the words it matched (highlighted by the screen). */
export const ReviewReason = Type.Object(
  { rule: Type.String(), action: Type.String(), words: Type.Array(Type.String()) },
  { title: 'ReviewReason' },
);
export type ReviewReason = Static<typeof ReviewReason>;

export const Sanction = Type.Object(
  {
    _id: Id,
    userId: Id,
    kind: SanctionKindSchema,
    days: Type.Union([Type.Integer(), Type.Null()], { description: '天数；null 为永久' }),
    reason: Type.String(),
    by: Type.Object({ _id: Id, loginId: Type.String() }),
    startsAt: Type.Integer({ description: 'epoch 毫秒' }),
    endsAt: Type.Union([Type.Integer(), Type.Null()], { description: 'epoch 毫秒；null 为永久' }),
    liftedAt: Type.Union([Type.Integer(), Type.Null()], { description: '解除时间；到期自动解除时 liftedBy 为 null' }),
    liftedBy: Type.Union([Type.Object({ _id: Id, loginId: Type.String() }), Type.Null()]),
    active: Type.Boolean({ description: '此刻是否生效' }),
  },
  { title: 'Sanction' },
);
export type Sanction = Static<typeof Sanction>;

export const CreateSanctionBody = Type.Object(
  {
    kind: SanctionKindSchema,
    days: Type.Union([Type.Literal(1), Type.Literal(3), Type.Literal(7), Type.Literal(30), Type.Null()], {
      description: `${SANCTION_DAYS.join('、')} 天，null 为永久`,
    }),
    reason: Type.String({ minLength: 1, maxLength: 200, description: '处罚理由' }),
  },
  { additionalProperties: false },
);
export type CreateSanctionBody = Static<typeof CreateSanctionBody>;

export const SanctionParams = Type.Object({
  id: Type.String({ pattern: ID_PATTERN }),
  sanctionId: Type.String({ pattern: ID_PATTERN }),
});

export const UserNote = Type.Object(
  { _id: Id, userId: Id, body: Type.String(), by: Type.Object({ _id: Id, loginId: Type.String() }), createdAt: Type.Integer() },
  { title: 'UserNote' },
);
export type UserNote = Static<typeof UserNote>;

export const CreateNoteBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 1000, description: '备注内容' }) },
  { additionalProperties: false },
);
export type CreateNoteBody = Static<typeof CreateNoteBody>;

export const NoteParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }), noteId: Type.String({ pattern: ID_PATTERN }) });

const Counts = Type.Object({
  published: Type.Integer({ description: '已发布' }),
  held: Type.Integer({ description: '待审（未通过或被规则拦下）' }),
  rejected: Type.Integer({ description: '被审核拒绝' }),
});

/** The author's file (作者档案): on every queue item and on the user's detail. */
export const AuthorFile = Type.Object(
  {
    _id: Id,
    loginId: Type.String(),
    nickname: Type.String(),
    avatar: Type.String(),
    enabled: Type.Boolean(),
    registerDate: Type.Integer(),
    accountAgeDays: Type.Integer({ description: '注册至今的天数' }),
    points: Type.Integer(),
    issues: Counts,
    comments: Counts,
    sanctions: Type.Array(Sanction, { description: '处罚记录，新的在前' }),
    notes: Type.Array(UserNote, { description: '管理员备注，新的在前' }),
  },
  { title: 'AuthorFile' },
);
export type AuthorFile = Static<typeof AuthorFile>;

export const ReviewItem = Type.Object(
  {
    kind: ReviewKindSchema,
    id: Id,
    title: Type.String({ description: '问答标题；评论为空；用户为昵称' }),
    content: Type.String({ description: '内容（已过滤的安全 HTML）' }),
    postedAt: Type.Integer({ description: 'epoch 毫秒' }),
    where: Type.Object({
      kind: Type.Union([Type.Literal('issue'), Type.Literal('book'), Type.Literal('user'), Type.Literal('')]),
      id: NullableRefId,
      title: Type.String(),
    }),
    reasons: Type.Array(ReviewReason),
    author: AuthorFile,
  },
  { title: 'ReviewItem' },
);
export type ReviewItem = Static<typeof ReviewItem>;

export const ReviewItemRef = Type.Object({ kind: ReviewKindSchema, id: Type.String({ pattern: ID_PATTERN }) });
export type ReviewItemRef = Static<typeof ReviewItemRef>;

export const ReviewDecisionBody = Type.Object(
  {
    items: Type.Array(ReviewItemRef, { minItems: 1, maxItems: REVIEW_DECISION_MAX }),
    decision: DecisionSchema,
    reason: Type.Optional(Type.String({ maxLength: 200, description: '拒绝理由' })),
  },
  { additionalProperties: false },
);
export type ReviewDecisionBody = Static<typeof ReviewDecisionBody>;

export const ReviewDecisionResult = Type.Object(
  {
    done: Type.Integer(),
    auditIds: Type.Array(Type.String(), { description: '每项的操作日志编号：撤销时逐条 POST /api/audit/{id}/revert' }),
  },
  { title: 'ReviewDecisionResult' },
);
export type ReviewDecisionResult = Static<typeof ReviewDecisionResult>;

export const ReviewReasonEntry = Type.Object({ _id: Id, text: Type.String(), createdAt: Type.Integer() }, { title: 'ReviewReasonEntry' });
export type ReviewReasonEntry = Static<typeof ReviewReasonEntry>;
export const CreateReasonBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ReviewCounts = Type.Object(
  { total: Type.Integer(), issue: Type.Integer(), comment: Type.Integer(), user: Type.Integer() },
  { title: 'ReviewCounts' },
);
export type ReviewCounts = Static<typeof ReviewCounts>;

export const PresenceBody = Type.Object(
  {
    kind: ReviewKindSchema,
    id: Type.String({ pattern: ID_PATTERN }),
    open: Type.Boolean({ description: 'true：正在查看（每 10 秒重报一次）；false：已离开' }),
  },
  { additionalProperties: false },
);

export { IdParams };

/** The live events' presence message: an admin looking at an item (or no longer). */
export interface PresenceEvent {
  kind: ReviewKind;
  id: string;
  adminId: string;
  loginId: string;
  open: boolean;
}

/** How long a presence lasts without being said again, and how often a screen says it. */
export const PRESENCE_TTL_MS = 20_000;
export const PRESENCE_REPEAT_MS = 10_000;
