import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Book, BookListQuery, CreateBookBody, UpdateBookBody } from '#contract/book';
import { IdParams } from '#contract/ids';
import { Paged } from '#contract/paging';
import { BatchBody, BatchResult, DELETE_ONLY } from '#contract/audit';
import { createdResponses, ok, responses } from '../../lib/http';
import { currentAdmin } from '../../plugins/auth';
import type { BookService } from './book.service';

export const bookRoutes: FastifyPluginAsyncTypebox<{ books: BookService }> = async (app, { books }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { summary: '书籍列表（新上架的在前）', querystring: BookListQuery, response: responses(Paged(Book)) },
    },
    async (request) => ok(await books.list(request.query)),
  );

  app.get(
    '/:id',
    { config: { access: 'admin' }, schema: { summary: '一本书', params: IdParams, response: responses(Book) } },
    async (request) => ok(await books.get(request.params.id)),
  );

  app.post(
    '/',
    { config: { access: 'admin' }, schema: { summary: '新增书籍', body: CreateBookBody, response: createdResponses(Book) } },
    async (request, reply) => reply.status(201).send(ok(await books.create(currentAdmin(request), request.body))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '修改书籍', params: IdParams, body: UpdateBookBody, response: responses(Book) },
    },
    async (request) => ok(await books.update(currentAdmin(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { summary: '删除书籍及其评论', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await books.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'admin' },
      schema: { summary: '批量删除书籍及其评论：全部成功或全部不做', body: BatchBody(DELETE_ONLY), response: responses(BatchResult) },
    },
    async (request) => ok(await books.batch(currentAdmin(request), request.body.action, request.body.ids)),
  );
};
