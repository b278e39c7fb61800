import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // antd writes its CSS-in-JS into <style> elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      // The app sets no <base>: an injected one could only redirect its relative URLs elsewhere.
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // Uploaded images are shown on the public site too.
  crossOriginResourcePolicy: { policy: 'same-site' },
  crossOriginEmbedderPolicy: false,
  // The same as frame-ancestors 'none', for browsers that only know the older header.
  xFrameOptions: { action: 'deny' },
  hsts: false,
};

export function registerSecurityHeaders(app: FastifyInstance) {
  // helmet's own middleware on every request, as its documentation uses it: working the headers out
  // once saved no measurable time (bench/NOTES.md) and leaned on how helmet writes them.
  const setSecurityHeaders = helmet(HELMET_OPTIONS);
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => {
      // An API answer is the signed-in admin's data as it is now: no browser or proxy keeps it, so no
      // later visit is shown a stale list (docs/api.md, caching). A route meaning otherwise sets its own.
      if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
      done(error as Error | undefined);
    });
  });
}
