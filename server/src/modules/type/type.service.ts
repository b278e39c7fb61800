import { TYPE_MESSAGES } from '../../../../contract/type';
import type { TypeRecord } from '../../../../contract/type';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Db } from '../../db/client';
import { writeTransaction } from '../../db/write-lock';
import type { TypeRepository, TypeRow, TypeUsage } from './type.repository';


function toType(row: TypeRow): TypeRecord {
  return { _id: row.id, typeName: row.typeName, createdAt: row.createdAt };
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

export function createTypeService(deps: { db: Db; types: TypeRepository; now?: () => number }) {
  const { db, types } = deps;
  const now = deps.now ?? Date.now;

  return {
    async list(): Promise<TypeRecord[]> {
      return (await types.list()).map(toType);
    },

    async create(typeName: string): Promise<TypeRecord> {
      const created = await writeTransaction(db, ['types'], (tx) => types.insert({ id: newId(), typeName, createdAt: now() }, tx));
      if (!created) throw conflict(TYPE_MESSAGES.duplicate);
      return toType(created);
    },

    async rename(id: string, typeName: string): Promise<TypeRecord> {
      const existing = await types.findByName(typeName);
      if (existing && existing.id !== id) throw conflict(TYPE_MESSAGES.duplicate);
      try {
        const row = await writeTransaction(db, ['types'], (tx) => types.rename(id, typeName, tx));
        if (!row) throw notFound(TYPE_MESSAGES.notFound);
        return toType(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(TYPE_MESSAGES.duplicate);
        throw error;
      }
    },

    async remove(id: string): Promise<void> {
      // Every table that refers to types: a content write holding the type (key share) finishes
      // before the delete looks, and none starts until it is done.
      await writeTransaction(db, ['types', 'books', 'interviews', 'issues', 'comments'], async (tx) => {
        const usage = await types.usage(id, tx);
        const inUse = describeUsage(usage);
        if (inUse) throw conflict(`${TYPE_MESSAGES.inUse}（${inUse}）`);
        if (!(await types.delete(id, tx))) throw notFound(TYPE_MESSAGES.notFound);
      });
    },
  };
}
