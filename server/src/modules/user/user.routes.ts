import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { Paged } from '#contract/paging';
import { CreateUserBody, CreatedUser, UpdateUserBody, User, UserImpact, UserListQuery, UserLoginIdParams } from '#contract/user';
import { BatchBody, BatchResult, USER_BATCH_ACTIONS } from '#contract/audit';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { UserService } from './user.service';

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '用户列表（新注册的在前）', querystring: UserListQuery, response: responses(Paged(User)) },
    },
    async (request) => ok(await users.list(request.query)),
  );

  app.get(
    '/userIsExist/:loginId',
    {
      config: { access: 'admin' },
      schema: { summary: '登录账号是否已被使用', params: UserLoginIdParams, response: responses(Type.Boolean()) },
    },
    async (request) => ok(await users.loginIdTaken(request.params.loginId)),
  );

  app.get(
    '/:id',
    { config: { access: 'admin' }, schema: { summary: '一个用户', params: IdParams, response: responses(User) } },
    async (request) => ok(await users.get(request.params.id)),
  );

  app.get(
    '/:id/impact',
    {
      config: { access: 'admin' },
      schema: { summary: '删除该用户会一并删除的问答数和评论数', params: IdParams, response: responses(UserImpact) },
    },
    async (request) => ok(await users.impact(request.params.id)),
  );

  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '新增用户', body: CreateUserBody, response: createdResponses(CreatedUser) },
    },
    async (request, reply) => reply.status(201).send(ok(await users.create(currentAdmin(request), request.body))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '修改用户（loginPwd 非空时设置新密码）', params: IdParams, body: UpdateUserBody, response: responses(User) },
    },
    async (request) => ok(await users.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'super' },
      schema: { summary: '删除用户及其问答和评论（超级管理员）', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await users.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'admin' },
      schema: {
        summary: '批量删除（超级管理员）、启用或禁用用户：全部成功或全部不做',
        body: BatchBody(USER_BATCH_ACTIONS),
        response: responses(BatchResult),
      },
    },
    async (request) => ok(await users.batch(currentAdmin(request), request.body.action, request.body.ids)),
  );
};
