import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { PageQuery, Paged, TextFilter } from './paging';
import {
  MODERATION_ACTIONS,
  MODERATION_KINDS,
  MODERATION_RULES,
  MODERATION_TEST_MAX_LENGTH,
  MODERATION_WORD_MAX_LENGTH,
  type ModerationAction,
  type ModerationKind,
  type ModerationRule,
} from './values/moderation';

export * from './values/moderation';

const literals = <K extends string>(keys: K[], description: string) =>
  Type.Union(
    keys.map((key) => Type.Literal(key)),
    { description },
  );

export const ModerationActionSchema = literals(
  Object.keys(MODERATION_ACTIONS) as ModerationAction[],
  'reject 拒绝 | hold 待审 | flag 标记',
);
export const ModerationRuleSchema = literals(Object.keys(MODERATION_RULES) as ModerationRule[], '触发的规则');
export const ModerationKindSchema = literals(Object.keys(MODERATION_KINDS) as ModerationKind[], 'issue 问答 | comment 评论 | user 用户');

export const ModerationWord = Type.Object(
  {
    _id: Id,
    word: Type.String(),
    action: ModerationActionSchema,
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
  },
  { title: 'ModerationWord' },
);
export type ModerationWord = Static<typeof ModerationWord>;

export const ModerationWordQuery = Type.Object(
  {
    ...PageQuery,
    word: TextFilter('敏感词'),
    action: Type.Optional(Type.Union([ModerationActionSchema, Type.Literal('')])),
  },
  { additionalProperties: false },
);
export type ModerationWordQuery = Static<typeof ModerationWordQuery>;
export const ModerationWordPage = Paged(ModerationWord);

export const CreateModerationWordBody = Type.Object(
  {
    word: Type.String({ minLength: 1, maxLength: MODERATION_WORD_MAX_LENGTH }),
    action: ModerationActionSchema,
  },
  { additionalProperties: false },
);
export type CreateModerationWordBody = Static<typeof CreateModerationWordBody>;

/** Why a rule fired: the rule, what it does, and for 敏感词 the words of the list that matched. */
export const ModerationReason = Type.Object(
  {
    rule: ModerationRuleSchema,
    action: ModerationActionSchema,
    words: Type.Array(Type.String()),
  },
  { title: 'ModerationReason' },
);
export type ModerationReason = Static<typeof ModerationReason>;

/** A stretch of the checked text that matched a word: offsets in UTF-16 code units, end exclusive. */
export const ModerationSpan = Type.Object({
  start: Type.Integer(),
  end: Type.Integer(),
  text: Type.String({ description: '原文中匹配的部分（含其中插入的空格、符号）' }),
  word: Type.String({ description: '词表中的词' }),
  action: ModerationActionSchema,
});
export type ModerationSpan = Static<typeof ModerationSpan>;

export const ModerationTestBody = Type.Object(
  { text: Type.String({ maxLength: MODERATION_TEST_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type ModerationTestBody = Static<typeof ModerationTestBody>;

export const ModerationTestResult = Type.Object({
  action: Type.Union([ModerationActionSchema, Type.Literal('pass')], { description: '最严的规则的结果；pass 为放行' }),
  reasons: Type.Array(ModerationReason),
  spans: Type.Array(ModerationSpan),
});
export type ModerationTestResult = Static<typeof ModerationTestResult>;

/** The word list's import: the text file's content (one word a line, then a tab or comma and its action). */
export const ModerationImportBody = Type.Object(
  {
    text: Type.String({ maxLength: 300_000, description: '文件内容（最多 30 万字符，在 1 MB 的请求上限之内）' }),
    /** replace: the file becomes the list; merge: its words are added (an existing word takes the file's action). */
    mode: Type.Optional(Type.Union([Type.Literal('merge'), Type.Literal('replace')], { default: 'merge' })),
  },
  { additionalProperties: false },
);
export type ModerationImportBody = Static<typeof ModerationImportBody>;

export const ModerationImportResult = Type.Object({
  added: Type.Integer(),
  updated: Type.Integer(),
  removed: Type.Integer(),
  unchanged: Type.Integer(),
});
export type ModerationImportResult = Static<typeof ModerationImportResult>;

/** The account rules (GET/PATCH /api/settings/moderation); 0 turns a rule off. */
export const ModerationSettings = Type.Object(
  {
    holdFirstPosts: Type.Integer({ minimum: 0, maximum: 100, description: '新账号的前 N 条问答和评论先审后发（0 为关闭）' }),
    holdLinksDays: Type.Integer({ minimum: 0, maximum: 3650, description: '注册不满 D 天的账号发布带链接的内容先审后发（0 为关闭）' }),
  },
  { title: 'ModerationSettings' },
);
export type ModerationSettings = Static<typeof ModerationSettings>;
export const ModerationSettingsPatch = Type.Partial(ModerationSettings, { additionalProperties: false });
export type ModerationSettingsPatch = Static<typeof ModerationSettingsPatch>;

export const RecheckBody = Type.Object(
  {
    kinds: Type.Optional(Type.Array(ModerationKindSchema, { minItems: 1, uniqueItems: true, description: '默认全部' })),
    /** Only what was written at or after this time (epoch ms); default everything. */
    since: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type RecheckBody = Static<typeof RecheckBody>;

export const RecheckStatus = Type.Object({
  running: Type.Boolean(),
  startedAt: Type.Union([Type.Integer(), Type.Null()]),
  finishedAt: Type.Union([Type.Integer(), Type.Null()]),
  checked: Type.Integer({ description: '已检查的条数' }),
  flagged: Type.Integer({ description: '进入审核台的条数（待审或标记）' }),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type RecheckStatus = Static<typeof RecheckStatus>;
