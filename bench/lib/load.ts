import fs from 'node:fs';
import autocannon from 'autocannon';

// Linux's USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on every common build.
const CLOCK_TICKS = 100;

export interface LoadResult {
  rps: number;
  /** CPU time the server process spent per request: what a busy machine moves least. */
  serverCpuMs: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and time-outs: any makes the run suspect. */
  failures: number;
  requests: number;
}

function once(url: string, token: string | null, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    // A null token: a visitor's call (the public site), without Authorization.
    headers: token ? { authorization: `Bearer ${token}` } : {},
    // A run that cannot keep up must show as latency, not as dropped samples.
    timeout: 10,
  });
}

/** User plus system CPU time of a process so far, in milliseconds. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * A warm-up (not counted), then `seconds` of load at `connections` concurrent connections, on the
 * server whose process is `pid`.
 */
export async function measure(
  url: string,
  token: string | null,
  pid: number,
  connections: number,
  seconds: number,
  warmup: number,
): Promise<LoadResult> {
  if (warmup > 0) await once(url, token, connections, warmup);
  const cpuBefore = cpuMs(pid);
  const result = await once(url, token, connections, seconds);
  const cpu = cpuMs(pid) - cpuBefore;
  return {
    rps: result.requests.total / seconds,
    serverCpuMs: result.requests.total ? cpu / result.requests.total : NaN,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}
