import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { PresenceEvent, ReviewCounts } from '#contract/review';
import type { Database } from '../../db/client';

/** The channel migration 0013's triggers and the presence calls notify on. */
export const REVIEW_CHANNEL = 'review_changes';

/** Changes arriving this close together are told as one (a batch of decisions, an import). */
const COALESCE_MS = 50;
/** A comment line on an idle stream, so that proxies keep it open. */
const KEEPALIVE_MS = 15_000;
/** How often a stream asks whether its session is still live: one ended elsewhere stops hearing within this. */
export const STREAM_SESSION_CHECK_MS = 5_000;

export type ReviewHub = ReturnType<typeof createReviewHub>;

/**
 * The queue's live events (GET /api/review/events) on every process: each process LISTENs on
 * REVIEW_CHANNEL (PostgreSQL: one connection; PGlite: its own notifications) and tells its open
 * streams the new counts after each change, and presence messages as they come.
 */
export function createReviewHub(deps: { database: Database; counts: () => Promise<ReviewCounts>; onError: (error: unknown) => void }) {
  const { database } = deps;
  const streams = new Set<ServerResponse>();
  let stopListening: Promise<() => Promise<void>> | null = null;
  let pending: NodeJS.Timeout | null = null;
  const changed = new Set<string>();

  const write = (event: string, data: unknown) => {
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of streams) stream.write(text);
  };

  const tellCounts = async () => {
    pending = null;
    const what = [...changed];
    changed.clear();
    try {
      const counts = await deps.counts();
      write('counts', counts);
      write('change', { what });
    } catch (error) {
      deps.onError(error);
    }
  };

  const onPayload = (payload: string) => {
    if (payload.startsWith('{')) {
      write('presence', JSON.parse(payload) as PresenceEvent);
      return;
    }
    // '' : the listener was (re)connected and may have missed changes.
    changed.add(payload || 'reconnect');
    pending ??= setTimeout(() => void tellCounts(), COALESCE_MS);
  };

  function listen() {
    stopListening ??= database.listen(REVIEW_CHANNEL, onPayload);
    return stopListening;
  }

  return {
    /**
     * Streams server-sent events to `response` until it closes: counts at once, then every change.
     * The token was checked when the stream opened; `sessionLive` is asked again every
     * STREAM_SESSION_CHECK_MS, and a session ended since (signed out elsewhere, the admin disabled)
     * ends the stream: its page's reconnection is then refused and says why.
     */
    async open(response: ServerResponse, sessionLive: () => Promise<boolean>) {
      await listen();
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        // The connection is the stream's alone: when it ends the socket goes too, not back to keep-alive.
        connection: 'close',
      });
      streams.add(response);
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEPALIVE_MS);
      keepAlive.unref();
      const sessionCheck = setInterval(() => {
        void sessionLive().then((live) => {
          if (!live) response.end();
        }, deps.onError);
      }, STREAM_SESSION_CHECK_MS);
      sessionCheck.unref();
      response.on('close', () => {
        clearInterval(keepAlive);
        clearInterval(sessionCheck);
        streams.delete(response);
      });
      response.write(`retry: 2000\nevent: counts\ndata: ${JSON.stringify(await deps.counts())}\n\n`);
    },

    /** Tells every process's streams that an admin opened (or left) an item. */
    async presence(event: PresenceEvent) {
      await database.db.execute(sql`select pg_notify(${REVIEW_CHANNEL}, ${JSON.stringify(event)})`);
    },

    /** Ends every stream and stops listening (the server is closing). */
    async close() {
      if (pending) clearTimeout(pending);
      // Destroyed, not ended: a closing server must not wait for the page at the other end.
      for (const stream of streams) stream.destroy();
      streams.clear();
      const stop = stopListening;
      stopListening = null;
      if (stop) await (await stop)();
    },
  };
}
