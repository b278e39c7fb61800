import type { UPLOAD_MESSAGES, UploadedImage } from '../../contract/upload';
import { api } from './api';

/** Multipart, one image in the field `file`; answers the stored path as `data`. */
export const UPLOAD_URL = '/api/upload';
export const UPLOAD_FIELD = 'file';
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * The server's words for the refusals said here first. A value cannot come from the contract
 * without bringing TypeBox into the bundle, so the text is repeated and its type holds it to the
 * contract's: a change there fails the type check here.
 */
const REFUSAL: Pick<typeof UPLOAD_MESSAGES, 'notAnImage' | 'tooLarge'> = {
  notAnImage: '只能上传 PNG、JPEG、GIF 或 WebP 图片',
  tooLarge: '上传文件失败，请检查文件的大小，控制在 2MB 以内',
};

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
