import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { Paged } from '#contract/paging';
import {
  CreateReasonBody,
  PresenceBody,
  ReviewCounts,
  ReviewDecisionBody,
  ReviewDecisionResult,
  ReviewItem,
  ReviewListQuery,
  ReviewReasonEntry,
} from '#contract/review';
import { AppError } from '../../lib/errors';
import { createdResponses, ok, responses } from '../../lib/http';
import type { AuthService } from '../auth/auth.service';
import { currentAdmin } from '../../plugins/auth';
import type { ReviewHub } from './review.events';
import type { ReviewService } from './review.service';

/** The review queue (审核台) under /api/review: any admin. */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ review: ReviewService; hub: ReviewHub; auth: AuthService }> = async (
  app,
  { review, hub, auth },
) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '审核队列（最早的在前）', querystring: ReviewListQuery, response: responses(Paged(ReviewItem)) },
    },
    async (request) => ok(await review.list(request.query)),
  );

  app.get(
    '/counts',
    { config: { access: 'admin' }, schema: { summary: '待审数量（菜单角标）', response: responses(ReviewCounts) } },
    async () => ok(await review.counts()),
  );

  app.get(
    '/events',
    {
      config: { access: 'admin', stream: true },
      schema: {
        summary: '实时事件（text/event-stream）：counts（待审数量）、change（队列有变化）、presence（谁在查看哪一项）',
      },
    },
    async (request, reply) => {
      reply.hijack();
      const { authorization } = request.headers;
      await hub.open(reply.raw, async () => {
        try {
          await auth.authenticate(authorization);
          return true;
        } catch (error) {
          if (error instanceof AppError && error.statusCode === 401) return false;
          throw error;
        }
      });
    },
  );

  app.post(
    '/presence',
    {
      config: { access: 'admin' },
      schema: { summary: '告诉其他管理员：我正在查看（或已离开）某一项', body: PresenceBody, response: responses(Type.Null()) },
    },
    async (request) => {
      const admin = currentAdmin(request);
      await hub.presence({ ...request.body, adminId: admin.id, loginId: admin.loginId });
      return ok(null);
    },
  );

  app.post(
    '/decisions',
    {
      config: { access: 'admin' },
      schema: {
        summary: '通过或拒绝（进回收站）若干项：全部成功或全部不做；已被他人处理的项目使整个请求 409',
        body: ReviewDecisionBody,
        response: responses(ReviewDecisionResult),
      },
    },
    async (request) => ok(await review.decide(currentAdmin(request), request.body)),
  );

  app.get(
    '/reasons',
    { config: { access: 'admin' }, schema: { summary: '拒绝理由列表', response: responses(Type.Array(ReviewReasonEntry)) } },
    async () => ok(await review.reasons()),
  );

  app.post(
    '/reasons',
    {
      config: { access: 'admin' },
      schema: { summary: '添加拒绝理由', body: CreateReasonBody, response: createdResponses(ReviewReasonEntry) },
    },
    async (request, reply) => reply.status(201).send(ok(await review.addReason(currentAdmin(request), request.body.text))),
  );

  app.delete(
    '/reasons/:id',
    { config: { access: 'admin' }, schema: { summary: '删除拒绝理由', params: IdParams, response: responses(Type.Null()) } },
    async (request) => {
      await review.removeReason(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );
};
