import { PURGE_BATCH, type AuditRepository } from './audit.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the server looks for expired entries. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes audit entries older than `days`, in batches (one short statement each, so a large
 * backlog never holds a long lock or a long transaction), every `intervalMs` while the server
 * runs. The timer is unref'd: it never keeps a stopping process alive.
 */
export function createAuditRetention(deps: {
  repo: AuditRepository;
  days: number;
  now?: () => number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}) {
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  async function purge(): Promise<number> {
    const before = now() - deps.days * DAY_MS;
    let total = 0;
    for (;;) {
      const removed = await deps.repo.purgeBatch(before);
      total += removed;
      if (removed < PURGE_BATCH || stopped) return total;
    }
  }

  /** One pass; a pass still running is joined rather than doubled. */
  function runOnce(): Promise<number> {
    running ??= purge().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    runOnce,
    start() {
      if (timer) return;
      stopped = false;
      timer = setInterval(() => {
        // A failed pass (the database away for a moment) is retried at the next tick.
        runOnce().catch((error) => deps.onError?.(error));
      }, deps.intervalMs ?? RETENTION_INTERVAL_MS);
      timer.unref();
    },
    /** Stops the timer and waits for a pass in progress. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
