/**
 * Imports the old coder station's collections into this product's database (docs/import.md):
 * one transaction per collection in dependency order, taking the write locks as seed and restore
 * do; references checked against what is in the database (in that transaction), so a record
 * whose user, type, issue or book is missing is skipped, never left an orphan; counters computed
 * from the rows. `dryRun` runs every collection in one transaction that is rolled back.
 */
import path from 'node:path';
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS } from '#contract/audit';
import {
  MODERATION_ACTIONS,
  MODERATION_RULES,
  type ModerationAction,
  type ModerationKind,
  type ModerationReason,
  type ModerationRule,
} from '#contract/moderation';
import type { PgTable } from 'drizzle-orm/pg-core';
import { loadingComments } from '../db/bulk-load';
import { queryRows, type Db } from '../db/client';
import { admins, books, comments, interviews, issues, moderationFlags, types, users } from '../db/schema';
import { ALL_TABLES, writeTransaction, type LockedTable } from '../db/write-lock';
import { canonicalLoginId } from '../lib/account-names';
import { DEFAULT_AVATAR, DEFAULT_BOOK_COVER } from '../lib/defaults';
import { newId } from '../lib/ids';
import { hashPassword, randomPassword } from '../lib/passwords';
import { createAudit } from '../modules/audit/audit';
import { combine, holds, wordMatcher, wordVerdict, type Verdict } from '../modules/moderation/moderation';
import { enqueueEvent } from '../modules/moderation/webhook.queue';
import { createImageImporter } from './images';
import { mapAdmin, mapBook, mapComment, mapInterview, mapIssue, mapType, mapUser, RecordReader, SkipRecord } from './mapping';
import type { SourceData, SourceDoc } from './values';

export const COLLECTION_ORDER = ['types', 'admins', 'users', 'books', 'interviews', 'issues', 'comments'] as const;
export type Collection = (typeof COLLECTION_ORDER)[number];

export interface Notice {
  collection: string;
  id: string | null;
  /** Where the record is: the dump script's line, or "<file> line". */
  line: number;
  file: string;
  reason: string;
}

export interface CollectionReport {
  collection: Collection;
  read: number;
  imported: number;
  updated: number;
  /** Records left out, by reason; `skips` lists each. */
  skipped: number;
  /** Records imported after an obvious fix; `fixes` lists each. */
  fixed: number;
  images: number;
  /** Records the moderation rules held (kept from visitors until decided in 审核台) and flagged (published, in 审核台). */
  held: number;
  flagged: number;
  skips: Notice[];
  fixes: Notice[];
}

/** A record the moderation rules held or flagged, with the rules that fired (docs/import.md "Moderation"). */
export interface ModerationNotice extends Notice {
  kind: ModerationKind;
  outcome: 'held' | 'flagged';
  reasons: ModerationReason[];
}

/** How many records of one kind one rule held or flagged (a record with two rules counts under each). */
export interface ModerationCount {
  kind: ModerationKind;
  outcome: 'held' | 'flagged';
  rule: ModerationRule;
  action: ModerationAction;
  records: number;
}

/** The whole outcome of one import, as one object (for the console, a test, or an audit entry). */
export interface ImportReport {
  source: string;
  format: 'dump' | 'mongoexport';
  dryRun: boolean;
  update: boolean;
  collections: CollectionReport[];
  /** Collections in the source that the back-office does not manage, with their document counts. */
  ignored: Array<{ collection: string; documents: number }>;
  /** Images brought over as uploads, and the records that got the default image instead. */
  images: { brought: number; replaced: Notice[] };
  /** Accounts whose password is still an old md5 hash. */
  legacyPasswords: { admins: string[]; users: number; someUsers: string[] };
  /** What the moderation rules held or flagged, each record and the counts per kind and rule. */
  moderation: {
    counts: ModerationCount[];
    records: ModerationNotice[];
    /** Records an earlier import put in 审核台 that an --update run found no longer firing a rule: their open flags removed. */
    released: Array<Notice & { kind: ModerationKind }>;
  };
  warnings: string[];
  durationMs: number;
}

export interface ImportOptions {
  source: string;
  staticDir: string | null;
  dryRun: boolean;
  update: boolean;
  resetLegacyPasswords: boolean;
  progress?: (collection: Collection, done: number, total: number) => void;
}

export interface ImportResult {
  report: ImportReport;
  /** With --reset-legacy-passwords: each imported admin's new password, to be shown once and never stored. */
  newPasswords: Array<{ loginId: string; password: string }>;
}

class DryRunRollback extends Error {}

const BATCH = 2000;
const BATCH_BYTES = 8 * 1024 * 1024;

type Row = Record<string, unknown> & { id: string };

interface Spec {
  table: PgTable;
  locks: LockedTable[];
  map: (r: RecordReader) => Row;
  /** Reference fields: the table they point at. */
  refs: Array<{ field: string; target: Collection; label: string }>;
  images: Array<{ field: string; fallback: string }>;
  /**
   * A column that is unique besides the id (an account name, a type name). With `key`, what is
   * unique is the key of the field, stored in `keyField`/`column`: an account's canonical name
   * (login_key), computed by the function the repositories use, so `ADMIN` collides with `admin`.
   */
  unique?: { field: string; column: string; label: string; key?: (value: string) => string; keyField?: string };
}

const SPECS: Record<Collection, Spec> = {
  types: {
    table: types,
    locks: ['types'],
    map: mapType,
    refs: [],
    images: [],
    unique: { field: 'typeName', column: 'type_name', label: '分类名称' },
  },
  admins: {
    table: admins,
    locks: ['admins'],
    map: mapAdmin,
    refs: [],
    images: [{ field: 'avatar', fallback: DEFAULT_AVATAR }],
    unique: { field: 'loginId', column: 'login_key', label: '账号', key: canonicalLoginId, keyField: 'loginKey' },
  },
  users: {
    table: users,
    locks: ['users'],
    map: mapUser,
    refs: [],
    images: [{ field: 'avatar', fallback: DEFAULT_AVATAR }],
    unique: { field: 'loginId', column: 'login_key', label: '账号', key: canonicalLoginId, keyField: 'loginKey' },
  },
  books: {
    table: books,
    locks: ['books'],
    map: mapBook,
    refs: [{ field: 'typeId', target: 'types', label: '分类' }],
    images: [{ field: 'bookPic', fallback: DEFAULT_BOOK_COVER }],
  },
  interviews: {
    table: interviews,
    locks: ['interviews'],
    map: mapInterview,
    refs: [{ field: 'typeId', target: 'types', label: '分类' }],
    images: [],
  },
  issues: {
    table: issues,
    locks: ['issues'],
    map: mapIssue,
    refs: [
      { field: 'userId', target: 'users', label: '用户' },
      { field: 'typeId', target: 'types', label: '分类' },
    ],
    images: [],
  },
  comments: {
    table: comments,
    // Writing comments moves their parents' commentNumber: the parents' locks too (docs/decisions/0004).
    locks: ['books', 'issues', 'comments'],
    map: mapComment,
    refs: [
      { field: 'userId', target: 'users', label: '用户' },
      { field: 'issueId', target: 'issues', label: '问答' },
      { field: 'bookId', target: 'books', label: '书籍' },
    ],
    images: [],
  },
};

const TABLES: Record<Collection, PgTable> = { types, admins, users, books, interviews, issues, comments };

/**
 * What the moderation rules read of each screened collection: the texts the member paths screen
 * (a question's title and content, a comment, a nickname and intro) and the author whose
 * 先审后发 applies. The other account rules are left out (docs/import.md "Moderation").
 */
const SCREENED: Partial<
  Record<Collection, { kind: ModerationKind; texts: (row: Row) => Array<{ text: unknown; html: boolean }>; author?: string }>
> = {
  users: {
    kind: 'user',
    texts: (row) => [
      { text: row.nickname, html: false },
      { text: row.intro, html: false },
    ],
  },
  issues: {
    kind: 'issue',
    texts: (row) => [
      { text: row.issueTitle, html: false },
      { text: row.issueContent, html: true },
    ],
    author: 'userId',
  },
  comments: { kind: 'comment', texts: (row) => [{ text: row.commentContent, html: true }], author: 'userId' },
};

const REVIEW_FIRST: Verdict = { action: 'hold', reasons: [{ rule: 'reviewFirst', action: 'hold', words: [] }], spans: [] };

/** A held or flagged record's reasons as the report prints them: 敏感词「…」（拒绝）；先审后发（待审）. */
const describeReasons = (outcome: 'held' | 'flagged', reasons: ModerationReason[]) =>
  `${outcome === 'held' ? '待审' : '标记'}：${reasons
    .map((r) => `${MODERATION_RULES[r.rule]}${r.words.length ? `「${r.words.join('」「')}」` : ''}（${MODERATION_ACTIONS[r.action]}）`)
    .join('；')}`;

/** A list of strings as one parameter, for `in (...)`: one statement however long the list. */
const jsonList = (values: string[]) => sql`(select json_array_elements_text(${JSON.stringify(values)}::json))`;

async function existingIds(tx: Db, target: Collection, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const table = TABLES[target] as typeof types;
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(sql`${table.id} in ${jsonList(ids)}`);
  return new Set(rows.map((row) => row.id));
}

/** What must be unique of a row: its unique field, or that field's key (an account's canonical name). */
function uniqueKey(spec: Spec, row: Row): string {
  const value = String(row[spec.unique!.field]);
  return spec.unique!.key ? spec.unique!.key(value) : value;
}

async function uniqueOwners(tx: Db, table: PgTable, column: string, values: string[]): Promise<Map<string, string>> {
  if (!values.length) return new Map();
  const rows = await queryRows<{ id: string; value: string }>(
    tx,
    sql`select id, ${sql.identifier(column)} as value from ${table} where ${sql.identifier(column)} in ${jsonList(values)}`,
  );
  return new Map(rows.map((row) => [row.value, row.id]));
}

export async function runImport(db: Db, data: SourceData, options: ImportOptions): Promise<ImportResult> {
  const started = Date.now();
  const images = createImageImporter(options.staticDir);
  const report: ImportReport = {
    source: options.source,
    format: data.format,
    dryRun: options.dryRun,
    update: options.update,
    collections: [],
    ignored: [...data.collections.entries()]
      .filter(([name]) => !(COLLECTION_ORDER as readonly string[]).includes(name))
      .map(([collection, docs]) => ({ collection, documents: docs.length }))
      .sort((a, b) => a.collection.localeCompare(b.collection)),
    images: { brought: 0, replaced: [] },
    legacyPasswords: { admins: [], users: 0, someUsers: [] },
    moderation: { counts: [], records: [], released: [] },
    warnings: [],
    durationMs: 0,
  };
  // The word list's matcher, built once for the whole import, before any transaction holds the database.
  const matcher = await wordMatcher(db);
  const moderationCounts = new Map<string, ModerationCount>();
  const newPasswords: ImportResult['newPasswords'] = [];
  // A type whose name is already taken by another id: its records go to that type instead.
  const typeAlias = new Map<string, string>();
  // Parents whose commentNumber must be counted again once the comments are in.
  const touchedParents = { issues: new Set<string>(), books: new Set<string>() };

  const importCollection = async (tx: Db, collection: Collection) => {
    const spec = SPECS[collection];
    const docs: SourceDoc[] = data.collections.get(collection) ?? [];
    const out: CollectionReport = {
      collection,
      read: docs.length,
      imported: 0,
      updated: 0,
      skipped: 0,
      fixed: 0,
      images: 0,
      held: 0,
      flagged: 0,
      skips: [],
      fixes: [],
    };
    const notice = (source: SourceDoc, id: string | null, reason: string): Notice => ({
      collection,
      id,
      line: source.line,
      file: source.file,
      reason,
    });
    const skip = (source: SourceDoc, id: string | null, reason: string) => {
      out.skipped++;
      out.skips.push(notice(source, id, reason));
    };
    options.progress?.(collection, 0, docs.length);

    // 1. Each document through the rules; the first of two with one id or one unique name wins.
    let candidates: Array<{ row: Row; source: SourceDoc; fixes: string[] }> = [];
    const seenIds = new Set<string>();
    const seenNames = new Set<string>();
    for (const source of docs) {
      const reader = new RecordReader(source.doc);
      let row: Row;
      try {
        row = spec.map(reader);
      } catch (error) {
        if (!(error instanceof SkipRecord)) throw error;
        const rawId = source.doc._id;
        skip(
          source,
          typeof rawId === 'object' && rawId && 'hex' in rawId ? String(rawId.hex) : typeof rawId === 'string' ? rawId : null,
          error.message,
        );
        continue;
      }
      if (seenIds.has(row.id)) {
        skip(source, row.id, '同一个 _id 在来源中出现了不止一次（保留第一个）');
        continue;
      }
      seenIds.add(row.id);
      if (spec.unique) {
        const name = String(row[spec.unique.field]);
        const key = uniqueKey(spec, row);
        if (seenNames.has(key)) {
          skip(
            source,
            row.id,
            `${spec.unique.label} ${name} 在来源中出现了不止一次（保留第一个${key === name ? '' : '；大小写、全角或形近字符不同的同名也算同一个'}）`,
          );
          continue;
        }
        seenNames.add(key);
        if (spec.unique.keyField) row[spec.unique.keyField] = key;
      }
      candidates.push({ row, source, fixes: reader.fixes });
    }

    // 2. Already there: left alone, or overwritten with --update. A unique name owned by another id: skipped.
    const existing = await existingIds(
      tx,
      collection,
      candidates.map((c) => c.row.id),
    );
    const owners = spec.unique
      ? await uniqueOwners(
          tx,
          spec.table,
          spec.unique.column,
          candidates.map((c) => uniqueKey(spec, c.row)),
        )
      : new Map<string, string>();
    candidates = candidates.filter(({ row, source }) => {
      if (existing.has(row.id) && !options.update) {
        skip(source, row.id, '已存在（同一 id），未改动；要用来源覆盖请加 --update');
        return false;
      }
      if (spec.unique) {
        const name = String(row[spec.unique.field]);
        const owner = owners.get(uniqueKey(spec, row));
        if (owner && owner !== row.id) {
          if (collection === 'types' && !existing.has(row.id)) {
            typeAlias.set(row.id, owner);
            skip(source, row.id, `分类名称 ${name} 已被另一个分类（${owner}）使用：引用它的记录归入那个分类`);
          } else {
            skip(source, row.id, `${spec.unique.label} ${name} 已被另一个 id（${owner}）使用`);
          }
          return false;
        }
      }
      return true;
    });

    // 3. References: the target must exist (imported before, in dependency order, or already there).
    for (const ref of spec.refs) {
      for (const c of candidates) {
        const value = c.row[ref.field];
        if (ref.target === 'types' && typeof value === 'string' && typeAlias.has(value)) c.row[ref.field] = typeAlias.get(value);
      }
      const wanted = [...new Set(candidates.map((c) => c.row[ref.field]).filter((v): v is string => typeof v === 'string' && v !== ''))];
      const found = await existingIds(tx, ref.target, wanted);
      candidates = candidates.filter(({ row, source }) => {
        const value = row[ref.field];
        if (typeof value === 'string' && value !== '' && !found.has(value)) {
          skip(source, row.id, `${ref.label} ${value} 不存在`);
          return false;
        }
        return true;
      });
    }
    if (collection === 'comments') {
      // A comment's type is its target's (the old server copied it): taken from the target, fixed where it differs.
      const targetType = new Map<string, string>();
      for (const [target, column] of [
        [issues, 'issueId'],
        [books, 'bookId'],
      ] as const) {
        const ids = [...new Set(candidates.map((c) => c.row[column]).filter((v): v is string => typeof v === 'string'))];
        if (!ids.length) continue;
        const rows = await tx
          .select({ id: target.id, typeId: target.typeId })
          .from(target)
          .where(sql`${target.id} in ${jsonList(ids)}`);
        for (const row of rows) targetType.set(row.id, row.typeId);
      }
      for (const c of candidates) {
        const typeId = targetType.get(String(c.row.issueId ?? c.row.bookId))!;
        if (c.row.typeId !== typeId) {
          if (c.row.typeId) c.fixes.push(`分类（typeId）与所属${c.row.issueId ? '问答' : '书籍'}的不一致，已改为后者的分类`);
          c.row.typeId = typeId;
        }
      }
    }

    // 4. Images and passwords of the rows to be written.
    for (const c of candidates) {
      for (const image of spec.images) {
        const outcome = await images.bring(tx, String(c.row[image.field] ?? ''));
        if (outcome.path !== null) {
          c.row[image.field] = outcome.path;
          if (outcome.brought) {
            out.images++;
            report.images.brought++;
          }
        } else {
          c.row[image.field] = image.fallback;
          if (outcome.reason) report.images.replaced.push(notice(c.source, c.row.id, `${outcome.reason}，已换成默认图片`));
        }
      }
      if (collection === 'admins' && options.resetLegacyPasswords) {
        const password = randomPassword();
        c.row.passwordHash = await hashPassword(password);
        c.row.passwordLegacy = false;
        newPasswords.push({ loginId: String(c.row.loginId), password });
      }
      if (c.fixes.length) {
        out.fixed++;
        for (const fix of c.fixes) out.fixes.push(notice(c.source, c.row.id, fix));
      }
    }

    // 5. The moderation rules, as on the member paths, except that nothing is refused: a 拒绝 word
    // holds the record for an admin to decide. The matcher is the import's; the authors' 先审后发
    // and the items an admin already decided (a re-run with --update) are one statement each.
    const screening = SCREENED[collection];
    const verdicts = new Map<string, Verdict>();
    const released: Array<Notice & { kind: ModerationKind }> = [];
    if (screening) {
      const authorField = screening.author;
      const authors = authorField ? [...new Set(candidates.map((c) => String(c.row[authorField])))] : [];
      const reviewFirst = authors.length
        ? new Set(
            (
              await tx
                .select({ id: users.id })
                .from(users)
                .where(sql`${users.reviewFirst} and ${users.id} in ${jsonList(authors)}`)
            ).map((r) => r.id),
          )
        : new Set<string>();
      const again = candidates.filter((c) => existing.has(c.row.id)).map((c) => c.row.id);
      // The flags of records already there (a re-run with --update), one statement: a decided one
      // means an admin's decision stands; an open one that no rule fires on any more is taken out
      // of 审核台 again (its flag would outlive its reason).
      const flagsAgain = again.length
        ? await tx
            .select({ id: moderationFlags.itemId, state: moderationFlags.state })
            .from(moderationFlags)
            .where(sql`${moderationFlags.kind} = ${screening.kind} and ${moderationFlags.itemId} in ${jsonList(again)}`)
        : [];
      const decided = new Set(flagsAgain.filter((flag) => flag.state !== 'open').map((flag) => flag.id));
      const waitingAgain = new Set(flagsAgain.filter((flag) => flag.state === 'open').map((flag) => flag.id));
      for (const c of candidates) {
        // An admin's decision in 审核台 stands: --update does not hold or flag that record again.
        if (decided.has(c.row.id)) continue;
        const verdict = combine(
          ...screening
            .texts(c.row)
            .filter((t): t is { text: string; html: boolean } => typeof t.text === 'string' && t.text !== '')
            .map((t) => wordVerdict(matcher, t.text, t.html)),
          ...(authorField && reviewFirst.has(String(c.row[authorField])) ? [REVIEW_FIRST] : []),
        );
        if (verdict.action === 'pass') {
          if (waitingAgain.has(c.row.id))
            released.push({ ...notice(c.source, c.row.id, '不再命中审核规则，已移出审核台'), kind: screening.kind });
          continue;
        }
        verdicts.set(c.row.id, verdict);
        // An account is never hidden: whatever fired, it is flagged for an admin to look at.
        const outcome = screening.kind !== 'user' && holds(verdict) ? 'held' : 'flagged';
        if (outcome === 'held' && collection === 'issues') c.row.issueStatus = false;
        out[outcome]++;
        report.moderation.records.push({
          ...notice(c.source, c.row.id, describeReasons(outcome, verdict.reasons)),
          kind: screening.kind,
          outcome,
          reasons: verdict.reasons,
        });
        for (const reason of verdict.reasons) {
          const key = `${screening.kind}|${outcome}|${reason.rule}|${reason.action}`;
          const count = moderationCounts.get(key) ?? {
            kind: screening.kind,
            outcome,
            rule: reason.rule,
            action: reason.action,
            records: 0,
          };
          count.records++;
          moderationCounts.set(key, count);
        }
      }
      if (collection === 'comments') {
        for (const c of candidates) {
          const verdict = verdicts.get(c.row.id);
          c.row.held = verdict ? holds(verdict) : false;
        }
      }
    }

    // 6. Written in multi-row statements, each batch one JSON parameter: PostgreSQL reads it far
    // faster than thousands of bound parameters, and the statement triggers run once per batch.
    // Only the columns the mapping fills: the others (a record's version, say) take their defaults
    // on insert, and an update leaves them to the database (json_populate_recordset would give null).
    const columns = Object.entries(getTableColumns(spec.table))
      .map(([key, column]) => ({ key, name: column.name }))
      .filter(({ key }) => candidates.some((c) => c.row[key] !== undefined));
    const tableName = getTableName(spec.table);
    const quoted = (name: string) => `"${name}"`;
    const assignments = columns
      .filter(({ key }) => key !== 'id' && !((collection === 'issues' || collection === 'books') && key === 'commentNumber'))
      .map(({ key, name }) => {
        if ((collection === 'admins' || collection === 'users') && !(collection === 'admins' && options.resetLegacyPasswords)) {
          // An account that has already left its md5 behind keeps its password (unless --reset-legacy-passwords).
          if (key === 'passwordHash')
            return `password_hash = case when ${tableName}.password_legacy then excluded.password_hash else ${tableName}.password_hash end`;
          if (key === 'passwordLegacy')
            return `password_legacy = case when ${tableName}.password_legacy then excluded.password_legacy else false end`;
        }
        return `${quoted(name)} = excluded.${quoted(name)}`;
      });
    const names = columns.map(({ name }) => quoted(name)).join(', ');
    const onConflict = options.update ? sql.raw(` on conflict (id) do update set ${assignments.join(', ')}`) : sql.raw('');
    if (collection === 'issues' || collection === 'books') {
      for (const c of candidates) touchedParents[collection].add(c.row.id);
    }
    if (collection === 'comments') {
      for (const c of candidates) {
        if (c.row.issueId) touchedParents.issues.add(String(c.row.issueId));
        if (c.row.bookId) touchedParents.books.add(String(c.row.bookId));
      }
    }
    // A batch is BATCH rows or BATCH_BYTES of JSON, whichever comes first (books' HTML may be 500 KB each).
    let batch: string[] = [];
    let batchBytes = 0;
    let written = 0;
    // The batch's held and flagged records, put in the queue by one statement after its rows. A
    // record already waiting (a re-run with --update) keeps its one open flag, with the new reasons.
    let flags: Array<{ kind: ModerationKind; item_id: string; reasons: ModerationReason[] }> = [];
    const flush = async () => {
      if (!batch.length) return;
      await tx.execute(
        sql`insert into ${spec.table} (${sql.raw(names)}) select ${sql.raw(names)} from json_populate_recordset(null::${spec.table}, ${`[${batch.join(',')}]`}::json)${onConflict}`,
      );
      if (flags.length) {
        await tx.execute(sql`insert into ${moderationFlags} (kind, item_id, reasons, state, created_at)
          select f.kind, f.item_id, f.reasons, 'open', ${Date.now()}::bigint
          from json_to_recordset(${JSON.stringify(flags)}::json) as f(kind varchar, item_id varchar, reasons jsonb)
          on conflict (kind, item_id) where state = 'open' do update set reasons = excluded.reasons`);
        flags = [];
      }
      written += batch.length;
      batch = [];
      batchBytes = 0;
      // "Done" is said once, after the counters.
      options.progress?.(collection, Math.max(0, Math.min(docs.length - 1, written + out.skipped)), docs.length);
    };
    for (const c of candidates) {
      const json = JSON.stringify(Object.fromEntries(columns.map(({ key, name }) => [name, c.row[key]])));
      if (batch.length && (batch.length >= BATCH || batchBytes + json.length > BATCH_BYTES)) await flush();
      batch.push(json);
      batchBytes += json.length;
      const verdict = verdicts.get(c.row.id);
      if (verdict && screening) flags.push({ kind: screening.kind, item_id: c.row.id, reasons: verdict.reasons });
      if (existing.has(c.row.id)) out.updated++;
      else out.imported++;
    }
    await flush();
    if (released.length && screening) {
      await tx.execute(
        sql`delete from ${moderationFlags} where kind = ${screening.kind} and state = 'open' and item_id in ${jsonList(released.flatMap((r) => (r.id ? [r.id] : [])))}`,
      );
      report.moderation.released.push(...released);
    }

    if (collection === 'comments') {
      // Counters follow from the rows: the dump's commentNumber is not trusted. Only the comments
      // visitors can read count: a held one is counted when an admin approves it.
      for (const parent of ['issues', 'books'] as const) {
        const table = parent === 'issues' ? issues : books;
        const column = parent === 'issues' ? comments.issueId : comments.bookId;
        const ids = [...touchedParents[parent]];
        if (!ids.length) continue;
        // One statement; only the parents whose count differs are written.
        await tx.execute(sql`
          update ${table} set comment_number = counted.n
          from (select p.id, count(c.id)::int as n
                from ${jsonList(ids)} as p(id) left join ${comments} c on ${sql.raw(`c.${column.name}`)} = p.id and not c.held
                group by p.id) counted
          where ${table.id} = counted.id and ${table.commentNumber} <> counted.n`);
      }
    }
    options.progress?.(collection, docs.length, docs.length);
    report.collections.push(out);
  };

  const legacyAccounts = async (tx: Db) => {
    const adminRows = await tx
      .select({ loginId: admins.loginId })
      .from(admins)
      .where(sql`${admins.passwordLegacy}`)
      .orderBy(admins.loginId);
    const [{ n }] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from users where password_legacy`);
    const some = await tx
      .select({ loginId: users.loginId })
      .from(users)
      .where(sql`${users.passwordLegacy}`)
      .orderBy(users.loginId)
      .limit(20);
    report.legacyPasswords = { admins: adminRows.map((r) => r.loginId), users: Number(n), someUsers: some.map((r) => r.loginId) };
    const [{ supers }] = await queryRows<{ supers: number }>(
      tx,
      sql`select count(*)::int as supers from admins where permission = 1 and enabled`,
    );
    if (Number(supers) === 0) report.warnings.push('数据库中没有可用的超级管理员：首次启动时会按 ADMIN_LOGIN_ID 创建一个');
  };

  if (options.dryRun) {
    try {
      await writeTransaction(db, ALL_TABLES, async (tx) => {
        for (const collection of COLLECTION_ORDER) await importCollection(tx, collection);
        await legacyAccounts(tx);
        throw new DryRunRollback();
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
    }
  } else {
    for (const collection of COLLECTION_ORDER) {
      const write = () => writeTransaction(db, SPECS[collection].locks, (tx) => importCollection(tx, collection));
      await (collection === 'comments' ? loadingComments(db, write) : write());
    }
    await legacyAccounts(db);
  }
  report.moderation.counts = [...moderationCounts.values()];
  report.durationMs = Date.now() - started;
  if (!options.dryRun) await recordImport(db, report);
  return { report, newPasswords };
}

/** No admin runs the command: the log names the command itself as the one who did it. */
export const IMPORT_ACTOR = { id: '000000000000000000000000', loginId: 'npm run import', permission: 1 };

/**
 * One 导入 entry in the audit log for a committed import: its source and each collection's counts;
 * and, when the rules held or flagged records, one summary to the webhooks (as 重新检查 sends).
 */
async function recordImport(db: Db, report: ImportReport) {
  const held = report.collections.reduce((n, c) => n + c.held, 0);
  const flagged = report.collections.reduce((n, c) => n + c.flagged, 0);
  await db.transaction(async (tx) => {
    if (held + flagged) await enqueueEvent(tx, 'item.waiting', { import: true, held, flagged }, Date.now());
    await createAudit().record(tx, IMPORT_ACTOR, {
      action: AUDIT_ACTIONS.import,
      entity: 'import',
      entityId: newId(),
      title: path.basename(report.source),
      changes: report.collections.map((c) => ({
        field: c.collection,
        after: `读取 ${c.read}，导入 ${c.imported}，更新 ${c.updated}，跳过 ${c.skipped}，修正 ${c.fixed}，图片 ${c.images}，待审 ${c.held}，标记 ${c.flagged}`,
      })),
    });
  });
}
