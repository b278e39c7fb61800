/**
 * The cost of the moderation rules on a write (issue 25): 10,000 words in the list, a 2,000-character
 * post (Chinese and Latin, HTML, a few disguised hits), checked with the word matcher of
 * server/src/modules/moderation. Run: `npx tsx bench/moderation.ts [runs] [words]`. Prints p50/p95/p99
 * of one check and the time to build the matcher; the target is ≤ 2 ms p95. `npm run bench` runs the
 * same measurement (bench/lib/moderation.ts) beside the check's cost on a real write.
 */
import { measureMatcher } from './lib/moderation';

const runs = Number(process.argv[2] ?? 2000);
const words = Number(process.argv[3] ?? 10_000);
const r = measureMatcher(words, runs);
console.log(
  `moderation: ${r.words} words, ${r.postLength}-character posts, ${r.checks} checks: p50 ${r.p50.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms (target p95 ≤ 2 ms); matcher built in ${r.buildMs.toFixed(0)} ms; ${r.hits} matches`,
);
