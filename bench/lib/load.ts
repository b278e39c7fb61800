import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus connection errors and time-outs: any makes the run suspect. */
  failures: number;
  requests: number;
}

function once(url: string, token: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
    // A run that cannot keep up must show as latency, not as dropped samples.
    timeout: 10,
  });
}

/** A warm-up (not counted), then `seconds` of load at `connections` concurrent connections. */
export async function measure(url: string, token: string, connections: number, seconds: number, warmup: number): Promise<LoadResult> {
  if (warmup > 0) await once(url, token, connections, warmup);
  const result = await once(url, token, connections, seconds);
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}
