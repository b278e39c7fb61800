import type { FastifyInstance, FastifySchema } from 'fastify';
import { forbidden } from '../lib/errors';
import type { AuthenticatedAdmin, AuthService } from '../modules/auth/auth.service';

/**
 * Who may call a route. Every route under /api and /res must say so: a route registered
 * without it stops the start, so nothing is ever left open by accident.
 */
export type Access = 'public' | 'admin' | 'super';

/** One guarded route as registered: what tests generate their permission and contract tables from. */
export interface CatalogEntry {
  method: string;
  url: string;
  access: Access;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    admin: AuthenticatedAdmin | null;
  }
  interface FastifyInstance {
    routeCatalog: CatalogEntry[];
  }
}

const GUARDED_PREFIXES = ['/api/', '/res/'];
// Routes registered by @fastify/swagger-ui: the API description is public.
const DOCS_PREFIX = '/api/docs';

/** The signed-in admin of a route whose access is 'admin' or 'super'. */
export function currentAdmin(request: { admin: AuthenticatedAdmin | null }): AuthenticatedAdmin {
  if (!request.admin) throw new Error('currentAdmin() used on a public route');
  return request.admin;
}

export function registerAuth(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('admin', null);
  const catalog: CatalogEntry[] = [];
  app.decorate('routeCatalog', catalog);

  app.addHook('onRoute', (route) => {
    const guarded = GUARDED_PREFIXES.some((prefix) => route.url.startsWith(prefix));
    if (!guarded || route.url.startsWith(DOCS_PREFIX)) return;
    const access = route.config?.access;
    if (access !== 'public' && access !== 'admin' && access !== 'super') {
      throw new Error(`route ${route.method} ${route.url} declares no access rule`);
    }
    // The OpenAPI document says what the access rule says, for every route alike: a bearer token
    // unless public, and the route's resource (the path's first segment) as its tag.
    if (route.schema) {
      if (access !== 'public') route.schema.security ??= [{ bearer: [] }];
      route.schema.tags ??= [route.url.split('/')[2]];
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') catalog.push({ method, url: route.url, access, schema: route.schema });
    }
  });

  // onRequest runs before the body is read or validated: an anonymous caller learns nothing.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access !== 'admin' && access !== 'super') return;
    request.admin = await auth.authenticate(request.headers.authorization);
    if (access === 'super' && request.admin.permission !== 1) throw forbidden();
  });
}
