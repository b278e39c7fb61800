import pg from 'pg';

/**
 * The `watch` layer (db/layers.ts, docs/decisions/0010): the pool's client drops a connection
 * whose statement has gone unanswered past its bound. It reaches into pg's Client for the
 * connection's socket (`connection.stream`), which pg does not document; statement-watch.test.ts
 * fails when a pg upgrade takes it away.
 */

type QueryCallback = (error: Error | null, result?: unknown) => void;

/** Whether a statement's outcome may have changed data: anything but a SELECT that succeeded. */
function mayHaveWritten(error: Error | null, result: unknown): boolean {
  return error !== null || (result as { command?: string } | undefined)?.command !== 'SELECT';
}

/** How often the statement watch (poolClient) looks for statements past their bound. */
export const STATEMENT_WATCH_MS = 50;

/**
 * The pool's pg Client, with what the server needs around each statement.
 *
 * `boundMs`: the connection is dropped when a statement has had no answer `boundMs` after it was
 * sent (at most STATEMENT_WATCH_MS later). node-postgres's own query_timeout only stops waiting:
 * the statement stays in flight on the connection, which goes back to the pool with its
 * transaction in an unknown state, and the next caller's statements queue behind it. Dropping the
 * connection fails the statement at once (a 503), makes the pool discard the client, and leaves
 * PostgreSQL to roll back whatever the connection had begun. One watch per pool looks at the
 * oldest unanswered statement of each connection a few times a second: a timer set and cleared
 * per statement cost every call a few per cent of its CPU.
 *
 * `onWrite`: called once a statement that may have written has finished (a COMMIT included), for
 * memoUntilWrite: this process's own writes are known at once, before any notification.
 */
export function poolClient({
  boundMs,
  onWrite,
  onStatement = null,
}: {
  boundMs: number | null;
  onWrite: (() => void) | null;
  /** db/client.ts StatementHook: called as each statement is sent and, with its error, once it is answered. */
  onStatement?: ((text: string) => ((error: unknown) => void) | null) | null;
}): typeof pg.Client {
  if (boundMs === null && onWrite === null && onStatement === null) return pg.Client;
  // Per connection, when each of its unanswered statements was sent: a connection answers its
  // statements in the order they were sent, so the first is the oldest. The watch runs while the
  // pool has connections.
  const unanswered = new Map<pg.Client, number[]>();
  let watch: NodeJS.Timeout | null = null;
  const sweep = (bound: number) => {
    const now = performance.now();
    for (const [client, sent] of unanswered) {
      if (sent.length && now - sent[0] >= bound) {
        sent.length = 0;
        socketOf(client).destroy();
      }
    }
  };
  // Not named *Pool*: drizzle takes any client whose class name contains "Pool" for a pool.
  return class ServerClient extends pg.Client {
    private readonly sent: number[] = [];

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      if (boundMs === null) return;
      unanswered.set(this, this.sent);
      watch ??= setInterval(sweep, STATEMENT_WATCH_MS, boundMs).unref();
      this.once('end', () => {
        unanswered.delete(this);
        if (unanswered.size === 0 && watch) {
          clearInterval(watch);
          watch = null;
        }
      });
    }

    // pg's query() has many overloads; this one forwards them all.
    // biome-ignore lint/suspicious/noExplicitAny: pg's query() overloads take and give any; this forwards them all.
    query(config: any, values?: any, callback?: any): any {
      // Cursors and other submittables keep a portal open across calls (and only read): left as they are.
      if (typeof config?.submit === 'function') return super.query(config, values, callback);
      if (typeof values === 'function') [values, callback] = [undefined, values];
      if (boundMs !== null) this.sent.push(performance.now());
      const end = onStatement?.(typeof config === 'string' ? config : String(config?.text)) ?? null;
      const settle = (error: Error | null, result: unknown) => {
        this.sent.shift();
        if (onWrite && mayHaveWritten(error, result)) onWrite();
        end?.(error);
      };
      if (typeof callback === 'function') {
        const done = callback as QueryCallback;
        return this.submitted(end, () =>
          super.query(config, values, (error: Error | null, result: unknown) => {
            settle(error, result);
            done(error, result);
          }),
        );
      }
      return (this.submitted(end, () => super.query(config, values)) as Promise<unknown>).then(
        (result) => {
          settle(null, result);
          return result;
        },
        (error: Error) => {
          settle(error, undefined);
          throw error;
        },
      );
    }

    /** A statement that failed before it was sent is no longer waited for. */
    private submitted<T>(end: ((error: unknown) => void) | null, send: () => T): T {
      try {
        return send();
      } catch (error) {
        this.sent.pop();
        end?.(error);
        throw error;
      }
    }
  } as unknown as typeof pg.Client;
}

/** The connection's socket: not in pg's typings or documentation (see the file's comment). */
export function socketOf(client: pg.Client): { destroy(): void } {
  return (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
}
