import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { AuditExportQuery } from '#contract/audit';
import { BookExportQuery, CommentExportQuery, InterviewExportQuery, IssueExportQuery, UserExportQuery } from '#contract/export';
import { ErrorEnvelope } from '#contract/envelope';
import { sendCsv } from '../../lib/csv';
import { currentAdmin } from '../../plugins/auth';
import type { ExportService } from './export.service';

const csvResponses = {
  200: Type.String({ description: 'CSV：UTF-8 带 BOM，表头为中文，日期为安装时区（TIME_ZONE，默认 Asia/Shanghai）的 YYYY-MM-DD HH:mm:ss' }),
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
};

const schema = <Q extends TSchema>(what: string, querystring: Q) => ({
  summary: `导出${what}为 CSV（列表的全部筛选结果，不分页）`,
  querystring,
  produces: ['text/csv'],
  response: csvResponses,
});

/** `GET /api/{resource}/export`: registered under the /api prefix beside each resource's routes. */
export const exportRoutes: FastifyPluginAsyncTypebox<{ exports: ExportService; now: () => number; timeZone: string }> = async (
  app,
  { exports, now, timeZone },
) => {
  app.get(
    '/audit/export',
    { config: { access: 'admin', reauth: true }, schema: schema('操作日志', AuditExportQuery) },
    async (request, reply) => sendCsv(reply, exports.audit(currentAdmin(request), request.query), now(), timeZone),
  );
  app.get(
    '/user/export',
    { config: { access: 'admin', reauth: true }, schema: schema('用户列表', UserExportQuery) },
    async (request, reply) => sendCsv(reply, exports.user(currentAdmin(request), request.query), now(), timeZone),
  );
  app.get(
    '/book/export',
    { config: { access: 'admin', reauth: true }, schema: schema('书籍列表', BookExportQuery) },
    async (request, reply) => sendCsv(reply, await exports.book(currentAdmin(request), request.query), now(), timeZone),
  );
  app.get(
    '/interview/export',
    { config: { access: 'admin', reauth: true }, schema: schema('题目列表', InterviewExportQuery) },
    async (request, reply) => sendCsv(reply, await exports.interview(currentAdmin(request), request.query), now(), timeZone),
  );
  app.get(
    '/issue/export',
    { config: { access: 'admin', reauth: true }, schema: schema('问答列表', IssueExportQuery) },
    async (request, reply) => sendCsv(reply, await exports.issue(currentAdmin(request), request.query), now(), timeZone),
  );
  app.get(
    '/comment/export',
    { config: { access: 'admin', reauth: true }, schema: schema('评论列表', CommentExportQuery) },
    async (request, reply) => sendCsv(reply, await exports.comment(currentAdmin(request), request.query), now(), timeZone),
  );
};
