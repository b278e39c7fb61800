/**
 * The cost of the moderation rules on a write (issue 25): 10,000 words in the list, a 2,000-character
 * post (Chinese and Latin, HTML, a few disguised hits), checked with the word matcher of
 * server/src/modules/moderation. Run: `npx tsx bench/moderation.ts [runs] [words]`. Prints p50/p95/p99
 * of one check and the time to build the matcher (target ≤ 2 ms p95), then whether the slow checks
 * were garbage collection. `npm run bench` runs the same measurement beside the check's cost on a write.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { measureMatcher } from './lib/moderation';

const runs = Number(process.argv[2] ?? 2000);
const words = Number(process.argv[3] ?? 10_000);
const collections: Array<{ start: number; end: number }> = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push({ start: entry.startTime, end: entry.startTime + entry.duration });
});
observer.observe({ entryTypes: ['gc'] });
const r = measureMatcher(words, runs);
console.log(
  `moderation: ${r.words} words, ${r.postLength}-character posts, ${r.checks} checks: p50 ${r.p50.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms (target p95 ≤ 2 ms); matcher built in ${r.buildMs.toFixed(0)} ms; ${r.hits} matches`,
);
// GC entries arrive asynchronously: read them once the event loop has turned.
setTimeout(() => {
  observer.disconnect();
  const slow = r.slowChecks.filter((check) => collections.some((gc) => gc.start < check.end && gc.end > check.start));
  const gcMs = collections.reduce((total, gc) => total + gc.end - gc.start, 0);
  console.log(
    `checks over 2 ms: ${r.slowChecks.length}, of which ${slow.length} overlap a garbage collection; ${collections.length} collections in the run, ${gcMs.toFixed(0)} ms in all`,
  );
}, 100);
