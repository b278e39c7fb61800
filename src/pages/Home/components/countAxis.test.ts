import { countScale } from './countAxis';

describe('countScale', () => {
  it('gives whole-number ticks from 0 for small counts, never halves', () => {
    expect(countScale([0, 1, 0, 2]).ticks).toEqual([0, 1, 2]);
    expect(countScale([0, 0, 0]).ticks).toEqual([0, 1]);
    expect(countScale([3]).ticks).toEqual([0, 1, 2, 3]);
  });

  it('keeps to at most five ticks with round steps for larger counts, the top covering the largest', () => {
    for (const largest of [5, 7, 9, 13, 37, 101, 999, 4321]) {
      const { ticks, domainMax } = countScale([0, largest]);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.every(Number.isInteger)).toBe(true);
      expect(ticks[0]).toBe(0);
      expect(domainMax).toBe(ticks[ticks.length - 1]);
      expect(domainMax).toBeGreaterThanOrEqual(largest);
      expect(String(ticks[1])).toMatch(/^[125]0*$/);
    }
  });
});
