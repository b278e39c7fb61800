import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from '../config';

/** Where JSON lines go: pino's asynchronous destination, or a stream (tests). */
interface Lines {
  write(line: string): unknown;
}

/**
 * One log line per request, when it is answered (with its method and URL), instead of two.
 * `quietAssets`: the pages and their scripts, fonts and images answered fine are logged at debug,
 * so that a terminal shows what the API did instead of forty lines per page load.
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly quietAssets: boolean) {
    super();
  }

  incomingRequest() {}

  requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (this.quietAssets && reply.statusCode < 400 && !/^\/(api|res)\//.test(request.url)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Standard output, written in the background in blocks of at least 15 KB (sonic-boom's largest
 * single write is 16 KB): under load many requests' lines go out in one write instead of a costly
 * write each (bench/NOTES.md). A quiet server still shows its lines within a second; only a
 * kill -9 can lose the last second (pino flushes at exit).
 */
function jsonLines(to: NodeJS.WritableStream | number): Lines {
  if (typeof to !== 'number') return to;
  return pino.destination({ dest: to, sync: false, minLength: 15 * 1024, periodicFlush: 1000 });
}

interface RequestLine {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** `GET /api/user?current=1 200 3.1 ms`: a request as a person reads it. */
export function requestSummary(log: RequestLine, message: string): string {
  if (!log.req || !log.res) return message;
  const time = typeof log.responseTime === 'number' ? ` ${log.responseTime.toFixed(1)} ms` : '';
  return `${log.req.method} ${log.req.url} ${log.res.statusCode}${time}`;
}

/** For a person at a terminal: one short coloured line per event instead of JSON. */
async function readableLines(destination: NodeJS.WritableStream | number) {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (log, messageKey) => requestSummary(log as RequestLine, String(log[messageKey] ?? '')),
  });
}

export interface Logging {
  logger: FastifyServerOptions['logger'];
  logController: LogController;
}

/**
 * The server's log. Written for machines (JSON lines, every request: the access log) unless
 * standard output is a terminal, where it is written for the person watching it.
 */
export async function createLogging(
  config: Pick<Config, 'logLevel'>,
  { terminal, destination = 1 }: { terminal: boolean; destination?: NodeJS.WritableStream | number },
): Promise<Logging> {
  const lines = terminal ? null : jsonLines(destination);
  return {
    logger: {
      level: config.logLevel,
      stream: lines ?? (await readableLines(destination)),
      // No redaction pass: the serializers Fastify applies to `req` and `res` write the method, URL,
      // host, address and status, never a header, so a token or a cookie has no way into a line.
      // Redacting paths that never occur cost every line a clone and a path parse (bench/NOTES.md).
    },
    logController: new OneLinePerRequest(terminal),
  };
}

/** Tests and tools: nothing logged. */
export const silentLogging = (): Logging => ({ logger: false, logController: new OneLinePerRequest(false) });
