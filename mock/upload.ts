/**
 * POST /api/upload for `npm run dev:mock`: keeps the image in memory and serves it back under
 * /static/uploads/, judged by its bytes as docs/api.md says (PNG, JPEG, GIF or WebP, at most 2 MB).
 */
import { defineMock } from '@umijs/max';
import { db, fail, objectId, ok, requireAdmin } from './lib/store';

const MAX_BYTES = 2 * 1024 * 1024;

/** What umi's mock middleware (multer) puts on the request for each uploaded file. */
interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
  size: number;
}

function imageKind(bytes: Buffer): { ext: string; contentType: string } | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { ext: 'png', contentType: 'image/png' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { ext: 'jpg', contentType: 'image/jpeg' };
  }
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') {
    return { ext: 'gif', contentType: 'image/gif' };
  }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    return { ext: 'webp', contentType: 'image/webp' };
  }
  return undefined;
}

export default defineMock({
  'POST /api/upload': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const { files } = req as typeof req & { files?: UploadedFile[] };
    const file = files?.find((f) => f.fieldname === 'file');
    if (!file) return fail(res, 400, 'file 不能为空');
    if (file.size > MAX_BYTES) {
      return fail(res, 413, '上传文件失败，请检查文件的大小，控制在 2MB 以内');
    }
    const kind = imageKind(file.buffer);
    if (!kind) return fail(res, 415, '只能上传 PNG、JPEG、GIF 或 WebP 图片');
    const name = `${objectId()}.${kind.ext}`;
    db.uploads.set(name, { bytes: file.buffer, contentType: kind.contentType });
    return ok(res, `/static/uploads/${name}`);
  },

  'GET /static/uploads/:name': (req, res) => {
    const upload = db.uploads.get(req.params.name);
    if (!upload) {
      res.status(404).end();
      return;
    }
    res.setHeader('Content-Type', upload.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).send(upload.bytes);
  },
});
