import { startJob, type Job, type RunningJob } from '../../lib/jobs';
import { PURGE_BATCH, type AuditRepository } from './audit.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the server looks for expired entries. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes audit entries older than `days`, in batches (one short statement each, so a large
 * backlog never holds a long lock or a long transaction). `job` is what the server runs on its
 * timer (lib/jobs.ts); `start` / `stop` run it alone (tests).
 */
export function createAuditRetention(deps: {
  repo: AuditRepository;
  days: number;
  now?: () => number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}) {
  const now = deps.now ?? Date.now;
  let running: Promise<number> | null = null;
  let started: RunningJob | null = null;

  async function purge(signal?: AbortSignal): Promise<number> {
    const before = now() - deps.days * DAY_MS;
    let total = 0;
    for (;;) {
      const removed = await deps.repo.purgeBatch(before);
      total += removed;
      if (removed < PURGE_BATCH || signal?.aborted) return total;
    }
  }

  /** One pass; a pass still running is joined rather than doubled. */
  function runOnce(signal?: AbortSignal): Promise<number> {
    running ??= purge(signal).finally(() => {
      running = null;
    });
    return running;
  }

  const job: Job = { name: 'audit retention', intervalMs: deps.intervalMs ?? RETENTION_INTERVAL_MS, run: runOnce };

  return {
    runOnce: () => runOnce(),
    job,
    start() {
      started ??= startJob(job, (error) => deps.onError?.(error));
    },
    /** Stops the timer and waits for a pass in progress. */
    async stop() {
      await started?.stop();
      started = null;
    },
  };
}
