import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { CreateInterviewBody, Interview, InterviewListQuery, UpdateInterviewBody } from '#contract/interview';
import { Paged } from '#contract/paging';
import { BatchBody, BatchResult, DELETE_ONLY } from '#contract/audit';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { InterviewService } from './interview.service';

export const interviewRoutes: FastifyPluginAsyncTypebox<{ interviews: InterviewService }> = async (app, { interviews }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: {
        summary: '面试题列表（新上架的在前）',
        querystring: InterviewListQuery,
        response: responses(Paged(Interview)),
      },
    },
    async (request) => ok(await interviews.list(request.query)),
  );

  app.get(
    '/:id',
    { config: { access: 'admin' }, schema: { summary: '一道面试题', params: IdParams, response: responses(Interview) } },
    async (request) => ok(await interviews.get(request.params.id)),
  );

  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '新增面试题', body: CreateInterviewBody, response: createdResponses(Interview) },
    },
    async (request, reply) => reply.status(201).send(ok(await interviews.create(currentAdmin(request), request.body))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '修改面试题', params: IdParams, body: UpdateInterviewBody, response: responses(Interview) },
    },
    async (request) => ok(await interviews.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    { config: { access: 'admin' }, schema: { summary: '删除面试题', params: IdParams, response: responses(Type.Null()) } },
    async (request) => {
      await interviews.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'admin' },
      schema: { summary: '批量删除面试题：全部成功或全部不做', body: BatchBody(DELETE_ONLY), response: responses(BatchResult) },
    },
    async (request) => ok(await interviews.batch(currentAdmin(request), request.body.action, request.body.ids)),
  );
};
