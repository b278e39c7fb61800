import { startJob, startJobs, type Job } from './jobs';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background jobs', () => {
  it('a job without runAtStart first runs after its interval; a failed run is reported and the next tick runs again', async () => {
    const errors: string[] = [];
    let runs = 0;
    const job: Job = {
      name: 'flaky',
      intervalMs: 20,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('away');
      },
    };
    const running = startJob(job, (error, failed) => errors.push(`${failed.name}: ${(error as Error).message}`));
    expect(runs).toBe(0);
    await tick(70);
    await running.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual(['flaky: away']);
    const after = runs;
    await tick(50);
    expect(runs).toBe(after);
  });

  it('stopping them all aborts the signal of a run in progress and waits for it', async () => {
    let sawAbort = false;
    const long: Job = {
      name: 'long',
      intervalMs: 60_000,
      runAtStart: true,
      run: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            setTimeout(resolve, 20);
          });
        }),
    };
    const other: Job = { name: 'other', intervalMs: 60_000, run: async () => undefined };
    const stop = startJobs([long, other], () => undefined);
    await tick(10);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await tick(5);
    expect(sawAbort).toBe(true);
    expect(stopped).toBe(false);
    await stopping;
    expect(stopped).toBe(true);
  });
});
