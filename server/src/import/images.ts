import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uploads } from '../db/schema';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { createUploadRepository } from '../modules/upload/upload.repository';
import { inspectImage, MAX_UPLOAD_BYTES, UPLOAD_URL_PREFIX } from '../modules/upload/upload.service';

export type ImageOutcome = { path: string; brought: boolean } | { path: null; reason: string };

/**
 * Brings the old `/static/...` images over as uploads, with the checks of an upload (the upload
 * service's: magic bytes, size, dimensions). One file used by several records is stored once; a
 * file whose bytes are already an upload (a second run) is that upload.
 */
export function createImageImporter(staticDir: string | null) {
  const done = new Map<string, ImageOutcome>();
  const root = staticDir ? path.resolve(staticDir) : null;

  return {
    /** The new path of an old image path, or null and why (the record then gets the default). */
    async bring(tx: Db, oldPath: string): Promise<ImageOutcome> {
      if (!oldPath) return { path: null, reason: '' };
      // Addresses on the web and this product's own uploads stay as they are.
      if (/^https?:\/\/\S+$/i.test(oldPath) || /^\/static\/uploads\/[0-9a-f]{24}\.(png|jpg|gif|webp)$/.test(oldPath)) {
        return oldPath.length <= 512 ? { path: oldPath, brought: false } : { path: null, reason: '图片地址过长' };
      }
      if (!oldPath.startsWith('/static/')) return { path: null, reason: `图片路径 ${oldPath} 不是 /static/ 下的文件` };
      if (!root) return { path: null, reason: `没有指定 --static，图片 ${oldPath} 无法导入` };
      const cached = done.get(oldPath);
      if (cached) return cached.path ? { path: cached.path, brought: false } : cached;
      const outcome = await this.read(tx, root, oldPath);
      done.set(oldPath, outcome);
      return outcome;
    },

    async read(tx: Db, dir: string, oldPath: string): Promise<ImageOutcome> {
      const file = path.resolve(dir, decodeURIComponent(oldPath.slice('/static/'.length).split(/[?#]/)[0]));
      // The record's text decides the path: it must not lead out of the static folder.
      if (!file.startsWith(dir + path.sep)) return { path: null, reason: `图片路径 ${oldPath} 指向 static 文件夹之外` };
      let stat: fs.Stats;
      try {
        stat = fs.statSync(file);
      } catch {
        return { path: null, reason: `图片 ${oldPath} 不存在` };
      }
      if (!stat.isFile()) return { path: null, reason: `图片 ${oldPath} 不是文件` };
      if (stat.size > MAX_UPLOAD_BYTES) return { path: null, reason: `图片 ${oldPath} 超过 2MB` };
      const bytes = fs.readFileSync(file);
      const [same] = await tx
        .select({ id: uploads.id, ext: uploads.ext })
        .from(uploads)
        .where(and(eq(uploads.size, bytes.length), eq(uploads.data, bytes)))
        .limit(1);
      if (same) return { path: `${UPLOAD_URL_PREFIX}${same.id}.${same.ext}`, brought: false };
      try {
        // The upload's own checks; the import's one audit entry covers the images it brings.
        const { ext, mime } = await inspectImage(bytes);
        const id = newId();
        await createUploadRepository(tx).insert({ id, ext, mime, size: bytes.length, data: bytes, createdAt: Date.now() });
        return { path: `${UPLOAD_URL_PREFIX}${id}.${ext}`, brought: true };
      } catch (error) {
        if (error instanceof AppError) return { path: null, reason: `图片 ${oldPath}：${error.message}` };
        throw error;
      }
    },
  };
}
