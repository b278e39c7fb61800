import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AuditEntry, AuditIdParams, AuditListQuery, AuditRecordParams } from '#contract/audit';
import { Paged } from '#contract/paging';
import { ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { AuditService } from './audit.service';

export const auditRoutes: FastifyPluginAsyncTypebox<{ auditLog: AuditService }> = async (app, { auditLog }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: {
        summary: '操作日志（新的在前；普通管理员只看到自己的）',
        querystring: AuditListQuery,
        response: responses(Paged(AuditEntry)),
      },
    },
    async (request) => ok(await auditLog.list(currentAdmin(request), request.query)),
  );

  app.get(
    '/:entity/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: '一条记录的历史（新的在前，最多 200 条）',
        params: AuditRecordParams,
        response: responses(Type.Array(AuditEntry)),
      },
    },
    async (request) => ok(await auditLog.history(currentAdmin(request), request.params.entity, request.params.id)),
  );

  app.post(
    '/:auditId/revert',
    {
      config: { access: 'admin' },
      schema: {
        summary: '撤销此修改：把一条修改记录里的字段改回修改前的值（需要原修改所需的权限），返回该记录的历史',
        params: AuditIdParams,
        response: responses(Type.Array(AuditEntry)),
      },
    },
    async (request) => ok(await auditLog.revert(currentAdmin(request), Number(request.params.auditId))),
  );
};
