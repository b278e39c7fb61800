import { api } from './api';

/** Multipart, one image in the field `file`; answers the stored path as `data`. */
export const UPLOAD_URL = '/api/upload';
export const UPLOAD_FIELD = 'file';
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Why the server would refuse this file, said before sending it (the server judges the bytes
 * anyway); undefined when it may go.
 */
export function imageRefusal(file: { type: string; size: number }): string | undefined {
  if (!UPLOAD_TYPES.includes(file.type)) return '只能上传 PNG、JPEG、GIF 或 WebP 图片';
  if (file.size > UPLOAD_MAX_BYTES) return '上传文件失败，请检查文件的大小，控制在 2MB 以内';
  return undefined;
}

/** Answers the stored image's address, e.g. /static/uploads/<id>.png. */
export function uploadImage(file: Blob): Promise<string> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, file);
  return api<string>(UPLOAD_URL, { method: 'POST', data: form });
}
