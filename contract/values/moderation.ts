/** What a word of the list does to a post that contains it (审核规则). */
export const MODERATION_ACTIONS = {
  reject: '拒绝',
  hold: '待审',
  flag: '标记',
} as const;
export type ModerationAction = keyof typeof MODERATION_ACTIONS;

/** The rules a hold, a flag or a refusal names (`reasons[].rule`), with the label the screens show. */
export const MODERATION_RULES = {
  word: '敏感词',
  firstPosts: '新账号的前几条内容',
  newAccountLinks: '新注册账号发布链接',
  reviewFirst: '先审后发',
} as const;
export type ModerationRule = keyof typeof MODERATION_RULES;

/** What a rule looks at: a question, a comment, or an account's nickname and intro. */
export const MODERATION_KINDS = {
  issue: '问答',
  comment: '评论',
  user: '用户',
} as const;
export type ModerationKind = keyof typeof MODERATION_KINDS;

/** The word list holds at most this many words; a text checked by 测试 at most this many characters. */
export const MODERATION_WORDS_MAX = 20_000;
export const MODERATION_WORD_MAX_LENGTH = 64;
export const MODERATION_TEST_MAX_LENGTH = 20_000;

export const MODERATION_MESSAGES = {
  /** A post refused by a 拒绝 word: it names no word, so that a spammer cannot probe the list. */
  rejected: '内容包含不允许发布的信息，请修改后再提交',
  wordNotFound: '敏感词不存在',
  duplicate: '该敏感词已存在',
  /** A word with no letter or digit folds to nothing and could never match. */
  emptyWord: '敏感词至少要包含一个文字、字母或数字',
  tooMany: `敏感词最多 ${MODERATION_WORDS_MAX} 个`,
  /** Followed by the line number. */
  badLine: '导入文件第 {line} 行无法识别',
  recheckRunning: '重新检查正在进行中',
} as const;

/** How a word's action is written in the list's text file: `词语<TAB>拒绝|待审|标记` (one per line). */
export const MODERATION_FILE_ACTION: Record<string, ModerationAction> = {
  拒绝: 'reject',
  待审: 'hold',
  标记: 'flag',
  reject: 'reject',
  hold: 'hold',
  flag: 'flag',
};
