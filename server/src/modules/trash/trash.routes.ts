import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '#contract/ids';
import { Paged } from '#contract/paging';
import { TrashEntry, TrashListQuery } from '#contract/trash';
import { ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { TrashService } from './trash.service';

export const trashRoutes: FastifyPluginAsyncTypebox<{ trash: TrashService }> = async (app, { trash }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '回收站（最近删除的在前）', querystring: TrashListQuery, response: responses(Paged(TrashEntry)) },
    },
    async (request) => ok(await trash.list(request.query)),
  );

  app.post(
    '/:id/restore',
    {
      config: { access: 'admin' },
      schema: {
        summary: '恢复一次删除连同随它删除的记录（用户需超级管理员）；唯一值被占用或上级记录不在时 409',
        params: IdParams,
        response: responses(TrashEntry),
      },
    },
    async (request) => ok(await trash.restore(request.params.id, currentAdmin(request))),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'super', reauth: true },
      schema: { summary: '彻底删除（超级管理员）', params: IdParams, response: responses(TrashEntry) },
    },
    async (request) => ok(await trash.purge(request.params.id, currentAdmin(request))),
  );
};
