import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Comment, CommentListQuery, CommentRow, CommentTypeParams, CreateCommentBody, ParentCommentsQuery } from '#contract/comment';
import { IdParams } from '#contract/ids';
import { Paged } from '#contract/paging';
import { BatchBody, BatchResult, DELETE_ONLY } from '#contract/audit';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { CommentService } from './comment.service';

export const commentRoutes: FastifyPluginAsyncTypebox<{ comments: CommentService }> = async (app, { comments }) => {
  app.get(
    '/issuecomment/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: '一个问答的评论（新的在前）',
        params: IdParams,
        querystring: ParentCommentsQuery,
        response: responses(Paged(CommentRow)),
      },
    },
    async (request) => ok(await comments.listUnder(1, request.params.id, request.query)),
  );

  app.get(
    '/bookcomment/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: '一本书的评论（新的在前）',
        params: IdParams,
        querystring: ParentCommentsQuery,
        response: responses(Paged(CommentRow)),
      },
    },
    async (request) => ok(await comments.listUnder(2, request.params.id, request.query)),
  );

  app.get(
    '/:commentType',
    {
      config: { access: 'admin' },
      schema: {
        summary: '评论列表：1 问答评论，2 书籍评论（新的在前，每条带评论用户和评论对象）',
        params: CommentTypeParams,
        querystring: CommentListQuery,
        response: responses(Paged(CommentRow)),
      },
    },
    async (request) => ok(await comments.list(request.params.commentType, request.query)),
  );

  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '新增评论（评论对象的评论数加一）', body: CreateCommentBody, response: createdResponses(Comment) },
    },
    async (request, reply) => reply.status(201).send(ok(await comments.create(currentAdmin(request), request.body))),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '删除评论（评论对象的评论数减一）', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await comments.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'admin' },
      schema: { summary: '批量删除评论：全部成功或全部不做', body: BatchBody(DELETE_ONLY), response: responses(BatchResult) },
    },
    async (request) => ok(await comments.batch(currentAdmin(request), request.body.action, request.body.ids)),
  );
};
