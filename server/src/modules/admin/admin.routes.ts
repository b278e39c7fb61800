import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Admin, CreateAdminBody, CreatedAdmin, LoginIdParams, UpdateAdminBody } from '#contract/admin';
import { IdParams } from '#contract/ids';
import { currentAdmin } from '../../plugins/auth';
import { createdResponses, ok, responses } from '../../lib/http';
import type { AdminService } from './admin.service';

export const adminRoutes: FastifyPluginAsyncTypebox<{ admins: AdminService }> = async (app, { admins }) => {
  app.get('/', { config: { access: 'super' }, schema: { summary: '全部管理员', response: responses(Type.Array(Admin)) } }, async () =>
    ok(await admins.list()),
  );

  app.post(
    '/',
    {
      config: { access: 'super', reauth: true },
      schema: { summary: '新增管理员', body: CreateAdminBody, response: createdResponses(CreatedAdmin) },
    },
    async (request, reply) => reply.status(201).send(ok(await admins.create(currentAdmin(request), request.body))),
  );

  app.get(
    '/adminIsExist/:loginId',
    {
      config: { access: 'super' },
      schema: { summary: '账号是否已被使用', params: LoginIdParams, response: responses(Type.Boolean()) },
    },
    async (request) => ok(await admins.loginIdTaken(request.params.loginId)),
  );

  app.get(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '一个管理员（超级管理员或本人）', params: IdParams, response: responses(Admin) },
    },
    async (request) => ok(await admins.get(currentAdmin(request), request.params.id)),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: '修改管理员（本人只能改昵称、头像和密码；提升为超级管理员或禁用需要最近验证过身份）',
        params: IdParams,
        body: UpdateAdminBody,
        response: responses(Admin),
      },
    },
    async (request) => ok(await admins.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'super', reauth: true },
      schema: { summary: '删除管理员', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await admins.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );
};
