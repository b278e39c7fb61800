import { and, eq, sql } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import {
  MODERATION_MESSAGES,
  type ModerationAction,
  type ModerationKind,
  type ModerationReason,
  type ModerationSpan,
} from '#contract/moderation';
import { queryRows, type Db } from '../../db/client';
import { comments, issues, moderationFlags, moderationSettings, moderationWords, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { Matcher } from './matcher';
import { enqueueEvent } from './webhook.queue';

/**
 * The rules that hold content (审核规则), as every path that writes a question, a comment, a
 * nickname or an intro applies them: `screen()` before the write (a 拒绝 word refuses it), the
 * write itself held or not as the verdict says, then `recordHold()` in the write's transaction.
 */

export type Verdict = {
  action: 'pass' | ModerationAction;
  reasons: ModerationReason[];
  spans: ModerationSpan[];
};

export interface ModerationInput {
  kind: ModerationKind;
  /** The text as stored: a question's title and content, a comment's content (HTML), a nickname and intro. */
  text: string;
  /** The posting member's id (account rules); null for text no member wrote. */
  author: string | null;
  /** The text is HTML: its tags and character references are not words. */
  html?: boolean;
}

const SEVERITY: Record<Verdict['action'], number> = { pass: 0, flag: 1, hold: 2, reject: 3 };
// A link: a scheme, www., or an anchor (a bare domain is too easily an ordinary word).
const LINK = /https?:\/\/|www\.|<a\s[^>]*href/i;

interface Rules {
  version: number;
  holdFirstPosts: number;
  holdLinksDays: number;
  matcher: Matcher<{ word: string; action: ModerationAction }>;
}

// One matcher per word-list version, per database: the version is random, raised by every change.
let cached: Rules | null = null;
let loading: Promise<Rules> | null = null;

async function rules(db: Db): Promise<Rules> {
  const [settings] = await db.select().from(moderationSettings).where(eq(moderationSettings.id, 1));
  const version = settings?.wordsVersion ?? 0;
  const account = { holdFirstPosts: settings?.holdFirstPosts ?? 0, holdLinksDays: settings?.holdLinksDays ?? 0 };
  if (cached?.version === version) return Object.assign({}, cached, account);
  loading ??= (async () => {
    const words = await db
      .select({ word: moderationWords.word, folded: moderationWords.folded, action: moderationWords.action })
      .from(moderationWords);
    const matcher = new Matcher(
      words.map((w) => ({ folded: w.folded, word: w.word, value: { word: w.word, action: w.action as ModerationAction } })),
    );
    return { version, ...account, matcher };
  })().finally(() => {
    loading = null;
  });
  const built = await loading;
  if (built.version === version) cached = built;
  return Object.assign({}, built, account);
}

/** Forgets the matcher (after this process changed the list: the next check reloads it). */
export function forgetRules(): void {
  cached = null;
}

/**
 * The current word list's matcher, built once per list version: a bulk path (the import) takes it
 * once and checks every record with `wordVerdict`, instead of a settings read per text.
 */
export async function wordMatcher(db: Db): Promise<Rules['matcher']> {
  return (await rules(db)).matcher;
}

/** The word list's verdict of one text, with `matcher` from `wordMatcher` (no account rules). */
export function wordVerdict(matcher: Rules['matcher'], text: string, html: boolean): Verdict {
  const { reasons, spans } = matchWords(matcher, text, html);
  return { action: strictest(reasons), reasons, spans };
}

const strictest = (reasons: ModerationReason[]) =>
  reasons.reduce<Verdict['action']>((worst, r) => (SEVERITY[r.action] > SEVERITY[worst] ? r.action : worst), 'pass');

/** The 敏感词 verdict of one text: the words that fire, grouped by action, and where they are. */
export function matchWords(matcher: Rules['matcher'], text: string, html: boolean): Pick<Verdict, 'reasons' | 'spans'> {
  const spans: ModerationSpan[] = matcher
    .find(text, html)
    .map((m) => ({ start: m.start, end: m.end, text: m.text, word: m.value.word, action: m.value.action }));
  const byAction = new Map<ModerationAction, Set<string>>();
  for (const span of spans) {
    const words = byAction.get(span.action) ?? new Set();
    words.add(span.word);
    byAction.set(span.action, words);
  }
  const reasons = (['reject', 'hold', 'flag'] as const)
    .filter((action) => byAction.has(action))
    .map((action) => ({ rule: 'word' as const, action, words: [...byAction.get(action)!] }));
  return { reasons, spans };
}

/** The account rules' reasons for a post by `author` (questions and comments only). */
async function accountReasons(db: Db, rules: Rules, author: string, text: string, now: number): Promise<ModerationReason[]> {
  const [member] = await db
    .select({ registerDate: users.registerDate, reviewFirst: users.reviewFirst })
    .from(users)
    .where(eq(users.id, author));
  if (!member) return [];
  const reasons: ModerationReason[] = [];
  if (member.reviewFirst) reasons.push({ rule: 'reviewFirst', action: 'hold', words: [] });
  if (rules.holdLinksDays > 0 && now - member.registerDate < rules.holdLinksDays * 86_400_000 && LINK.test(text)) {
    reasons.push({ rule: 'newAccountLinks', action: 'hold', words: [] });
  }
  if (rules.holdFirstPosts > 0) {
    // Two index probes stopping at N rows each, whatever the member has written.
    const n = rules.holdFirstPosts;
    const [{ posts }] = await queryRows<{ posts: number }>(
      db,
      sql`select (select count(*) from (select 1 from ${issues} where ${issues.userId} = ${author} limit ${n}) i)::int
               + (select count(*) from (select 1 from ${comments} where ${comments.userId} = ${author} limit ${n}) c)::int as posts`,
    );
    if (Number(posts) < n) reasons.push({ rule: 'firstPosts', action: 'hold', words: [] });
  }
  return reasons;
}

/** What the rules say of a text: pass, or the strictest action with every reason. */
export async function moderate(db: Db, input: ModerationInput, now: number = Date.now()): Promise<Verdict> {
  const current = await rules(db);
  const { reasons, spans } = matchWords(current.matcher, input.text, input.html ?? input.kind !== 'user');
  if (input.author && input.kind !== 'user') reasons.push(...(await accountReasons(db, current, input.author, input.text, now)));
  return { action: strictest(reasons), reasons, spans };
}

export class ContentRejected extends AppError {
  constructor(readonly verdict: Verdict) {
    super(400, MODERATION_MESSAGES.rejected, ERROR_CODES.contentRejected);
  }
}

/**
 * The one entry point of a write path: the verdict, or the 400 CONTENT_REJECTED (whose message
 * names no word) when a 拒绝 word fires. A hold means: write the item held (a question unapproved,
 * a comment `held`), then `recordHold()` in the same transaction.
 */
export async function screen(db: Db, input: ModerationInput, now: number = Date.now()): Promise<Verdict> {
  const verdict = await moderate(db, input, now);
  if (verdict.action === 'reject') {
    await enqueueEvent(db, 'rule.fired', { kind: input.kind, itemId: null, action: 'reject', reasons: verdict.reasons }, now);
    throw new ContentRejected(verdict);
  }
  return verdict;
}

/**
 * The rules on an administrator's own write (the back-office): a 拒绝 word refuses it with the
 * same 400 as a member's post; whatever else they find is flagged into 审核台 for another look
 * rather than hidden, since the writer is a moderator and a save that vanished would surprise them.
 * Account rules are for members' posts and do not apply. null: nothing to record.
 */
export async function screenAdminWrite(
  db: Db,
  kind: ModerationKind,
  texts: Array<{ text: string | undefined; html: boolean }>,
  now: number = Date.now(),
): Promise<Verdict | null> {
  const given = texts.filter((t): t is { text: string; html: boolean } => !!t.text);
  if (!given.length) return null;
  const verdict = combine(...(await Promise.all(given.map((t) => screen(db, { kind, text: t.text, author: null, html: t.html }, now)))));
  return verdict.action === 'pass' ? null : { ...verdict, action: 'flag' };
}

/** Several texts of one item (a nickname and an intro; a title and a content) as one verdict. */
export function combine(...verdicts: Verdict[]): Verdict {
  const reasons: ModerationReason[] = [];
  for (const r of verdicts.flatMap((v) => v.reasons)) {
    const same = reasons.find((x) => x.rule === r.rule && x.action === r.action);
    if (same) same.words = [...new Set([...same.words, ...r.words])];
    else reasons.push({ ...r, words: [...r.words] });
  }
  const action = verdicts.reduce<Verdict['action']>((worst, v) => (SEVERITY[v.action] > SEVERITY[worst] ? v.action : worst), 'pass');
  return { action, reasons, spans: verdicts.flatMap((v) => v.spans) };
}

/**
 * Puts an item the rules held or flagged in the queue (one open flag per item: a second hold adds
 * its reasons) and tells the webhooks, in the caller's transaction. Nothing for a pass.
 * `notify: false` for bulk paths (the import, 重新检查), which send one summary at the end.
 */
export async function recordHold(
  tx: Db,
  item: { kind: ModerationKind; itemId: string; verdict: Verdict; notify?: boolean },
  now: number = Date.now(),
): Promise<boolean> {
  const { kind, itemId, verdict } = item;
  if (verdict.action === 'pass') return false;
  // A 拒绝 word found in stored content (重新检查, an import) holds it: it cannot be refused any more.
  const reasons = verdict.reasons;
  await tx
    .insert(moderationFlags)
    .values({ kind, itemId, reasons, state: 'open', createdAt: now })
    .onConflictDoUpdate({
      target: [moderationFlags.kind, moderationFlags.itemId],
      targetWhere: sql`${moderationFlags.state} = 'open'`,
      set: { reasons: sql`excluded.reasons` },
    });
  if (item.notify !== false) {
    await enqueueEvent(tx, 'item.waiting', { kind, itemId, action: verdict.action, reasons }, now);
  }
  return true;
}

/** Whether the verdict keeps the item from visitors and members until approved. */
export const holds = (verdict: Verdict) => verdict.action === 'hold' || verdict.action === 'reject';

/** Holds existing content found by 重新检查: a question back to 待审核, a comment hidden. */
export async function holdExisting(tx: Db, kind: ModerationKind, itemId: string): Promise<void> {
  if (kind === 'issue') await tx.update(issues).set({ issueStatus: false }).where(eq(issues.id, itemId));
  if (kind === 'comment')
    await tx
      .update(comments)
      .set({ held: true })
      .where(and(eq(comments.id, itemId), eq(comments.held, false)));
}
