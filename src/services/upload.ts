/** Multipart, one image in the field `file`; answers the stored path as `data`. */
export const UPLOAD_URL = '/api/upload';
export const UPLOAD_FIELD = 'file';
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
