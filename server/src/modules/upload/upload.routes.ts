import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { UPLOAD_MESSAGES, UploadedImage } from '#contract/upload';
import { AppError, badRequest } from '../../lib/errors';
import { fail, ok, responses } from '../../lib/http';
import type { FastifyRequest } from 'fastify';
import { currentAdmin, currentMember } from '../../plugins/auth';
import type { Limits } from '../site/site.limits';
import { MAX_UPLOAD_BYTES, type UploadService } from './upload.service';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

// What the multipart parser throws, as plain errors, for a form the client got wrong: no
// boundary, a boundary it cannot use, or a body that stops before its closing boundary.
const BROKEN_FORM = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^The needle cannot (be an empty String\/Buffer|have a length bigger than 256)\.$/,
  /^Unexpected end of multipart data$/,
  /terminated early due to unexpected end of multipart data$/,
];

// Read by shape, not `instanceof Error`: stream errors come from Node's own realm.
function isBrokenForm(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || error instanceof AppError) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || (typeof message === 'string' && BROKEN_FORM.some((broken) => broken.test(message)));
}

/** POST /api/upload: one image in the multipart field `file`. */
export const uploadRoutes: FastifyPluginAsyncTypebox<{ uploads: UploadService; limits?: Limits }> = async (app, { uploads, limits }) => {
  // Only this route reads a form: the parser (and the clean-up hook it adds to every answer) lives here.
  await app.register(multipart);
  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: {
        summary: '上传图片（PNG、JPEG、GIF、WebP，不超过 2MB），返回图片地址',
        consumes: ['multipart/form-data'],
        response: responses(UploadedImage),
      },
    },
    async (request) => ok(await uploads.store(currentAdmin(request), await readImage(request))),
  );

  // A member's avatar (the public site, modules/site): the same checks, within the member's limits.
  if (limits) {
    app.post(
      '/',
      {
        constraints: { audience: 'member' },
        config: { access: 'member', audience: 'member' },
        schema: { hide: true, consumes: ['multipart/form-data'], response: responses(UploadedImage) },
      },
      async (request) => {
        const member = currentMember(request);
        await limits.take('upload', { memberId: member.id, ip: member.ip });
        return ok(await uploads.store(null, await readImage(request)));
      },
    );
  }
};

/** The one image of a multipart form's `file` field, read within the upload limits. */
async function readImage(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError(415, '请以 multipart/form-data 上传文件');
  let image: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 10, parts: 12 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') throw badRequest('文件字段名应为 file');
      if (image) throw badRequest('一次只能上传一个文件');
      image = await part.toBuffer();
      if (part.file.truncated) throw new AppError(413, UPLOAD_MESSAGES.tooLarge);
    }
  } catch (error) {
    throw isBrokenForm(error) ? badRequest('上传内容不完整或格式不正确') : error;
  }
  if (!image) throw badRequest('请选择要上传的图片');
  return image;
}

/** GET /static/uploads/:file: the stored image, with its real type and a long cache lifetime. */
export const uploadedFileRoutes: FastifyPluginAsyncTypebox<{ uploads: UploadService }> = async (app, { uploads }) => {
  app.get('/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    const row = await uploads.read(request.params.file);
    if (!row) return reply.status(404).send(fail(404, '文件不存在'));
    return reply
      .header('Content-Type', row.mime)
      .header('Content-Length', row.size)
      .header('Cache-Control', `public, max-age=${ONE_YEAR_S}, immutable`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(row.data);
  });
};
