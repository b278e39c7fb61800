import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AuditChainReport, AuditEntry, AuditIdParams, AuditListQuery, AuditRecordParams, SecurityEvent } from '#contract/audit';
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
        summary: '操作日志（新的在前；普通管理员只看到自己的）；security=true 时为安全事件（只限超级管理员）',
        querystring: AuditListQuery,
        response: responses(Type.Union([Paged(AuditEntry), Paged(SecurityEvent)])),
      },
    },
    async (request) => ok(await auditLog.list(currentAdmin(request), request.query)),
  );

  app.get(
    '/verify',
    {
      config: { access: 'super' },
      schema: {
        summary: '核对日志链：从头（或保留期清理处）到尾逐条核对哈希链，指出第一条断开的记录',
        response: responses(AuditChainReport),
      },
    },
    async (request) => ok(await auditLog.verify(currentAdmin(request))),
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
