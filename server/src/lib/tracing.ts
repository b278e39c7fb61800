import { context, diag, DiagLogLevel, propagation, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Config } from '../config';
import type { StatementHook } from '../db/client';

/**
 * OpenTelemetry traces (docs/decisions/0020): a server span per request (plugins/tracing.ts) and a
 * child span per SQL statement sent while it is the active span. Nothing here runs unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export interface Tracing {
  tracer: Tracer;
  /** For the database's statement hook (db/client.ts `onStatement`). */
  onStatement: StatementHook;
  /**
   * Where OpenTelemetry's own warnings and errors go (a collector that cannot be reached, spans
   * dropped): the server's log, each distinct message at most once a minute. Silent until called.
   */
  reportProblemsTo(log: ProblemLog): void;
  /** Sends the spans ended so far (tests). */
  flush(): Promise<void>;
  /** Sends what is left and gives the global API back (the server's close). */
  shutdown(): Promise<void>;
}

/** The part of a pino logger that OpenTelemetry's problems are written to. */
export interface ProblemLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** How often one message of OpenTelemetry is repeated at most: a collector that is down fails every batch (5 s). */
const REPEAT_AFTER_MS = 60_000;

/** OpenTelemetry's default error handler hands an error over as its JSON (stack and all): its message is what a reader needs. */
function readable(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : text;
  } catch {
    return text;
  }
}

/** `SELECT`, `INSERT`, …: a statement span's name, without the table or anything parameter-like. */
function operationOf(text: string): string {
  const word = /^\s*([A-Za-z]+)/.exec(text);
  return word ? word[1].toUpperCase() : 'SQL';
}

/**
 * Starts the provider: spans go out in batches over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`.
 * It is registered with the API, which brings the W3C trace-context propagator (an incoming
 * `traceparent` is continued) and the AsyncLocalStorage context manager (a statement finds the
 * request it runs for). The exporter also reads OTEL_EXPORTER_OTLP_HEADERS and the like itself.
 */
export function startTracing(settings: NonNullable<Config['tracing']>): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  const tracer = provider.getTracer('coder-station-server');

  const onStatement: StatementHook = (text) => {
    // Only the statements of a traced request: the background jobs' would each be a trace of its own.
    // Nor those of a request the sampler left out (OTEL_TRACES_SAMPLER): nothing would be sent.
    const parent = context.active();
    if (!trace.getSpan(parent)?.isRecording()) return null;
    const span: Span = tracer.startSpan(
      operationOf(text),
      {
        kind: SpanKind.CLIENT,
        // The text only: parameters may carry passwords' hashes, tokens and members' words.
        attributes: { 'db.system': 'postgresql', 'db.system.name': 'postgresql', 'db.query.text': text },
      },
      parent,
    );
    return (error) => {
      if (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    };
  };

  return {
    tracer,
    onStatement,
    reportProblemsTo(log) {
      const lastSaid = new Map<string, number>();
      const say =
        (level: 'warn' | 'error') =>
        (text: string, ...args: unknown[]) => {
          const message = readable(text);
          const now = Date.now();
          if (now - (lastSaid.get(message) ?? Number.NEGATIVE_INFINITY) < REPEAT_AFTER_MS) return;
          if (lastSaid.size > 100) lastSaid.clear();
          lastSaid.set(message, now);
          const details = args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : JSON.stringify(arg)));
          log[level]({ otel: details.join(' ').slice(0, 500) }, `OpenTelemetry: ${message}`);
        };
      const quiet = () => undefined;
      diag.setLogger(
        { error: say('error'), warn: say('warn'), info: quiet, debug: quiet, verbose: quiet },
        { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
      );
    },
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      // Another provider may be registered later in this process (tests start several servers).
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}

/** The configured tracing, started; null (and nothing started) when OTEL_EXPORTER_OTLP_ENDPOINT is unset. */
export function tracingFor(config: Pick<Config, 'tracing'>): Tracing | null {
  return config.tracing ? startTracing(config.tracing) : null;
}
