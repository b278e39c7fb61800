import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { CreateIssueBody, Issue, IssueListQuery, UpdateIssueBody } from '#contract/issue';
import { Paged } from '#contract/paging';
import { BatchBody, BatchResult, ISSUE_BATCH_ACTIONS } from '#contract/audit';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { IssueService } from './issue.service';

export const issueRoutes: FastifyPluginAsyncTypebox<{ issues: IssueService }> = async (app, { issues }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '问答列表（新的在前，每条带提问用户）', querystring: IssueListQuery, response: responses(Paged(Issue)) },
    },
    async (request) => ok(await issues.list(request.query)),
  );

  app.get(
    '/:id',
    { config: { access: 'admin' }, schema: { summary: '一个问答（带提问用户）', params: IdParams, response: responses(Issue) } },
    async (request) => ok(await issues.get(request.params.id)),
  );

  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '新增问答（待审核）', body: CreateIssueBody, response: createdResponses(Issue) },
    },
    async (request, reply) => reply.status(201).send(ok(await issues.create(currentAdmin(request), request.body))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: '修改问答；审核通过即 { issueStatus: true }',
        params: IdParams,
        body: UpdateIssueBody,
        response: responses(Issue),
      },
    },
    async (request) => ok(await issues.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '删除问答及其评论', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await issues.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'admin' },
      schema: {
        summary: '批量删除、审核通过或取消审核问答：全部成功或全部不做',
        body: BatchBody(ISSUE_BATCH_ACTIONS),
        response: responses(BatchResult),
      },
    },
    async (request) => ok(await issues.batch(currentAdmin(request), request.body.action, request.body.ids)),
  );
};
