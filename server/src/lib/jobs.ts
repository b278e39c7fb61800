/**
 * A background job of a serving server (the audit log's retention, the recycle bin's expiry): run
 * every `intervalMs` on an unref'd timer (it never keeps a stopping process alive), one run at a
 * time, a failed run reported and retried at the next tick.
 */
export interface Job {
  name: string;
  intervalMs: number;
  /** Also run once as soon as it starts, not only after the first interval. */
  runAtStart?: boolean;
  /** One run; `signal` is aborted when the job stops, for a long run to end early. */
  run(signal: AbortSignal): Promise<unknown>;
}

export interface RunningJob {
  /** A run now; one in progress is joined rather than doubled. */
  runOnce(): Promise<void>;
  /** Stops the timer, asks a run in progress to end and waits for it. */
  stop(): Promise<void>;
}

export function startJob(job: Job, onError: (error: unknown, job: Job) => void): RunningJob {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const runOnce = () => {
    running ??= job
      .run(stopping.signal)
      .then(
        () => undefined,
        (error) => onError(error, job),
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(runOnce, job.intervalMs);
  timer.unref();
  const first = job.runAtStart ? setTimeout(runOnce, 0) : null;
  first?.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      if (first) clearTimeout(first);
      stopping.abort();
      await running;
    },
  };
}

/** Starts every job and answers the one function that stops them all. */
export function startJobs(jobs: readonly Job[], onError: (error: unknown, job: Job) => void): () => Promise<void> {
  const started = jobs.map((job) => startJob(job, onError));
  return async () => {
    await Promise.all(started.map((job) => job.stop()));
  };
}
