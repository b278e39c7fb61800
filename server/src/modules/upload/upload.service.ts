import { UPLOAD_MESSAGES } from '#contract/upload';
import { AUDIT_ACTIONS } from '#contract/audit';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Actor, Audit } from '../audit/audit';
import { newId } from '../../lib/ids';
import { imageDimensions } from './dimensions';
import type { UploadRepository } from './upload.repository';

export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 25_000_000;

/** The only formats accepted, judged by the file's bytes; the value is the stored extension. */
const ALLOWED: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export const UPLOAD_URL_PREFIX = '/static/uploads/';

export type UploadService = ReturnType<typeof createUploadService>;

/**
 * What an image is, judged by its bytes (never its name or declared type): its extension and type,
 * or the refusal an upload answers (too large, not an image, too many pixels).
 */
export async function inspectImage(bytes: Buffer): Promise<{ ext: string; mime: string }> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError(413, UPLOAD_MESSAGES.tooLarge);
  // file-type is ESM-only; a dynamic import loads it from this CommonJS build.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  const ext = detected ? ALLOWED[detected.mime] : undefined;
  if (!detected || !ext) throw new AppError(415, UPLOAD_MESSAGES.notAnImage);
  const size = imageDimensions(detected.mime, bytes);
  if (!size) throw new AppError(415, UPLOAD_MESSAGES.notAnImage);
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new AppError(413, UPLOAD_MESSAGES.tooManyPixels);
  }
  return { ext, mime: detected.mime };
}

export function createUploadService(deps: { db: Db; uploads: UploadRepository; audit: Audit; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    /** Stores an image and answers the path it is served at; an admin's upload is audited, a member's (actor null) is not. */
    async store(actor: Actor | null, bytes: Buffer): Promise<string> {
      const { ext, mime } = await inspectImage(bytes);
      const id = newId();
      // Uploads are written by nobody else: no table lock, but the entry still commits with the image.
      await deps.db.transaction(async (tx) => {
        await deps.uploads.insert({ id, ext, mime, size: bytes.length, data: bytes, createdAt: now() }, tx);
        if (actor)
          await deps.audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'upload', entityId: id, title: `${id}.${ext}` });
      });
      return `${UPLOAD_URL_PREFIX}${id}.${ext}`;
    },

    async read(fileName: string) {
      const match = /^([0-9a-f]{24})\.(png|jpg|gif|webp)$/.exec(fileName);
      return match ? deps.uploads.find(match[1], match[2]) : null;
    },
  };
}
