import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import {
  CreateWebhookBody,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookList,
  WebhookPatch,
  WebhookSecret,
} from '#contract/webhook';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { WebhookService } from './webhook.service';

const tags = ['settings'];

/** /api/settings/webhooks: the moderators' notifications (通知), super admins only; every change needs a fresh proof. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  app.get(
    '/webhooks',
    { config: { access: 'super' }, schema: { tags, summary: '通知列表（密钥不返回）', response: responses(WebhookList) } },
    async () => ok(await webhooks.list()),
  );

  app.post(
    '/webhooks',
    {
      config: { access: 'super', reauth: true },
      schema: {
        tags,
        summary: '新建通知（通用 JSON 的签名密钥只在此返回一次）',
        body: CreateWebhookBody,
        response: createdResponses(WebhookCreated),
      },
    },
    async (request, reply) => reply.status(201).send(ok(await webhooks.create(currentAdmin(request), request.body))),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { access: 'super', reauth: true },
      schema: { tags, summary: '修改通知', params: IdParams, body: WebhookPatch, response: responses(Webhook) },
    },
    async (request) => ok(await webhooks.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { access: 'super', reauth: true },
      schema: { tags, summary: '删除通知（连同投递记录）', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await webhooks.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/webhooks/:id/secret',
    {
      config: { access: 'super', reauth: true },
      schema: { tags, summary: '更换通用 JSON 的签名密钥（新密钥只在此返回一次）', params: IdParams, response: responses(WebhookSecret) },
    },
    async (request) => ok(await webhooks.rotateSecret(currentAdmin(request), request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: 'super' },
      schema: {
        tags,
        summary: '投递记录（新的在前）',
        params: IdParams,
        querystring: WebhookDeliveryQuery,
        response: responses(WebhookDeliveryPage),
      },
    },
    async (request) => ok(await webhooks.deliveries(request.params.id, request.query)),
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: { access: 'super' },
      schema: { tags, summary: '发送测试：立即发送一条测试通知，返回这次投递', params: IdParams, response: responses(WebhookDelivery) },
    },
    async (request) => ok(await webhooks.sendTest(request.params.id)),
  );
};
