import { describe, expect, it } from 'vitest';
import { maxOf, mean, minOf, percentileOfSorted, percentiles } from './percentiles.js';

describe('percentiles', () => {
  it('interpolates linearly between closest ranks (numpy default)', () => {
    // 1..10: rank for p95 = 0.95 × 9 = 8.55 → 9 + 0.55 × (10 − 9) = 9.55
    const xs = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
    expect(percentiles(xs, [50, 95, 99])).toEqual({ p50: 5.5, p95: expect.closeTo(9.55, 12), p99: expect.closeTo(9.91, 12) });
  });
  it('returns the only sample for any p, and null without samples', () => {
    expect(percentiles([42], [0, 50, 100])).toEqual({ p0: 42, p50: 42, p100: 42 });
    expect(percentiles([], [50])).toBeNull();
    expect(mean([])).toBeNull();
  });
  it('sorts numerically, not as strings', () => {
    expect(percentiles([100, 9, 20], [50])).toEqual({ p50: 20 });
  });
  it('rejects a percentile outside 0..100', () => {
    expect(() => percentileOfSorted([1, 2], 101)).toThrow(/outside 0..100/);
  });
  it('max and min of a million samples without overflowing the stack', () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(maxOf(big)).toBe(999_999);
    expect(minOf(big)).toBe(0);
    expect(mean([1, 2, 3, 4])).toBe(2.5);
  });
});
