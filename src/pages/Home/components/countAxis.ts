/**
 * The y scale of a chart of counts: whole numbers only (a day has 0, 1 or 2 new users, never 1.5)
 * and at most `maxTicks` of them, from 0 to the first step at or above the largest count.
 */
export function countScale(counts: number[], maxTicks = 5): { domainMin: 0; domainMax: number; ticks: number[] } {
  const largest = Math.max(0, ...counts);
  const intervals = Math.max(1, maxTicks - 1);
  // The smallest 1, 2 or 5 × 10^n step that covers `largest` within `intervals` steps.
  let step = 1;
  for (let magnitude = 1; step * intervals < largest; magnitude *= 10) {
    step = [1, 2, 5].map((m) => m * magnitude).find((s) => s * intervals >= largest) ?? magnitude * 10;
  }
  const top = Math.max(step, Math.ceil(largest / step) * step);
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  return { domainMin: 0, domainMax: top, ticks };
}
