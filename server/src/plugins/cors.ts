import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { audienceOf } from '../modules/auth/tokens';
import type { ViewCounter } from '../modules/site/site.views';

declare module 'fastify' {
  interface FastifyInstance {
    siteViews: ViewCounter;
  }
}

/**
 * CORS for the public site served from another origin (SITE_ORIGINS): only its visitor and member
 * calls are answered cross-origin; a call with an admin's token, or from any other origin, gets no
 * CORS header, so the back-office never answers cross-origin. Nothing is registered without origins.
 */
export async function registerSiteCors(app: FastifyInstance, origins: readonly string[]) {
  if (!origins.length) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const authorization = request.headers.authorization;
      // A preflight carries no token; the call it announces is checked again when it comes.
      const site = request.method === 'OPTIONS' || audienceOf(typeof authorization === 'string' ? authorization : undefined) !== 'admin';
      if (!origin || !allowed.has(origin) || !site) return callback(null, { origin: false });
      callback(null, {
        origin,
        credentials: true,
        methods: ['GET', 'POST', 'PATCH'],
        allowedHeaders: ['Authorization', 'Content-Type'],
        exposedHeaders: ['Retry-After'],
        maxAge: 600,
      });
    },
  });
}
