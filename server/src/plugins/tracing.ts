import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tracing } from '../lib/tracing';

/**
 * A server span per request (docs/decisions/0020), from its routing to its answer. Registered only
 * when tracing is on: without it a request pays nothing.
 */
export function registerTracing(app: FastifyInstance, tracing: Tracing): void {
  const spans = new WeakMap<FastifyRequest, Span>();

  // Hooks run one after the other in the context the previous one called `done` in, except after
  // the body is read (the stream's events come in the connection's context): the span is made
  // active again before validation, so that the guards' and the handler's statements find it.
  const activate = (request: FastifyRequest, done: () => void) => {
    const span = spans.get(request);
    if (span) context.with(trace.setSpan(context.active(), span), done);
    else done();
  };

  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    const span = tracing.tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, ...(route && { 'http.route': route }) },
      },
      // A caller's `traceparent` makes this span a child of its own (the W3C propagator).
      propagation.extract(ROOT_CONTEXT, request.headers),
    );
    spans.set(request, span);
    // Every line this request logs, its access-log line included, names its trace.
    request.log = request.log.child({ trace_id: span.spanContext().traceId });
    reply.log = request.log;
    activate(request, done);
  });
  app.addHook('preValidation', (request, _reply, done) => activate(request, done));

  /** The request's span, once: an aborted request may still be answered (into the void) after. */
  const take = (request: FastifyRequest) => {
    const span = spans.get(request);
    spans.delete(request);
    return span;
  };
  app.addHook('onResponse', (request, reply, done) => {
    const span = take(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
  // A caller gone before the answer: its span ends there.
  app.addHook('onRequestAbort', (request, done) => {
    const span = take(request);
    span?.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted' });
    span?.end();
    done();
  });

  app.addHook('onClose', async () => {
    await tracing.shutdown();
  });
}
