import { asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { types } from '../../db/schema';
import type { Locked } from '../../db/write-lock';

export type TypeRow = typeof types.$inferSelect;
export type TypeRepository = ReturnType<typeof createTypeRepository>;

export interface TypeUsage {
  books: number;
  interviews: number;
  issues: number;
  comments: number;
}

export function createTypeRepository(db: Db) {
  return {
    list() {
      return db.select().from(types).orderBy(asc(types.createdAt), asc(types.id));
    },

    async findById(id: string): Promise<TypeRow | null> {
      const [row] = await db.select().from(types).where(eq(types.id, id));
      return row ?? null;
    },

    /**
     * Whether the type exists; inside a transaction it also stays undeletable until the end, so
     * content created with it never meets a vanished type.
     */
    async holdForUse(id: string, executor: Db): Promise<boolean> {
      const rows = await executor.select({ id: types.id }).from(types).where(eq(types.id, id)).for('key share');
      return rows.length > 0;
    },

    async findByName(typeName: string): Promise<TypeRow | null> {
      const [row] = await db.select().from(types).where(eq(types.typeName, typeName));
      return row ?? null;
    },

    /** null when the name is taken (also when two writers race). */
    async insert(row: typeof types.$inferInsert, tx: Locked<'types'>): Promise<TypeRow | null> {
      const [created] = await tx.insert(types).values(row).onConflictDoNothing().returning();
      return created ?? null;
    },

    async rename(id: string, typeName: string, tx: Locked<'types'>): Promise<TypeRow | null> {
      const [row] = await tx.update(types).set({ typeName }).where(eq(types.id, id)).returning();
      return row ?? null;
    },

    /** How much content still uses the type: four index-only counts in one round trip. */
    async usage(id: string, executor: Db = db): Promise<TypeUsage> {
      const [row] = await queryRows<TypeUsage>(
        executor,
        sql`
        select
          (select count(*)::int from books where type_id = ${id}) as books,
          (select count(*)::int from interviews where type_id = ${id}) as interviews,
          (select count(*)::int from issues where type_id = ${id}) as issues,
          (select count(*)::int from comments where type_id = ${id}) as comments`,
      );
      return {
        books: Number(row.books),
        interviews: Number(row.interviews),
        issues: Number(row.issues),
        comments: Number(row.comments),
      };
    },

    async delete(id: string, tx: Locked<'types'>): Promise<boolean> {
      const rows = await tx.delete(types).where(eq(types.id, id)).returning({ id: types.id });
      return rows.length > 0;
    },
  };
}
