import { randomInt } from 'node:crypto';
import { pageOf } from '../../lib/paging';
import { and, asc, count, desc, eq, gt, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { AUDIT_ACTIONS, MODERATION_SETTINGS_ID } from '#contract/audit';
import {
  MODERATION_ACTIONS,
  MODERATION_FILE_ACTION,
  MODERATION_MESSAGES,
  MODERATION_WORDS_MAX,
  MODERATION_WORD_MAX_LENGTH,
  type CreateModerationWordBody,
  type ModerationAction,
  type ModerationImportResult,
  type ModerationKind,
  type ModerationSettings,
  type ModerationSettingsPatch,
  type ModerationTestResult,
  type ModerationWord,
  type ModerationWordQuery,
  type RecheckBody,
  type RecheckStatus,
} from '#contract/moderation';
import type { Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { comments, issues, moderationSettings, moderationWords, users } from '../../db/schema';
import { writeTransaction } from '../../db/write-lock';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Actor, Audit } from '../audit/audit';
import { foldWord } from './fold';
import { Matcher } from './matcher';
import { combine, forgetRules, holdExisting, matchWords, moderate, recordHold, type Verdict } from './moderation';
import { enqueueEvent } from './webhook.queue';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function toWord(row: typeof moderationWords.$inferSelect): ModerationWord {
  return { _id: row.id, word: row.word, action: row.action as ModerationAction, createdAt: row.createdAt };
}

/** A new random words_version: every process's matcher is rebuilt at its next check. */
const bumpVersion = (tx: Db, now: number) => {
  const wordsVersion = randomInt(1, 2 ** 31 - 1);
  return tx
    .insert(moderationSettings)
    .values({ id: 1, wordsVersion, updatedAt: now })
    .onConflictDoUpdate({ target: moderationSettings.id, set: { wordsVersion, updatedAt: now } });
};

/** One line of the list's text file: `word<TAB>action` (or a comma); `#` starts a comment. */
export function parseWordFile(text: string): Array<{ word: string; action: ModerationAction }> {
  const out: Array<{ word: string; action: ModerationAction }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (!line || line.startsWith('#')) return;
    const match = /^(.*?)[\t,，]\s*([^\t,，]+)$/.exec(line);
    const word = (match ? match[1] : line).trim();
    const action = match ? MODERATION_FILE_ACTION[match[2].trim()] : 'reject';
    if (!word || !action || word.length > MODERATION_WORD_MAX_LENGTH) {
      throw badRequest(MODERATION_MESSAGES.badLine.replace('{line}', String(index + 1)));
    }
    out.push({ word, action });
  });
  return out;
}

export type ModerationService = ReturnType<typeof createModerationService>;

export function createModerationService(deps: { db: Db; audit: Audit; now?: () => number; batchSize?: number }) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;
  const batchSize = deps.batchSize ?? 500;
  const recheck: RecheckStatus = { running: false, startedAt: null, finishedAt: null, checked: 0, flagged: 0, error: null };
  let recheckRun: Promise<void> | null = null;

  async function settings(): Promise<ModerationSettings> {
    const [row] = await db.select().from(moderationSettings).where(eq(moderationSettings.id, 1));
    return { holdFirstPosts: row?.holdFirstPosts ?? 0, holdLinksDays: row?.holdLinksDays ?? 0 };
  }

  /** Re-checks one kind's rows in id order, `batchSize` at a time, each batch in one locked transaction. */
  async function recheckKind(kind: ModerationKind, since: number, signal?: AbortSignal): Promise<void> {
    let after = '';
    for (;;) {
      if (signal?.aborted) return;
      const rows = await batchOf(kind, after, since);
      if (!rows.length) return;
      after = rows[rows.length - 1].id;
      const found: Array<{ id: string; verdict: Verdict }> = [];
      for (const row of rows) {
        // Account rules are about new posts, not stored ones: only the words are checked again.
        const verdicts = row.texts.map((text, i) =>
          moderate(db, { kind, text, author: null, html: kind === 'comment' || (kind === 'issue' && i === 1) }),
        );
        const verdict = combine(...(await Promise.all(verdicts)));
        recheck.checked++;
        if (verdict.action !== 'pass') found.push({ id: row.id, verdict });
      }
      if (!found.length) continue;
      const tables = kind === 'issue' ? (['issues'] as const) : kind === 'comment' ? (['comments'] as const) : (['users'] as const);
      await writeTransaction(db, tables, async (tx) => {
        for (const { id, verdict } of found) {
          if (verdict.action !== 'flag') await holdExisting(tx, kind, id);
          if (await recordHold(tx, { kind, itemId: id, verdict, notify: false }, now())) recheck.flagged++;
        }
      });
    }
  }

  async function batchOf(kind: ModerationKind, after: string, since: number): Promise<Array<{ id: string; texts: string[] }>> {
    if (kind === 'issue') {
      const rows = await db
        .select({ id: issues.id, title: issues.issueTitle, content: issues.issueContent })
        .from(issues)
        .where(and(gt(issues.id, after), since ? sql`${issues.issueDate} >= ${since}` : undefined))
        .orderBy(asc(issues.id))
        .limit(batchSize);
      return rows.map((r) => ({ id: r.id, texts: [r.title, r.content] }));
    }
    if (kind === 'comment') {
      const rows = await db
        .select({ id: comments.id, content: comments.commentContent })
        .from(comments)
        .where(and(gt(comments.id, after), since ? sql`${comments.commentDate} >= ${since}` : undefined))
        .orderBy(asc(comments.id))
        .limit(batchSize);
      return rows.map((r) => ({ id: r.id, texts: [r.content] }));
    }
    const rows = await db
      .select({ id: users.id, nickname: users.nickname, intro: users.intro })
      .from(users)
      .where(and(gt(users.id, after), since ? sql`${users.registerDate} >= ${since}` : undefined))
      .orderBy(asc(users.id))
      .limit(batchSize);
    return rows.map((r) => ({ id: r.id, texts: [r.nickname, r.intro] }));
  }

  return {
    async listWords(query: ModerationWordQuery): Promise<Page<ModerationWord>> {
      const current = query.current ?? 1;
      const pageSize = query.pageSize ?? 10;
      const conditions: SQL[] = [];
      if (query.word) conditions.push(ilike(moderationWords.word, `%${escapeLike(query.word)}%`));
      if (query.action) conditions.push(eq(moderationWords.action, query.action));
      const where = conditions.length ? and(...conditions) : undefined;
      const [{ total }] = await db.select({ total: count() }).from(moderationWords).where(where);
      const rows = await db
        .select()
        .from(moderationWords)
        .where(where)
        .orderBy(desc(moderationWords.createdAt), desc(moderationWords.id))
        .limit(pageSize)
        .offset((current - 1) * pageSize);
      return pageOf(rows.map(toWord), total, { current, pageSize });
    },

    async addWord(actor: Actor, body: CreateModerationWordBody): Promise<ModerationWord> {
      const word = body.word.trim();
      const folded = foldWord(word);
      if (!folded) throw badRequest(MODERATION_MESSAGES.emptyWord);
      const at = now();
      try {
        const row = await db.transaction(async (tx) => {
          const [{ total }] = await tx.select({ total: count() }).from(moderationWords);
          if (Number(total) >= MODERATION_WORDS_MAX) throw badRequest(MODERATION_MESSAGES.tooMany);
          const [inserted] = await tx
            .insert(moderationWords)
            .values({ id: newId(at), word, folded, action: body.action, createdBy: actor.id, createdAt: at })
            .returning();
          await bumpVersion(tx, at);
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.create,
            entity: 'moderation',
            entityId: inserted.id,
            title: `敏感词：${word}（${MODERATION_ACTIONS[body.action]}）`,
          });
          return inserted;
        });
        forgetRules();
        return toWord(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MODERATION_MESSAGES.duplicate);
        throw error;
      }
    },

    async removeWord(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [removed] = await tx.delete(moderationWords).where(eq(moderationWords.id, id)).returning();
        if (!removed) throw notFound(MODERATION_MESSAGES.wordNotFound);
        await bumpVersion(tx, now());
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.delete,
          entity: 'moderation',
          entityId: id,
          title: `敏感词：${removed.word}（${MODERATION_ACTIONS[removed.action as ModerationAction]}）`,
        });
      });
      forgetRules();
    },

    /** The list as a text file: `word<TAB>拒绝|待审|标记`, one a line, oldest first. */
    async exportWords(actor: Actor): Promise<string> {
      const rows = await db.select().from(moderationWords).orderBy(asc(moderationWords.createdAt), asc(moderationWords.id));
      await audit.record(db, actor, {
        action: AUDIT_ACTIONS.export,
        entity: 'moderation',
        entityId: MODERATION_SETTINGS_ID,
        title: `敏感词（${rows.length} 个）`,
        changes: [{ field: 'rows', after: rows.length }],
      });
      return rows.map((r) => `${r.word}\t${MODERATION_ACTIONS[r.action as ModerationAction]}\n`).join('');
    },

    /** Adds (merge) or sets (replace) the list from its text file, all or nothing. */
    async importWords(actor: Actor, text: string, mode: 'merge' | 'replace' = 'merge'): Promise<ModerationImportResult> {
      const parsed = parseWordFile(text);
      // The file's last line for a folded form wins; a word that folds to nothing is refused.
      const byFolded = new Map<string, { word: string; action: ModerationAction }>();
      for (const entry of parsed) {
        const folded = foldWord(entry.word);
        if (!folded) throw badRequest(`${MODERATION_MESSAGES.emptyWord}：${entry.word}`);
        byFolded.set(folded, entry);
      }
      if (byFolded.size > MODERATION_WORDS_MAX) throw badRequest(MODERATION_MESSAGES.tooMany);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const existing = await tx.select().from(moderationWords);
        const known = new Map(existing.map((row) => [row.folded, row]));
        const tally = { added: 0, updated: 0, removed: 0, unchanged: 0 };
        const fresh: Array<typeof moderationWords.$inferInsert> = [];
        for (const [folded, entry] of byFolded) {
          const row = known.get(folded);
          if (!row) {
            fresh.push({ id: newId(at), word: entry.word, folded, action: entry.action, createdBy: actor.id, createdAt: at });
            tally.added++;
          } else if (row.action !== entry.action || row.word !== entry.word) {
            await tx.update(moderationWords).set({ action: entry.action, word: entry.word }).where(eq(moderationWords.id, row.id));
            tally.updated++;
          } else tally.unchanged++;
        }
        if (mode === 'replace') {
          const gone = existing.filter((row) => !byFolded.has(row.folded)).map((row) => row.id);
          for (let i = 0; i < gone.length; i += 1000)
            await tx.delete(moderationWords).where(inArray(moderationWords.id, gone.slice(i, i + 1000)));
          tally.removed = gone.length;
        }
        const total = (mode === 'replace' ? 0 : existing.length) + tally.added + (mode === 'replace' ? tally.updated + tally.unchanged : 0);
        if (total > MODERATION_WORDS_MAX) throw badRequest(MODERATION_MESSAGES.tooMany);
        for (let i = 0; i < fresh.length; i += 1000) await tx.insert(moderationWords).values(fresh.slice(i, i + 1000));
        await bumpVersion(tx, at);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.import,
          entity: 'moderation',
          entityId: MODERATION_SETTINGS_ID,
          title: `敏感词（${parsed.length} 行）`,
          changes: Object.entries(tally).map(([field, after]) => ({ field, after })),
        });
        return tally;
      });
      forgetRules();
      return result;
    },

    /** 测试: what the word list says of a text, with the matched stretches (account rules not applied). */
    async test(text: string): Promise<ModerationTestResult> {
      const verdict = await moderate(db, { kind: 'user', text, author: null, html: false });
      return verdict;
    },

    settings,

    async updateSettings(actor: Actor, patch: ModerationSettingsPatch): Promise<ModerationSettings> {
      return db.transaction(async (tx) => {
        // The row exists from then on, locked (an upsert's update locks it): two changes at once each see the other's.
        const [before] = await tx
          .insert(moderationSettings)
          .values({ id: 1, updatedAt: now() })
          .onConflictDoUpdate({ target: moderationSettings.id, set: { id: sql`excluded.id` } })
          .returning();
        const next = {
          holdFirstPosts: patch.holdFirstPosts ?? before.holdFirstPosts,
          holdLinksDays: patch.holdLinksDays ?? before.holdLinksDays,
        };
        await tx
          .update(moderationSettings)
          .set({ ...next, updatedAt: now() })
          .where(eq(moderationSettings.id, 1));
        const changes = (['holdFirstPosts', 'holdLinksDays'] as const)
          .filter((field) => before[field] !== next[field])
          .map((field) => ({ field, before: before[field], after: next[field] }));
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.update,
          entity: 'moderation',
          entityId: MODERATION_SETTINGS_ID,
          title: '审核规则',
          changes,
        });
        return next;
      });
    },

    recheckStatus(): RecheckStatus {
      return { ...recheck };
    },

    /**
     * 重新检查: starts a background run over stored content (this process; one at a time) and
     * answers at once; GET /api/moderation/recheck says how far it got. Held and flagged items
     * join the queue; the webhooks get one summary at the end.
     */
    async startRecheck(actor: Actor, body: RecheckBody, signal?: AbortSignal): Promise<RecheckStatus> {
      if (recheckRun) throw conflict(MODERATION_MESSAGES.recheckRunning);
      const kinds = body.kinds ?? (['issue', 'comment', 'user'] as const);
      const since = body.since ?? 0;
      await audit.record(db, actor, {
        action: AUDIT_ACTIONS.recheck,
        entity: 'moderation',
        entityId: MODERATION_SETTINGS_ID,
        title: '重新检查',
        changes: [{ field: 'kinds', after: [...kinds] }, ...(since ? [{ field: 'since', after: since }] : [])],
      });
      Object.assign(recheck, { running: true, startedAt: now(), finishedAt: null, checked: 0, flagged: 0, error: null });
      recheckRun = (async () => {
        try {
          for (const kind of kinds) await recheckKind(kind, since, signal);
          if (recheck.flagged) {
            await enqueueEvent(db, 'item.waiting', { recheck: true, checked: recheck.checked, flagged: recheck.flagged }, now());
          }
        } catch (error) {
          recheck.error = error instanceof Error ? error.message : String(error);
        } finally {
          Object.assign(recheck, { running: false, finishedAt: now() });
          recheckRun = null;
        }
      })();
      return { ...recheck };
    },

    /** Waits for a 重新检查 in progress (tests, and a stopping server). */
    async recheckDone(): Promise<void> {
      await recheckRun;
    },
  };
}

/** A matcher of `words` on its own (the benchmark and the labelled set's test build theirs). */
export function matcherOf(words: ReadonlyArray<{ word: string; action: ModerationAction }>) {
  return new Matcher(words.map((w) => ({ folded: foldWord(w.word), word: w.word, value: { word: w.word, action: w.action } })));
}
export { matchWords };
