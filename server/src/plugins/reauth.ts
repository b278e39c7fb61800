import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '#contract/envelope';
import { TRUST_MESSAGES } from '#contract/version';
import { counters } from '../lib/counters';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The action can take over or empty the installation: the caller's session must have proved
     * who it is (sign-in, POST /api/admin/me/reauth) within REAUTH_WINDOW_SECONDS, else 403
     * REAUTH_REQUIRED. A stolen token alone does none of these.
     */
    reauth?: true;
  }
}

/** 403 REAUTH_REQUIRED 需要重新验证身份: thrown by this plugin and by services whose need depends on the change. */
export function reauthRequired(): AppError {
  counters.increment('reauthRequired');
  return new AppError(403, TRUST_MESSAGES.reauthRequired, ERROR_CODES.reauthRequired);
}

/** Refuses a `reauth` route before its body is read, after the auth hook has admitted the caller. */
export function registerReauth(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (route.config?.reauth && route.config.access === 'public') throw new Error(`route ${route.url}: reauth on a public route`);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config.reauth) return done();
    if (!request.admin?.freshProof) return done(reauthRequired());
    done();
  });
}
