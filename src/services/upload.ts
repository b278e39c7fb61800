import type { UploadedImage } from '#contract/upload';
import { UPLOAD_MESSAGES } from '#contract/values/upload';
import { api } from './api';

/** Multipart, one image in the field `file`; answers the stored path as `data`. */
export const UPLOAD_URL = '/api/upload';
export const UPLOAD_FIELD = 'file';
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The server's words for the refusals said here first (the contract's plain values). */
const REFUSAL = UPLOAD_MESSAGES;

/**
 * Why the server would refuse this file, said before sending it (the server judges the bytes
 * anyway); undefined when it may go.
 */
export function imageRefusal(file: { type: string; size: number }): string | undefined {
  if (!UPLOAD_TYPES.includes(file.type)) return REFUSAL.notAnImage;
  if (file.size > UPLOAD_MAX_BYTES) return REFUSAL.tooLarge;
  return undefined;
}

/** Answers the stored image's address, e.g. /static/uploads/<id>.png. */
export function uploadImage(file: Blob): Promise<UploadedImage> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, file);
  return api<UploadedImage>(UPLOAD_URL, { method: 'POST', data: form });
}
