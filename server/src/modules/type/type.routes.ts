import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '#contract/ids';
import { RenameTypeBody, TypeBody, TypeRecord } from '#contract/type';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { TypeService } from './type.service';

export const typeRoutes: FastifyPluginAsyncTypebox<{ types: TypeService }> = async (app, { types }) => {
  app.get(
    '/',
    { config: { access: 'admin' }, schema: { summary: '全部分类（先建的在前）', response: responses(Type.Array(TypeRecord)) } },
    async () => ok(await types.list()),
  );

  app.post(
    '/',
    { config: { access: 'admin' }, schema: { summary: '新增分类', body: TypeBody, response: createdResponses(TypeRecord) } },
    async (request, reply) => reply.status(201).send(ok(await types.create(currentAdmin(request), request.body.typeName))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '修改分类名称', params: IdParams, body: RenameTypeBody, response: responses(TypeRecord) },
    },
    async (request) =>
      ok(await types.rename(currentAdmin(request), request.params.id, request.body.typeName, undefined, request.body.version)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '删除分类（仍被使用时拒绝）', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await types.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );
};
