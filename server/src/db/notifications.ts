import pg from 'pg';

/** Calls `onPayload` with each notification's payload on a channel; answers how to stop. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

const RECONNECT_MS = [250, 1000, 2000, 5000];

/**
 * LISTEN on PostgreSQL through one dedicated connection per channel, made again after a loss
 * (`onPayload('')` then tells the listener that something may have been missed). Unlike the
 * change feed (change-feed.ts), which only counts changes, this passes each payload on.
 */
export function postgresListen(url: string): Listen {
  return async (channel, onPayload) => {
    let closed = false;
    let client: pg.Client | null = null;
    let failures = 0;
    let timer: NodeJS.Timeout | null = null;
    const connect = async () => {
      if (closed) return;
      const connection = new pg.Client({ connectionString: url, application_name: `coder-station ${channel}`, keepAlive: true });
      client = connection;
      const lose = () => {
        if (client !== connection) return;
        client = null;
        connection.removeAllListeners('notification');
        connection.on('error', () => undefined);
        connection.end().catch(() => undefined);
        if (closed) return;
        timer = setTimeout(connect, RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]);
        timer.unref();
      };
      connection.on('error', lose);
      connection.on('end', lose);
      connection.on('notification', (message) => {
        if (message.channel === channel) onPayload(message.payload ?? '');
      });
      try {
        await connection.connect();
        await connection.query(`listen "${channel.replace(/"/g, '""')}"`);
        failures = 0;
        // Whatever happened while nobody listened is unknown.
        onPayload('');
      } catch {
        lose();
      }
    };
    await connect();
    return async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const connection = client;
      client = null;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    };
  };
}
