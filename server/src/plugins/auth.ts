import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { ACCOUNT_MESSAGES } from '#contract/account';
import { ERROR_CODES } from '#contract/envelope';
import { TRUST_MESSAGES } from '#contract/version';
import { counters } from '../lib/counters';
import { AppError, forbidden } from '../lib/errors';
import type { AuthenticatedAdmin, AuthService, ClientInfo } from '../modules/auth/auth.service';
import { audienceOf } from '../modules/auth/tokens';
import type { AuthenticatedMember, MemberAuth } from '../modules/site/site.auth';

/**
 * Who may call a route. Every route under /api and /res must say so: a route registered
 * without it stops the start, so nothing is ever left open by accident.
 */
export type Access = 'public' | 'member' | 'admin' | 'super';

/** Which side of a path shared by both answers a call: the public site's visitors or its members (plugins/auth.ts). */
export type Audience = 'visitor' | 'member';

/** One guarded route as registered: what tests generate their permission and contract tables from. */
export interface CatalogEntry {
  method: string;
  url: string;
  access: Access;
  /** The route needs a fresh proof of identity (plugins/reauth.ts). */
  reauth: boolean;
  /** The route answers an open stream (server-sent events, `config.stream`): a client reads its head, then closes. */
  stream?: true;
  schema: FastifySchema | undefined;
}

/** One route of the public site, told apart from an admin route at the same path by its audience. */
export interface SiteCatalogEntry extends CatalogEntry {
  audience: Audience;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Allowed to an admin who must set up two-step sign-in first (require2fa on, none set up):
     * whoami, logout and the setup calls. Every other guarded route refuses such an admin.
     */
    allowWithout2fa?: true;
    /** Set on the public site's routes, with the same value as their `audience` constraint. */
    audience?: Audience;
    /**
     * Allowed to an admin still on a generated initial password: whoami, logout and the password
     * change. Every other guarded route answers 403 PASSWORD_CHANGE_REQUIRED until it is changed.
     */
    allowWithInitialPassword?: true;
  }
  interface FastifyRequest {
    admin: AuthenticatedAdmin | null;
    member: AuthenticatedMember | null;
  }
  interface FastifyInstance {
    /** The back-office's routes (and the paths of their own no site route shares). */
    routeCatalog: CatalogEntry[];
    /** The public site's routes (modules/site), by audience. */
    siteCatalog: SiteCatalogEntry[];
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

/** The caller's address and browser, kept with a session and a sign-in record. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : '' };
}

/** The signed-in member of a route whose access is 'member'. */
export function currentMember(request: { member: AuthenticatedMember | null }): AuthenticatedMember {
  if (!request.member) throw new Error('currentMember() used on a route without a member');
  return request.member;
}

export function registerAuth(app: FastifyInstance, auth: AuthService, members: MemberAuth) {
  app.decorateRequest('admin', null);
  app.decorateRequest('member', null);
  const catalog: CatalogEntry[] = [];
  const siteCatalog: SiteCatalogEntry[] = [];
  app.decorate('routeCatalog', catalog);
  app.decorate('siteCatalog', siteCatalog);

  // The public site's routes share paths with the admin routes (GET /api/issue, POST /api/user):
  // a route constrained to an audience answers the callers of that audience, and every other call
  // falls through to the unconstrained admin route, which keeps its behaviour exactly.
  const audiences = new Set<string>(['visitor', 'member']);
  app.addConstraintStrategy({
    name: 'audience',
    storage<H>() {
      const handlers = new Map<unknown, H>();
      return {
        get: (value: unknown) => handlers.get(value) ?? null,
        set: (value: unknown, handler: H) => {
          handlers.set(value, handler);
        },
      };
    },
    deriveConstraint: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const authorization = request.headers.authorization;
      return audienceOf(typeof authorization === 'string' ? authorization : undefined);
    },
    mustMatchWhenDerived: false,
    validate(value: unknown) {
      if (typeof value !== 'string' || !audiences.has(value)) throw new Error(`unknown audience ${String(value)}`);
    },
  });

  app.addHook('onRoute', (route) => {
    const guarded = GUARDED_PREFIXES.some((prefix) => route.url.startsWith(prefix));
    if (!guarded || route.url.startsWith(DOCS_PREFIX)) return;
    const access = route.config?.access;
    if (access !== 'public' && access !== 'member' && access !== 'admin' && access !== 'super') {
      throw new Error(`route ${route.method} ${route.url} declares no access rule`);
    }
    const audience = (route.constraints as { audience?: Audience } | undefined)?.audience;
    if (audience !== route.config?.audience)
      throw new Error(`route ${route.method} ${route.url}: config.audience must equal its constraint`);
    if (audience) {
      if ((audience === 'visitor') !== (access === 'public'))
        throw new Error(`route ${route.method} ${route.url}: a visitor route is public, a member route 'member'`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') siteCatalog.push({ method, url: route.url, access, schema: route.schema, audience, reauth: false });
      }
      return;
    }
    // The OpenAPI document says what the access rule says, for every route alike: a bearer token
    // unless public, and the route's resource (the path's first segment) as its tag.
    if (route.schema) {
      if (access !== 'public') route.schema.security ??= [{ bearer: [] }];
      route.schema.tags ??= [route.url.split('/')[2]];
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        catalog.push({
          method,
          url: route.url,
          access,
          reauth: route.config?.reauth === true,
          ...(route.config?.stream && { stream: true as const }),
          schema: route.schema,
        });
    }
  });

  // onRequest runs before the body is read or validated: an anonymous caller learns nothing.
  // Written with `done`: the token check answers at once when the session is remembered, and an
  // async hook would cost every guarded call a promise and a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    if (access === 'member') {
      const found = members.authenticate(request.headers.authorization, request.ip);
      found.then((member) => {
        request.member = member;
        done();
      }, done);
      return;
    }
    if (access !== 'admin' && access !== 'super') return done();
    // A member's token never passes an admin check: refused as such, before the body is read.
    if (audienceOf(request.headers.authorization) === 'member') return done(forbidden());
    const admit = (admin: AuthenticatedAdmin) => {
      request.admin = admin;
      const { config } = request.routeOptions;
      // Enforced here, for every route alike, not by the screens. The password comes first: the
      // change is what such an admin may do, whatever two-step sign-in asks.
      if (admin.mustChangePassword) {
        if (!config.allowWithInitialPassword) {
          counters.increment('passwordChangeRequired');
          return done(new AppError(403, TRUST_MESSAGES.passwordChangeRequired, ERROR_CODES.passwordChangeRequired));
        }
      } else if (admin.mustSetUp2fa && !config.allowWithout2fa)
        return done(new AppError(403, ACCOUNT_MESSAGES.mustSetUp2fa, ERROR_CODES.twoFactorSetupRequired));
      if (access === 'super' && admin.permission !== 1) return done(forbidden());
      done();
    };
    let found: AuthenticatedAdmin | Promise<AuthenticatedAdmin>;
    try {
      found = auth.authenticate(request.headers.authorization);
    } catch (error) {
      return done(error as Error);
    }
    if (found instanceof Promise) found.then(admit, done);
    else admit(found);
  });
}
