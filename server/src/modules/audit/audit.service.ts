import {
  AUDIT_ACTIONS,
  AUDIT_MESSAGES,
  REVERTED_BY_ACTION,
  REVERTED_BY_ENTITY_ACTION,
  REVERTIBLE_ACTIONS,
  type AuditAction,
  type AuditChange,
  type AuditEntity,
  type AuditEntry,
  type AuditExportQuery,
  type AuditChainReport,
  type AuditListQuery,
  type SecurityEvent,
} from '#contract/audit';
import type { Page } from '#contract/paging';
import { ENTITIES, REFERENCE_FIELDS, type EntityName } from '../../db/entities';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { Actor, RevertGuard } from './audit';
import type { SecurityEvents } from './security-events';
import type { AuditFilter, AuditRepository, AuditRow, NamedTable, RecordNames } from './audit.repository';

/**
 * Puts fields of one record back through that record's own update: the same permission checks,
 * validation, locks and audit entry as an edit, with the guard checked under its locks.
 */
export type Reverter = (actor: Actor, id: string, fields: Record<string, unknown>, guard: RevertGuard) => Promise<unknown>;

const SUPER = 1;

function changesOf(row: AuditRow): AuditChange[] {
  return Array.isArray(row.changes) ? (row.changes as AuditChange[]) : [];
}

/**
 * The fields an entry can put back: those it shows both values of (a password change it never
 * does) that its entity declares revertable.
 */
function restorable(row: AuditRow): AuditChange[] {
  const entity = ENTITIES[row.entity as EntityName] as { revertable: readonly string[] } | undefined;
  return changesOf(row).filter((change) => 'before' in change && 'after' in change && entity?.revertable.includes(change.field));
}

const REFERENCES: Record<string, NamedTable> = REFERENCE_FIELDS;

/** Entities that are records with a page of their own (the rest: sign-ins, settings, uploads, imports). */
const RECORD_ENTITIES: ReadonlySet<string> = new Set(Object.keys(ENTITIES));

const isRecordEntry = (row: AuditRow) => RECORD_ENTITIES.has(row.entity) && row.action !== AUDIT_ACTIONS.export;

/** The ids a page of entries refers to, per table: their records and the ids in their changes. */
function referencedIds(rows: readonly AuditRow[]): { [K in NamedTable]?: Set<string> } {
  const ids: { [K in NamedTable]?: Set<string> } = {};
  const add = (table: NamedTable, id: unknown) => {
    if (typeof id !== 'string' || !id) return;
    const set = ids[table] ?? new Set<string>();
    ids[table] = set.add(id);
  };
  for (const row of rows) {
    if (isRecordEntry(row)) add(row.entity as NamedTable, row.entityId);
    for (const change of changesOf(row)) {
      const table = REFERENCES[change.field];
      if (table) {
        add(table, change.before);
        add(table, change.after);
      }
    }
  }
  return ids;
}

function toEntry(row: AuditRow, names?: RecordNames): AuditEntry {
  const changes = row.changes === null ? null : changesOf(row).map((change) => named(change, names));
  const entry: AuditEntry = {
    _id: String(row.id),
    at: row.at,
    adminId: row.adminId,
    adminLoginId: row.adminLoginId,
    action: row.action as AuditAction,
    entity: row.entity as AuditEntity,
    entityId: row.entityId,
    title: row.title,
    changes,
    revertible:
      REVERTIBLE_ACTIONS.includes(row.action as AuditAction) &&
      (REVERTED_BY_ACTION.includes(row.action as AuditAction) ||
        REVERTED_BY_ENTITY_ACTION.includes(`${row.entity}:${row.action}`) ||
        restorable(row).length > 0),
  };
  if (names && isRecordEntry(row)) {
    const table = row.entity as NamedTable;
    entry.recordExists = names[table].has(row.entityId);
    const parent = table === 'comment' ? names.comment.get(row.entityId) : undefined;
    if (parent) Object.assign(entry, parent);
  }
  return entry;
}

/** A change with the names of the ids it holds, where they are still known. */
function named(change: AuditChange, names: RecordNames | undefined): AuditChange {
  const table = REFERENCES[change.field];
  if (!names || !table || table === 'comment') return change;
  const map = names[table] as Map<string, string>;
  const out = { ...change };
  if (typeof change.before === 'string' && map.has(change.before)) out.beforeName = map.get(change.before);
  if (typeof change.after === 'string' && map.has(change.after)) out.afterName = map.get(change.after);
  return out;
}

/** Entries as answered: with the names of what they refer to, looked up once for them all. */
export async function entriesOf(repo: AuditRepository, rows: AuditRow[]): Promise<AuditEntry[]> {
  if (!rows.length) return [];
  const names = await repo.lookup(referencedIds(rows));
  return rows.map((row) => toEntry(row, names));
}

export type AuditService = ReturnType<typeof createAuditService>;

/** A super admin sees everyone's entries; a normal admin only their own (another adminId is a 403). */
function filterFor(actor: Actor, query: AuditExportQuery): AuditFilter {
  const { adminId, entity, action, from, to, record } = query;
  if (actor.permission !== SUPER && adminId && adminId !== actor.id) throw forbidden();
  const own = actor.permission === SUPER ? adminId || undefined : actor.id;
  return { adminId: own, entity: entity || undefined, action: action || undefined, from, to, record: record || undefined };
}

/** Puts back what an entry of a REVERTED_BY_ACTION action did, from the entry itself. */
export type ActionReverter = (actor: Actor, entry: { entity: string; entityId: string; changes: AuditChange[] }) => Promise<unknown>;

export function createAuditService(deps: {
  repo: AuditRepository;
  reverters: Partial<Record<AuditEntity, Reverter>>;
  /** By action, or by `entity:action` where one entity's entries of an action go back another way. */
  actionReverters?: Partial<Record<AuditAction | `${AuditEntity}:${AuditAction}`, ActionReverter>>;
  security: SecurityEvents;
}) {
  const { repo, reverters, security } = deps;
  const actionReverters = deps.actionReverters ?? {};

  return {
    /**
     * A super admin sees everyone's entries; a normal admin only their own. `security=true`: the
     * security events instead (a super admin's only), the counts noted so far written first.
     */
    async list(actor: Actor, query: AuditListQuery): Promise<Page<AuditEntry> | Page<SecurityEvent>> {
      if (query.security) {
        if (actor.permission !== SUPER) throw forbidden();
        await security.flush();
        return security.list({ current: query.current, pageSize: query.pageSize });
      }
      const page = await repo.list(filterFor(actor, query), { current: query.current, pageSize: query.pageSize });
      return { ...page, data: await entriesOf(repo, page.data) };
    },

    /** The filters an admin may use: a normal admin's are always narrowed to their own entries. */
    filterFor,

    /** Entries with the names of what they refer to (for the export's rows too). */
    entries: (rows: AuditRow[]) => entriesOf(repo, rows),

    /**
     * One record's history, by everyone who wrote it: a record any admin may edit shows who did
     * what to it. An admin account's history and sign-ins are a super admin's or that admin's own.
     */
    async history(actor: Actor, entity: AuditEntity, id: string): Promise<AuditEntry[]> {
      if ((entity === 'admin' || entity === 'session') && actor.permission !== SUPER && id !== actor.id) throw forbidden();
      return entriesOf(repo, await repo.history(entity, id));
    },

    /** The hash chain checked from end to end (a super admin's). */
    async verify(actor: Actor): Promise<AuditChainReport> {
      if (actor.permission !== SUPER) throw forbidden();
      return repo.verify();
    },

    async revert(actor: Actor, auditId: number): Promise<AuditEntry[]> {
      const row = await repo.findById(auditId);
      if (!row) throw notFound(AUDIT_MESSAGES.notFound);
      const byAction =
        actionReverters[`${row.entity as AuditEntity}:${row.action as AuditAction}`] ?? actionReverters[row.action as AuditAction];
      if (byAction) {
        await byAction(actor, { entity: row.entity, entityId: row.entityId, changes: changesOf(row) });
        return entriesOf(repo, await repo.history(row.entity, row.entityId));
      }
      const reverter = reverters[row.entity as AuditEntity];
      if (!reverter || !REVERTIBLE_ACTIONS.includes(row.action as AuditAction)) throw badRequest(AUDIT_MESSAGES.notRevertible);
      const fields = restorable(row);
      if (!fields.length) throw badRequest(changesOf(row).length ? AUDIT_MESSAGES.passwordOnly : AUDIT_MESSAGES.notRevertible);
      // A record in the bin can come back: say where, rather than that it is gone.
      if (await repo.inBin(row.entityId)) throw conflict(AUDIT_MESSAGES.inBin);
      await reverter(actor, row.entityId, Object.fromEntries(fields.map((change) => [change.field, change.before])), {
        action: AUDIT_ACTIONS.revert,
        expect: Object.fromEntries(fields.map((change) => [change.field, change.after])),
      });
      return entriesOf(repo, await repo.history(row.entity, row.entityId));
    },
  };
}
