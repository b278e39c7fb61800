import { TYPE_MESSAGES } from '#contract/type';
import type { TypeRecord } from '#contract/type';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { AUDIT_ACTIONS } from '#contract/audit';
import type { Db } from '../../db/client';
import { types as typesTable } from '../../db/schema';
import { writeTransaction } from '../../db/write-lock';
import { ENTITIES } from '../../db/entities';
import { checkGuard, checkVersion, diff, missingRecord, type Actor, type Audit, type RevertGuard } from '../audit/audit';
import { lockRow } from '../../db/rows';
import type { TypeRepository, TypeRow, TypeUsage } from './type.repository';

function toType(row: TypeRow): TypeRecord {
  return { _id: row.id, typeName: row.typeName, createdAt: row.createdAt, version: row.version };
}

function describeUsage(usage: TypeUsage): string {
  const parts = [
    usage.books && `书籍 ${usage.books} 本`,
    usage.interviews && `面试题 ${usage.interviews} 道`,
    usage.issues && `问答 ${usage.issues} 个`,
    usage.comments && `评论 ${usage.comments} 条`,
  ].filter(Boolean);
  return parts.join('，');
}

export type TypeService = ReturnType<typeof createTypeService>;

export function createTypeService(deps: { db: Db; types: TypeRepository; audit: Audit; now?: () => number }) {
  const { db, types, audit } = deps;
  const now = deps.now ?? Date.now;

  return {
    async list(): Promise<TypeRecord[]> {
      return (await types.list()).map(toType);
    },

    async create(actor: Actor, typeName: string): Promise<TypeRecord> {
      const created = await writeTransaction(db, ['types'], async (tx) => {
        const inserted = await types.insert({ id: newId(), typeName, createdAt: now() }, tx);
        if (inserted)
          await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'type', entityId: inserted.id, title: typeName });
        return inserted;
      });
      if (!created) throw conflict(TYPE_MESSAGES.duplicate);
      return toType(created);
    },

    async rename(actor: Actor, id: string, typeName: string, guard?: RevertGuard, version?: number): Promise<TypeRecord> {
      const existing = await types.findByName(typeName);
      if (existing && existing.id !== id) throw conflict(TYPE_MESSAGES.duplicate);
      try {
        const row = await writeTransaction(db, ['types'], async (tx) => {
          const before = await lockRow(tx, typesTable, id);
          if (!before) throw missingRecord(guard, notFound(TYPE_MESSAGES.notFound));
          checkGuard(before, guard);
          if (!guard) await checkVersion(tx, { entity: 'type', id, version: before.version }, version, () => toType(before));
          const renamed = await types.rename(id, typeName, tx);
          if (!renamed) throw notFound(TYPE_MESSAGES.notFound);
          await audit.record(tx, actor, {
            action: guard?.action ?? AUDIT_ACTIONS.update,
            entity: 'type',
            entityId: id,
            title: typeName,
            changes: diff(before, { typeName }),
          });
          return renamed;
        });
        return toType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(TYPE_MESSAGES.duplicate);
        throw error;
      }
    },

    async remove(actor: Actor, id: string): Promise<void> {
      // Every table that refers to types (the registry's deleteLocks): a content write holding the
      // type (key share) finishes before the delete looks, and none starts until it is done.
      await writeTransaction(db, ENTITIES.type.deleteLocks, async (tx) => {
        const usage = await types.usage(id, tx);
        const inUse = describeUsage(usage);
        if (inUse) throw conflict(`${TYPE_MESSAGES.inUse}（${inUse}）`);
        const type = await lockRow(tx, typesTable, id);
        if (!type || !(await types.delete(id, tx))) throw notFound(TYPE_MESSAGES.notFound);
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.delete, entity: 'type', entityId: id, title: type.typeName });
      });
    },
  };
}
