import { peakRssDuring, type BenchServer } from './server';

/** One CSV export measured: the whole download, and how far the server's RSS rose meanwhile. */
export interface ExportRow {
  database: string;
  path: string;
  rows: number;
  megabytes: number;
  seconds: number;
  restRssMb: number;
  rssGrowthMb: number;
}

/**
 * Downloads an export to the end (counting its lines, keeping nothing), sampling the server's RSS
 * every 200 ms: the target is ≤ 20 s and ≤ 50 MB of growth for 1,000,000 users on PostgreSQL.
 */
export async function measureExport(database: string, server: BenchServer, token: string, path: string): Promise<ExportRow> {
  const restRssMb = server.rssMb();
  const started = performance.now();
  const { result, peakMb } = await peakRssDuring(server.pid, async () => {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200 || !response.body) throw new Error(`GET ${path}: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    return { bytes, lines };
  });
  return {
    database,
    path,
    // The header line is not a row (no cell of a user holds a line break).
    rows: result.lines - 1,
    megabytes: result.bytes / (1024 * 1024),
    seconds: (performance.now() - started) / 1000,
    restRssMb,
    rssGrowthMb: Math.max(0, peakMb - restRssMb),
  };
}
