import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { AuthorFile, CreateNoteBody, CreateSanctionBody, NoteParams, Sanction, SanctionParams, UserNote } from '#contract/review';
import { USER_MESSAGES } from '#contract/user';
import { notFound } from '../../lib/errors';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { NoteService } from './note.service';
import type { SanctionService } from './sanction.service';

/** A member's sanctions, notes and file, under /api/user/{id}: any admin. */
export const memberFileRoutes: FastifyPluginAsyncTypebox<{
  sanctions: SanctionService;
  notes: NoteService;
  fileOf: (userId: string) => Promise<AuthorFile | null>;
}> = async (app, { sanctions, notes, fileOf }) => {
  app.get(
    '/:id/file',
    {
      config: { access: 'admin' },
      schema: {
        summary: '作者档案：账号时长、问答和评论数（已发布、待审、被拒绝）、处罚、积分、备注',
        params: IdParams,
        response: responses(AuthorFile),
      },
    },
    async (request) => {
      const file = await fileOf(request.params.id);
      if (!file) throw notFound(USER_MESSAGES.notFound);
      return ok(file);
    },
  );

  app.get(
    '/:id/sanctions',
    {
      config: { access: 'admin' },
      schema: { summary: '处罚记录（新的在前）', params: IdParams, response: responses(Type.Array(Sanction)) },
    },
    async (request) => ok(await sanctions.list(request.params.id)),
  );

  app.post(
    '/:id/sanctions',
    {
      config: { access: 'admin' },
      schema: {
        summary: '禁言或封禁（1、3、7、30 天或永久），封禁即刻结束其会话',
        params: IdParams,
        body: CreateSanctionBody,
        response: createdResponses(Sanction),
      },
    },
    async (request, reply) => reply.status(201).send(ok(await sanctions.create(currentAdmin(request), request.params.id, request.body))),
  );

  app.delete(
    '/:id/sanctions/:sanctionId',
    { config: { access: 'admin' }, schema: { summary: '解除处罚', params: SanctionParams, response: responses(Sanction) } },
    async (request) => ok(await sanctions.lift(currentAdmin(request), request.params.id, request.params.sanctionId)),
  );

  app.get(
    '/:id/notes',
    {
      config: { access: 'admin' },
      schema: { summary: '管理员备注（新的在前）', params: IdParams, response: responses(Type.Array(UserNote)) },
    },
    async (request) => ok(await notes.list(request.params.id)),
  );

  app.post(
    '/:id/notes',
    {
      config: { access: 'admin' },
      schema: { summary: '添加备注', params: IdParams, body: CreateNoteBody, response: createdResponses(UserNote) },
    },
    async (request, reply) => reply.status(201).send(ok(await notes.create(currentAdmin(request), request.params.id, request.body))),
  );

  app.delete(
    '/:id/notes/:noteId',
    {
      config: { access: 'admin' },
      schema: { summary: '删除备注（自己的；超级管理员可删任何人的）', params: NoteParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await notes.remove(currentAdmin(request), request.params.id, request.params.noteId);
      return ok(null);
    },
  );
};
