import type { FastifyInstance } from 'fastify';
import { fail } from '../lib/http';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A stream that lasts as long as its page is open (server-sent events): never waited for, ended by the close. */
    stream?: true;
  }
  interface FastifyInstance {
    /**
     * The first step of a graceful stop: from now on every new call is answered 503 (the
     * envelope, with `Connection: close`) while the listener stays open; resolves once the calls
     * already in flight have been answered, or after `graceMs`.
     */
    drain(graceMs: number): Promise<void>;
    /** The step before: GET /readyz answers 503 from now on, every call is still served. */
    unready(): void;
    /** Whether a stop has begun (unready or draining): what GET /readyz reads. */
    stopping(): boolean;
  }
}

// The probes keep answering during a stop: a balancer reads /readyz's 503, a supervisor /livez.
const PROBES = new Set(['/livez', '/readyz']);

/**
 * Fastify's own close stops accepting connections at once (new callers see "connection refused")
 * and answers calls on open connections with a body that is not the envelope; a stop must instead
 * tell every new caller 503 while the work it already took finishes.
 */
export function registerDrain(app: FastifyInstance) {
  let draining = false;
  let unready = false;
  let inFlight = 0;
  let onIdle: (() => void) | null = null;

  const ended = () => {
    inFlight--;
    if (inFlight === 0) onIdle?.();
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (draining && !PROBES.has(request.url)) {
      reply.header('Connection', 'close');
      reply.status(503).send(fail(503, '服务暂时不可用，请稍后重试'));
      return;
    }
    if (request.routeOptions.config.stream) return done();
    inFlight++;
    // 'close' comes once, when the answer is sent or the caller went away, whichever happens
    // (`on`, not `once`: the response is dropped after it, and once wraps the listener anew per call).
    reply.raw.on('close', ended);
    done();
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.decorate('unready', () => {
    unready = true;
  });
  app.decorate('stopping', () => unready || draining);

  app.decorate('drain', (graceMs: number) => {
    draining = true;
    if (inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  });
}
