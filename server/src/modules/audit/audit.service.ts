import {
  AUDIT_ACTIONS,
  AUDIT_MESSAGES,
  REVERTIBLE_ACTIONS,
  type AuditAction,
  type AuditChange,
  type AuditEntity,
  type AuditEntry,
  type AuditListQuery,
} from '../../../../contract/audit';
import type { Page } from '../../../../contract/paging';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { mapPage } from '../../lib/paging';
import type { Actor, RevertGuard } from './audit';
import type { AuditRepository, AuditRow } from './audit.repository';

/**
 * Puts fields of one record back through that record's own update: the same permission checks,
 * validation, locks and audit entry as an edit, with the guard checked under its locks.
 */
export type Reverter = (actor: Actor, id: string, fields: Record<string, unknown>, guard: RevertGuard) => Promise<unknown>;

const SUPER = 1;

function changesOf(row: AuditRow): AuditChange[] {
  return Array.isArray(row.changes) ? (row.changes as AuditChange[]) : [];
}

/** The fields an entry can put back: those it shows both values of (a password change it never does). */
function restorable(row: AuditRow): AuditChange[] {
  return changesOf(row).filter((change) => 'before' in change && 'after' in change);
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    _id: String(row.id),
    at: row.at,
    adminId: row.adminId,
    adminLoginId: row.adminLoginId,
    action: row.action as AuditAction,
    entity: row.entity as AuditEntity,
    entityId: row.entityId,
    title: row.title,
    changes: row.changes === null ? null : changesOf(row),
    revertible: REVERTIBLE_ACTIONS.includes(row.action as AuditAction) && restorable(row).length > 0,
  };
}

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService(deps: { repo: AuditRepository; reverters: Partial<Record<AuditEntity, Reverter>> }) {
  const { repo, reverters } = deps;

  return {
    /** A super admin sees everyone's entries; a normal admin only their own. */
    async list(actor: Actor, { current, pageSize, adminId, entity, action, from, to }: AuditListQuery): Promise<Page<AuditEntry>> {
      if (actor.permission !== SUPER && adminId && adminId !== actor.id) throw forbidden();
      const own = actor.permission === SUPER ? adminId || undefined : actor.id;
      return mapPage(
        await repo.list({ adminId: own, entity: entity || undefined, action: action || undefined, from, to }, { current, pageSize }),
        toEntry,
      );
    },

    /**
     * One record's history, by everyone who wrote it: a record any admin may edit shows who did
     * what to it. An admin account's history and sign-ins are a super admin's or that admin's own.
     */
    async history(actor: Actor, entity: AuditEntity, id: string): Promise<AuditEntry[]> {
      if ((entity === 'admin' || entity === 'session') && actor.permission !== SUPER && id !== actor.id) throw forbidden();
      return (await repo.history(entity, id)).map(toEntry);
    },

    async revert(actor: Actor, auditId: number): Promise<AuditEntry[]> {
      const row = await repo.findById(auditId);
      if (!row) throw notFound(AUDIT_MESSAGES.notFound);
      const reverter = reverters[row.entity as AuditEntity];
      if (!reverter || !REVERTIBLE_ACTIONS.includes(row.action as AuditAction)) throw badRequest(AUDIT_MESSAGES.notRevertible);
      const fields = restorable(row);
      if (!fields.length) throw badRequest(changesOf(row).length ? AUDIT_MESSAGES.passwordOnly : AUDIT_MESSAGES.notRevertible);
      await reverter(actor, row.entityId, Object.fromEntries(fields.map((change) => [change.field, change.before])), {
        action: AUDIT_ACTIONS.revert,
        expect: Object.fromEntries(fields.map((change) => [change.field, change.after])),
      });
      return (await repo.history(row.entity, row.entityId)).map(toEntry);
    },
  };
}
