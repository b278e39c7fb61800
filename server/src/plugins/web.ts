import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { HASHED_ASSET, IMMUTABLE } from '#contract/assets';
import { fail } from '../lib/http';

/**
 * Serves the built front end, and answers every other GET outside /api with index.html so that
 * a reload on /user/userList (browser history) still opens the app.
 */
export async function registerWeb(app: FastifyInstance, webRoot: string | null) {
  const indexHtml = webRoot ? path.join(webRoot, 'index.html') : null;
  const hasWeb = indexHtml !== null && fs.existsSync(indexHtml);

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot!,
      prefix: '/',
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // filePath is the file sent: `umi.<hash>.js.br` when the browser takes brotli.
        res.setHeader('Cache-Control', HASHED_ASSET.test(filePath) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith('/res/');
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !request.url.startsWith('/static/');
    if (hasWeb && wantsPage) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(fail(404, isApi ? '接口不存在' : '页面不存在'));
  });
}
