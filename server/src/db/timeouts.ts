/**
 * How long a call may wait on PostgreSQL, in each of the three places it can wait. A call that
 * waits longer answers 503 instead of hanging, and holds no connection or lock meanwhile.
 */
export interface DatabaseTimeouts {
  /** For a connection: every pooled one busy, or a new one not answered (connect timeout). */
  acquireMs: number;
  /** For a row or advisory lock another transaction holds (PostgreSQL's lock_timeout). */
  lockMs: number;
  /**
   * For one statement (PostgreSQL's statement_timeout). A database that does not answer at all
   * (stopped, cut off) cannot enforce its own time-out: the client gives up ABANDON_MARGIN_MS
   * later and drops the connection (see boundedClient).
   */
  statementMs: number;
}

/**
 * The server's defaults: a call that cannot get a connection, a lock or an answer is told so
 * (503) within 2500 ms, before the front end's own 3000 ms request time-out gives up on it.
 */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { acquireMs: 2000, lockMs: 2000, statementMs: 2000 };

/** Past the statement time-out, how long the client still waits for PostgreSQL's own answer. */
export const ABANDON_MARGIN_MS = 500;
