import { AUDIT_MESSAGES, type AuditAction, type AuditChange, type AuditEntity } from '#contract/audit';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/envelope';
import { fieldLabel } from '#contract/labels';
import { TRUST_MESSAGES, type ConflictChange } from '#contract/version';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import { counters } from '../../lib/counters';
import { AppError, conflict } from '../../lib/errors';

/**
 * Recording to the audit log (操作日志). Every service that writes calls `audit.record` inside
 * the transaction of its write, so an entry exists exactly when the write does: a rolled-back
 * write leaves no entry, and no write is committed without one.
 */

/** Who did it: the signed-in admin, as the request's token says. */
export interface Actor {
  id: string;
  loginId: string;
  permission: number;
  /** Proved who they are within the re-authentication window (plugins/reauth.ts); absent: no. */
  freshProof?: boolean;
}

export interface AuditInput {
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  /** What the log shows for the record: an account, a title. */
  title: string;
  changes?: AuditChange[] | null;
}

/**
 * The entries of records a delete path sent to the recycle bin, one per record, `trashIds[i]`
 * being the bin entry of `records[i]`. A rejection (审核台, `reason` given) keeps its reason and
 * its bin entry, which 撤销 brings back.
 */
export function removalEntries(
  entity: AuditEntity,
  action: AuditAction,
  records: ReadonlyArray<{ id: string; title: string }>,
  trashIds: readonly string[],
  reason?: string,
): AuditInput[] {
  return records.map(({ id, title }, i) => ({
    action,
    entity,
    entityId: id,
    title,
    ...(reason !== undefined && {
      changes: [
        { field: 'reason', after: reason },
        { field: 'trash', after: trashIds[i] },
      ],
    }),
  }));
}

/**
 * What a revert asks of the update it goes through: record the write as 恢复, and only if each
 * field still holds the value the reverted entry left in it (checked under the write's locks).
 */
export interface RevertGuard {
  action: AuditAction;
  expect: Record<string, unknown>;
}

export type Audit = ReturnType<typeof createAudit>;

const TITLE_MAX = 120;

/**
 * jsonb refuses a lone surrogate (`\ud800`, which a JSON body may carry in a nickname): the log
 * keeps U+FFFD in its place rather than fail the write. JSON.stringify escapes only lone ones.
 */
function wellFormed(text: string): string {
  return text.replace(/\\ud[89a-f][0-9a-f]{2}/gi, '\\ufffd').replace(/[\ud800-\udfff]/g, (c, i, all) => {
    const code = c.charCodeAt(0);
    const paired = code < 0xdc00 ? /[\udc00-\udfff]/.test(all[i + 1] ?? '') : /[\ud800-\udbff]/.test(all[i - 1] ?? '');
    return paired ? c : '\ufffd';
  });
}

export function createAudit(deps: { now?: () => number } = {}) {
  const now = deps.now ?? Date.now;
  return {
    /** One insert for one record or a whole batch, in the caller's transaction; answers the entries' ids in order. */
    async record(tx: Db, actor: Actor, entries: AuditInput | readonly AuditInput[]): Promise<number[]> {
      const list = Array.isArray(entries) ? entries : [entries as AuditInput];
      if (!list.length) return [];
      const at = now();
      const inserted = await tx
        .insert(auditLog)
        .values(
          list.map((entry) => ({
            at,
            adminId: actor.id,
            adminLoginId: actor.loginId,
            action: entry.action,
            entity: entry.entity,
            entityId: entry.entityId,
            title: wellFormed(entry.title.slice(0, TITLE_MAX)),
            changes: entry.changes ? (JSON.parse(wellFormed(JSON.stringify(entry.changes))) as AuditChange[]) : null,
          })),
        )
        .returning({ id: auditLog.id });
      // The serial ids are drawn in the order of the values: ascending is the order given.
      return inserted.map((row) => row.id).sort((a, b) => a - b);
    },
  };
}

/** Field names kept out of the log's values: their change is noted, never shown. */
const SECRET_FIELDS: Record<string, string> = { passwordHash: 'password' };

/**
 * The fields of `changes` whose value differs from `before`, with both values; a password hash
 * becomes 「密码已修改」 with neither.
 */
export function diff(before: Record<string, unknown>, changes: Record<string, unknown>): AuditChange[] {
  const out: AuditChange[] = [];
  for (const [field, after] of Object.entries(changes)) {
    if (after === undefined) continue;
    const secret = SECRET_FIELDS[field];
    if (secret) {
      out.push({ field: secret, note: AUDIT_MESSAGES.passwordChanged });
      continue;
    }
    if (!sameValue(before[field], after)) out.push({ field, before: before[field], after });
  }
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Refuses a revert when a field it puts back no longer holds the value the reverted entry left:
 * someone changed it since, and putting the old value back would silently undo their change.
 */
export function checkGuard(current: Record<string, unknown>, guard: RevertGuard | undefined): void {
  if (!guard) return;
  const changed = Object.entries(guard.expect)
    .filter(([field, value]) => !sameValue(current[field], value))
    .map(([field]) => fieldLabel(field));
  if (changed.length) throw conflict(`${AUDIT_MESSAGES.changedSince}（${changed.join('、')}）`);
}

/** For a reverted record that is gone: a 409, not the 404 of an ordinary update. */
export function missingRecord(guard: RevertGuard | undefined, notFoundError: Error): Error {
  return guard ? conflict(AUDIT_MESSAGES.gone) : notFoundError;
}

/** How many of the log's entries a 409 names at most (an edit left open for days meets many). */
const CONFLICT_ENTRIES_MAX = 50;

/**
 * The optimistic check of a PATCH: `row` is the record as locked in the write's transaction (its
 * version bumped by the bump_version trigger on every change). A PATCH without a version writes
 * over whatever is there, as before versions existed, and is counted. One whose version is not
 * the record's is refused with 409 VERSION_CONFLICT naming what changed since, from the log's
 * latest entries of the record (one per write), and nothing is written.
 */
export async function checkVersion(
  tx: Db,
  target: { entity: AuditEntity; id: string; version: number },
  expected: number | undefined,
  current: () => Record<string, unknown>,
): Promise<void> {
  if (expected === undefined) {
    counters.increment('unversionedPatches');
    return;
  }
  if (expected === target.version) return;
  counters.increment('versionConflicts');
  const since = Math.min(Math.max(target.version - expected, 0), CONFLICT_ENTRIES_MAX);
  const entries = since
    ? await tx
        .select({ at: auditLog.at, by: auditLog.adminLoginId, changes: auditLog.changes })
        .from(auditLog)
        .where(and(eq(auditLog.entity, target.entity), eq(auditLog.entityId, target.id), isNotNull(auditLog.changes)))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(since)
    : [];
  const changes: ConflictChange[] = entries
    .reverse()
    .flatMap(({ at, by, changes: list }) => ((list as AuditChange[] | null) ?? []).map((change) => ({ ...change, by, at })));
  throw new AppError(409, TRUST_MESSAGES.versionConflict, ERROR_CODES.versionConflict, {
    conflict: { yourVersion: expected, currentVersion: target.version, changes, current: current() },
  });
}
