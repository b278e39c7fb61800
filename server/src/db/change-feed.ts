import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The channel the database's triggers notify on, the payload naming the table that changed:
 * migration 0010 for what the session check reads (a session deleted or its expiry moved, an admin
 * changed or removed, not the last-seen time nor the TOTP step counter; a setting changed),
 * migration 0023 for what the public site's reads answer (issues, comments, books, what a comment
 * shows of its author). The name stays the one migration 0010 gave it.
 */
export const SESSION_CHANNEL = 'session_changes';

/** The tables whose changes migration 0010 announces: what the session check reads. */
export const SESSION_TABLES = ['admin_sessions', 'admins', 'settings'] as const;
/**
 * The tables whose changes migration 0023 announces: what the public site's reads answer. For
 * `users`, only a change of what a comment shows of its author (nickname, avatar) or a deletion,
 * not a sign-in's date or points.
 */
export const PUBLIC_TABLES = ['issues', 'comments', 'books', 'users'] as const;

/** How often the listener proves its channel works, and how long one proof is believed. */
export const HEARTBEAT_MS = 250;
export const TRUST_MS = 750;
/** No proof for this long while connected: the connection is taken for dead and made again. */
const DEAD_MS = 5000;
const RECONNECT_MS = [250, 1000, 2000, 5000];

export type FeedState = { live: true } | { live: false; error: Error | null };

export interface ChangeFeed {
  /**
   * A number that moves whenever the database tells of a change to one of `tables`, and whenever
   * the listening connection is lost or made again; null while the channel cannot be trusted (see
   * `trusted`), when memory must not be used.
   */
  version(tables: readonly string[]): number | null;
  /** Whether the channel is listening and a heartbeat came back within TRUST_MS. */
  trusted(): boolean;
  close(): Promise<void>;
}

/**
 * A dedicated connection that LISTENs on `channel`, so that a process may keep what it read from
 * the database in memory for as long as nothing on the channel changed, on every process at once.
 *
 * The delay is bounded, not hoped for: every HEARTBEAT_MS the listener notifies the channel
 * itself (`hb <its id> <n>`, which every other listener ignores), and PostgreSQL delivers a
 * listener's notifications in commit order, so when its own heartbeat comes back, every change
 * committed before that heartbeat was sent has been delivered before it. The feed is trusted only
 * while the last heartbeat that came back was sent within TRUST_MS: a change committed at time t
 * is therefore seen by every request this process answers after t + TRUST_MS, whatever happened
 * to the connection (a silent network, a listener stuck behind a pooler that drops LISTEN, a
 * stalled event loop), and usually within a few milliseconds. A lost connection makes the version
 * move and null until it is listening again, with a heartbeat back.
 */
export function listenForChanges(options: {
  url: string;
  channel?: string;
  onState?: (state: FeedState) => void;
  now?: () => number;
}): ChangeFeed {
  const channel = options.channel ?? SESSION_CHANNEL;
  const now = options.now ?? (() => performance.now());
  const self = randomBytes(6).toString('hex');
  const prefix = `hb ${self} `;
  // Moved by a lost or new connection (anything may have changed meanwhile); the changes by table.
  let epoch = 0;
  const changesOf = new Map<string, number>();
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let sequence = 0;
  // When each heartbeat still on its way was sent, by its number.
  const sent = new Map<number, number>();
  let confirmedAt = Number.NEGATIVE_INFINITY;
  let lastProofAt = 0;
  let failures = 0;
  let reconnect: NodeJS.Timeout | null = null;
  let announcedLive: boolean | null = null;

  const state = (next: FeedState) => {
    if (next.live === announcedLive) return;
    announcedLive = next.live;
    options.onState?.(next);
  };

  function lose(connection: pg.Client, error: Error | null) {
    if (connection !== client) return;
    client = null;
    listening = false;
    confirmedAt = Number.NEGATIVE_INFINITY;
    sent.clear();
    epoch++;
    connection.removeAllListeners('notification');
    // Errors of a connection given up are of no further interest, but must not go unhandled.
    connection.on('error', () => undefined);
    connection.end().catch(() => undefined);
    state({ live: false, error });
    if (!closed && !reconnect) {
      const delay = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)];
      failures++;
      reconnect = setTimeout(() => {
        reconnect = null;
        void connect();
      }, delay);
      reconnect.unref();
    }
  }

  async function connect() {
    if (closed) return;
    const connection = new pg.Client({
      connectionString: options.url,
      application_name: 'coder-station session listener',
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    client = connection;
    connection.on('error', (error) => lose(connection, error));
    connection.on('end', () => lose(connection, null));
    connection.on('notification', ({ channel: from, payload = '' }) => {
      if (from !== channel) return;
      if (payload.startsWith(prefix)) {
        const back = Number(payload.slice(prefix.length));
        const at = sent.get(back);
        if (at === undefined) return;
        for (const n of sent.keys()) if (n <= back) sent.delete(n);
        confirmedAt = Math.max(confirmedAt, at);
        lastProofAt = now();
        failures = 0;
        state({ live: true });
      } else if (!payload.startsWith('hb ')) {
        changesOf.set(payload, (changesOf.get(payload) ?? 0) + 1);
      }
    });
    try {
      await connection.connect();
      // The identifier is ours, not the caller's: quoted as one anyway.
      await connection.query(`listen "${channel.replace(/"/g, '""')}"`);
      if (connection !== client) return;
      // Whatever changed while nobody listened is unknown: everything kept before is stale.
      epoch++;
      listening = true;
      lastProofAt = now();
      beat();
    } catch (error) {
      lose(connection, error as Error);
    }
  }

  function beat() {
    const connection = client;
    if (!connection || !listening) return;
    if (now() - lastProofAt > DEAD_MS) {
      lose(connection, new Error(`no heartbeat came back on channel ${channel} for ${DEAD_MS} ms`));
      return;
    }
    const n = ++sequence;
    sent.set(n, now());
    connection.query('select pg_notify($1, $2)', [channel, `${prefix}${n}`]).catch((error: Error) => lose(connection, error));
  }

  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  void connect();

  const trusted = () => listening && now() - confirmedAt <= TRUST_MS;
  return {
    trusted,
    version(tables) {
      if (!trusted()) return null;
      let version = epoch;
      for (const table of tables) version += changesOf.get(table) ?? 0;
      return version;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      if (reconnect) clearTimeout(reconnect);
      const connection = client;
      client = null;
      listening = false;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  };
}
