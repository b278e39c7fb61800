import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorEnvelope } from '#contract/envelope';
import { IdParams } from '#contract/ids';
import {
  CreateModerationWordBody,
  ModerationImportBody,
  ModerationImportResult,
  ModerationSettings,
  ModerationSettingsPatch,
  ModerationTestBody,
  ModerationTestResult,
  ModerationWord,
  ModerationWordPage,
  ModerationWordQuery,
  RecheckBody,
  RecheckStatus,
} from '#contract/moderation';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { ModerationService } from './moderation.service';

const tags = ['moderation'];

/** /api/moderation: the word list, its text file, 测试 and 重新检查. Reads for every admin, writes for super admins. */
export const moderationRoutes: FastifyPluginAsyncTypebox<{ moderation: ModerationService }> = async (app, { moderation }) => {
  app.get(
    '/words',
    {
      config: { access: 'admin' },
      schema: { tags, summary: '敏感词列表（新加的在前）', querystring: ModerationWordQuery, response: responses(ModerationWordPage) },
    },
    async (request) => ok(await moderation.listWords(request.query)),
  );

  app.post(
    '/words',
    {
      config: { access: 'super', reauth: true },
      schema: { tags, summary: '新增敏感词', body: CreateModerationWordBody, response: createdResponses(ModerationWord) },
    },
    async (request, reply) => reply.status(201).send(ok(await moderation.addWord(currentAdmin(request), request.body))),
  );

  app.delete(
    '/words/:id',
    {
      config: { access: 'super', reauth: true },
      schema: { tags, summary: '删除敏感词', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await moderation.removeWord(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/words/file',
    {
      config: { access: 'super' },
      schema: {
        tags,
        summary: '导出敏感词为文本文件（每行一个词，制表符后为 拒绝、待审 或 标记）',
        produces: ['text/plain'],
        response: { 200: Type.String(), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const text = await moderation.exportWords(currentAdmin(request));
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="moderation-words.txt"; filename*=UTF-8''${encodeURIComponent('敏感词.txt')}`)
        .send(text);
    },
  );

  app.post(
    '/words/file',
    {
      config: { access: 'super', reauth: true },
      schema: {
        tags,
        summary: '导入敏感词文本文件（merge：加入；replace：替换整个词表），全部成功或全部不变',
        body: ModerationImportBody,
        response: responses(ModerationImportResult),
      },
    },
    async (request) => ok(await moderation.importWords(currentAdmin(request), request.body.text, request.body.mode)),
  );

  app.post(
    '/test',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: '测试：哪些敏感词在这段文字中触发，以及位置（不写入任何数据）',
        body: ModerationTestBody,
        response: responses(ModerationTestResult),
      },
    },
    async (request) => ok(await moderation.test(request.body.text)),
  );

  app.get(
    '/recheck',
    { config: { access: 'super' }, schema: { tags, summary: '重新检查的进度', response: responses(RecheckStatus) } },
    async () => ok(moderation.recheckStatus()),
  );

  app.post(
    '/recheck',
    {
      config: { access: 'super' },
      schema: {
        tags,
        summary: '重新检查已有内容（后台分批进行，立即返回；命中的内容进入审核台）',
        body: RecheckBody,
        response: { 202: responses(RecheckStatus)[200], '4xx': ErrorEnvelope, '5xx': ErrorEnvelope },
      },
    },
    async (request, reply) => reply.status(202).send(ok(await moderation.startRecheck(currentAdmin(request), request.body))),
  );
};

/** /api/settings/moderation: the account rules. */
export const moderationSettingsRoutes: FastifyPluginAsyncTypebox<{ moderation: ModerationService }> = async (app, { moderation }) => {
  app.get(
    '/moderation',
    { config: { access: 'super' }, schema: { tags: ['settings'], summary: '审核规则：账号规则', response: responses(ModerationSettings) } },
    async () => ok(await moderation.settings()),
  );

  app.patch(
    '/moderation',
    {
      config: { access: 'super', reauth: true },
      schema: { tags: ['settings'], summary: '修改账号规则', body: ModerationSettingsPatch, response: responses(ModerationSettings) },
    },
    async (request) => ok(await moderation.updateSettings(currentAdmin(request), request.body)),
  );
};
