import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../modules/upload/upload.service';

/**
 * How much of a body refused before it was read is still read and thrown away: the largest body
 * the server accepts (an upload and its multipart framing). Past it the connection is closed.
 */
export const DISCARD_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;
/** How long a connection closed past DISCARD_LIMIT keeps discarding, for the caller to read the answer. */
const LINGER_MS = 2000;

function hasBody(raw: IncomingMessage): boolean {
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}

/**
 * A call refused before its body was read (no token on an upload, a 503 while draining) answers
 * while the caller is still sending. Closing then resets the connection, and a caller that reads
 * only after sending (a browser, a proxy) loses the answer; reading the whole body is unbounded.
 * So the rest of the body is read and discarded up to DISCARD_LIMIT, and past it for LINGER_MS
 * at most before the connection closes: a kept connection is half-closed after the answer; one
 * Node closes after the answer gets it when the body ends or the lingering does.
 */
export function registerUnreadBody(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    // readableFlowing null: nothing ever read the body (a parser or a handler would have).
    if (raw.complete || raw.readableFlowing !== null || !hasBody(raw)) return done(null, payload);

    const connection = String(reply.getHeader('connection') ?? raw.headers.connection ?? '');
    const closing = /\bclose\b/i.test(connection) || (raw.httpVersion === '1.0' && !/\bkeep-alive\b/i.test(connection));
    const socket = raw.socket;
    let received = 0;
    let overLimit = false;
    const giveUp = () => {
      if (overLimit) return;
      overLimit = true;
      // The answer is already queued before the FIN; the timer is the bound on lingering.
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    raw.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > DISCARD_LIMIT && !closing) giveUp();
    });
    raw.on('error', () => undefined);

    // Node keeps the connection: answer now; the listener above discards what follows, up to the limit.
    if (!closing) return done(null, payload);
    // Node closes the connection right after this answer, and a close with unread data is a reset:
    // the answer waits for the body's end, or past the limit for LINGER_MS more of it at most.
    let sent = false;
    let lingering: NodeJS.Timeout | null = null;
    const send = () => {
      if (sent) return;
      sent = true;
      if (lingering) clearTimeout(lingering);
      done(null, payload);
    };
    raw.on('end', send);
    raw.on('close', send);
    raw.on('data', () => {
      if (received > DISCARD_LIMIT) lingering ??= setTimeout(send, LINGER_MS);
    });
  });
}
