import { AUDIT_ACTIONS, type AuditAction } from '#contract/audit';
import { TRASH_MESSAGES, type TrashEntity, type TrashEntry, type TrashListQuery } from '#contract/trash';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, type Page } from '#contract/paging';
import type { Db } from '../../db/client';
import { writeTransaction } from '../../db/write-lock';
import { conflict, forbidden, isForeignKeyViolation, isUniqueViolation, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { startJob, type Job } from '../../lib/jobs';
import type { Actor, Audit } from '../audit/audit';
import { RESTORE_ORDER } from '../../db/entities';
import type { TrashLocks, TrashRepository, TrashRow } from './trash.repository';
import { pageOf } from '../../lib/paging';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Who deletes, restores or purges: the signed-in admin, as the audit log records them. */
export type { Actor };

/** The locks of a restore or a purge: every table a restore inserts into or recounts, in LOCK_ORDER. */
export const TRASH_LOCKS = RESTORE_ORDER;

/** Deleting a user needs a super admin; so does bringing one back. */
const SUPER_ONLY: ReadonlySet<TrashEntity> = new Set(['user']);

const MISSING_PARENT = {
  user: TRASH_MESSAGES.userGone,
  issue: TRASH_MESSAGES.issueGone,
  book: TRASH_MESSAGES.bookGone,
  type: TRASH_MESSAGES.typeGone,
} as const;

function toEntry(row: TrashRow): TrashEntry {
  return {
    _id: row.id,
    entity: row.entity as TrashEntity,
    entityId: row.entityId,
    title: row.title,
    cascaded: row.cascaded,
    deletedBy: { _id: row.deletedBy, loginId: row.deletedByLoginId },
    deletedAt: row.deletedAt,
    expiresAt: row.expiresAt,
  };
}

export type TrashService = ReturnType<typeof createTrashService>;

export function createTrashService(deps: { db: Db; trash: TrashRepository; audit: Audit; retentionDays: number; now?: () => number }) {
  const { db, trash, audit, retentionDays } = deps;
  const now = deps.now ?? Date.now;

  /** Restores entry `id` inside `tx`, which holds TRASH_LOCKS; answers the entry restored. */
  async function restoreIn(tx: TrashLocks, id: string, by: Actor): Promise<TrashEntry> {
    const entry = await trash.lock(id, tx);
    if (!entry) throw notFound(TRASH_MESSAGES.notFound);
    if (SUPER_ONLY.has(entry.entity as TrashEntity) && by.permission !== 1) throw forbidden();
    const [taken] = await trash.takenLoginIds(id, tx);
    if (taken !== undefined) throw conflict(TRASH_MESSAGES.loginIdTaken(taken));
    for (const table of RESTORE_ORDER) {
      // Checked after the tables before it are back: a comment under a restored issue finds it.
      const missing = await trash.missingParent(id, table, tx);
      if (missing) throw conflict(MISSING_PARENT[missing]);
      await trash.reinsert(id, table, tx);
      if (table === 'users') await trash.rekeyRestoredUsers(id, tx);
    }
    await trash.recountParents(id, tx);
    await trash.remove([id], tx);
    await record(tx, by, AUDIT_ACTIONS.revert, entry);
    return toEntry(entry);
  }

  /** The entry in the audit log is the binned record's (a user, a book…), so its history shows 删除, then 恢复 or 彻底删除. */
  async function record(tx: TrashLocks, by: Actor, action: AuditAction, entry: TrashRow): Promise<void> {
    await audit.record(tx, by, { action, entity: entry.entity as TrashEntity, entityId: entry.entityId, title: entry.title });
  }

  /** Purges entry `id` inside `tx` (holding TRASH_LOCKS), with the uploads only it referred to. */
  async function purgeIn(tx: TrashLocks, id: string, by: Actor): Promise<TrashEntry> {
    const entry = await trash.lock(id, tx);
    if (!entry) throw notFound(TRASH_MESSAGES.notFound);
    await trash.remove([id], tx);
    await record(tx, by, AUDIT_ACTIONS.purge, entry);
    return toEntry(entry);
  }

  return {
    /**
     * Keeps what a deletion is about to remove as a bin entry. Called by every delete of a user,
     * book, interview question, issue or comment, in its transaction and before its deletes;
     * answers the entry's id, or null when the record does not exist.
     */
    capture(tx: Db, entity: TrashEntity, entityId: string, by: Pick<Actor, 'id' | 'loginId'>): Promise<string | null> {
      const at = now();
      return trash.capture(tx, { id: newId(at), entity, entityId, by, at, expiresAt: at + retentionDays * DAY_MS });
    },

    async list({ current, pageSize, entity }: TrashListQuery): Promise<Page<TrashEntry>> {
      const page = { current: current ?? FIRST_PAGE, pageSize: pageSize ?? DEFAULT_PAGE_SIZE };
      const { rows, total } = await trash.list({ entity: entity || undefined }, page);
      return pageOf(rows.map(toEntry), total, page);
    },

    restoreIn,
    purgeIn,

    /** Brings a deletion back whole, in one transaction under the locks its delete took and more. */
    async restore(id: string, by: Actor): Promise<TrashEntry> {
      try {
        return await writeTransaction(db, TRASH_LOCKS, (tx) => restoreIn(tx, id, by));
      } catch (error) {
        // The checks above run under the write locks, so these are only a safety net.
        if (isUniqueViolation(error)) throw conflict(TRASH_MESSAGES.loginIdTaken(''));
        if (isForeignKeyViolation(error)) throw conflict(TRASH_MESSAGES.typeGone);
        throw error;
      }
    },

    purge(id: string, by: Actor): Promise<TrashEntry> {
      return writeTransaction(db, TRASH_LOCKS, (tx) => purgeIn(tx, id, by));
    },

    /**
     * Purges every expired entry, `batch` per transaction so that the write locks are held
     * briefly; answers how many entries and uploads went.
     */
    async purgeExpired(batch = 100): Promise<{ entries: number; uploads: number }> {
      const total = { entries: 0, uploads: 0 };
      const at = now();
      for (;;) {
        const done = await writeTransaction(db, TRASH_LOCKS, async (tx) => trash.remove(await trash.expired(at, batch, tx), tx));
        total.entries += done.entries;
        total.uploads += done.uploads;
        if (done.entries < batch) return total;
      }
    },
  };
}

/** How often a serving server empties the bin of what has expired. */
export const TRASH_EXPIRY_INTERVAL_MS = 60 * 60 * 1000;

/** The bin's expiry as a background job (lib/jobs.ts): at once, then every `intervalMs`. */
export function trashExpiryJob(service: Pick<TrashService, 'purgeExpired'>, intervalMs = TRASH_EXPIRY_INTERVAL_MS): Job {
  return { name: 'recycle bin expiry', intervalMs, runAtStart: true, run: () => service.purgeExpired() };
}

/** Runs the expiry job alone; answers the function that stops it and waits for a run in progress. */
export function startTrashExpiry(
  service: Pick<TrashService, 'purgeExpired'>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  return startJob(trashExpiryJob(service, intervalMs), onError).stop;
}

/** What a deleting service needs of the bin. */
export type TrashBin = Pick<TrashService, 'capture'>;
