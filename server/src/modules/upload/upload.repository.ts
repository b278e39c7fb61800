import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';

export type UploadRow = typeof uploads.$inferSelect;
export type UploadRepository = ReturnType<typeof createUploadRepository>;

export function createUploadRepository(db: Db) {
  return {
    async insert(row: UploadRow, executor: Db = db) {
      await executor.insert(uploads).values(row);
    },
    async find(id: string, ext: string): Promise<UploadRow | null> {
      const [row] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.id, id), eq(uploads.ext, ext)));
      return row ?? null;
    },
  };
}
