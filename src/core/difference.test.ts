import { describe, expect, it } from 'vitest';
import { BOOTSTRAP, MAX_BOOTSTRAP_SAMPLES, difference, meanStatistic, percentileStatistic } from './difference.js';
import { mulberry32 } from './random.js';

/** n values around `centre` with ±`spread` uniform noise, seeded. */
const noisy = (n: number, centre: number, spread: number, seed: number) => {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => centre + (r() * 2 - 1) * spread);
};
const p50 = percentileStatistic(50);

describe('difference: better or worse only when the interval excludes zero', () => {
  it('a 5 % faster repeat set is better, its interval excluding zero; the same configuration twice establishes nothing', () => {
    const base = [100.2, 99.6, 100.4];
    const faster = [105.1, 104.8, 105.6];
    const d = difference({ direction: 'higher', baseline: base, candidate: faster, basis: 'runs', statistic: meanStatistic, digits: 1 });
    expect(d.verdict).toBe('better');
    expect(d.basis).toBe('runs');
    expect(d.lo).toBeGreaterThan(0);
    expect(d.pct).toBeCloseTo(5, 0);
    const same = difference({ direction: 'higher', baseline: base, candidate: [100.6, 99.2, 100.9], basis: 'runs', statistic: meanStatistic, digits: 1 });
    expect(same.verdict).toBe('no difference established');
    expect(same.why).toBe('the interval includes zero');
    expect(same.lo as number).toBeLessThan(0);
    expect(same.hi as number).toBeGreaterThan(0);
  });

  it('is reproducible with its seed, and another seed moves the interval only a little', () => {
    const a = noisy(200, 50, 10, 1);
    const b = noisy(200, 53, 10, 2);
    const one = difference({ direction: 'lower', baseline: a, candidate: b, basis: 'requests', statistic: p50, digits: 1 });
    const again = difference({ direction: 'lower', baseline: a, candidate: b, basis: 'requests', statistic: p50, digits: 1 });
    expect(again).toEqual(one);
    const other = difference({ direction: 'lower', baseline: a, candidate: b, basis: 'requests', statistic: p50, digits: 1, seed: BOOTSTRAP.seed + 1 });
    expect(other.lo).not.toBe(one.lo);
    expect(Math.abs((other.lo as number) - (one.lo as number))).toBeLessThan(2);
    expect(one.verdict).toBe('worse');
  });

  it('names no direction for a change that rounds to zero at the digits shown', () => {
    const a = [10.001, 10.002, 10.001, 10.002];
    const b = [10.003, 10.004, 10.003, 10.004];
    const d = difference({ direction: 'lower', baseline: a, candidate: b, basis: 'requests', statistic: meanStatistic, digits: 2 });
    expect(d.verdict).toBe('no difference established');
    expect(d.why).toBe('the change rounds to zero');
  });

  it("does not call a change inside the figure's own noise better", () => {
    const a = [0.99, 0.991, 0.99, 0.991];
    const b = [0.995, 0.996, 0.995, 0.996];
    const clear = difference({ direction: 'higher', baseline: a, candidate: b, basis: 'runs', statistic: meanStatistic, digits: 3 });
    expect(clear.verdict).toBe('better');
    const noisy2 = difference({ direction: 'higher', baseline: a, candidate: b, basis: 'runs', statistic: meanStatistic, digits: 3, noise: 0.01 });
    expect(noisy2.verdict).toBe('no difference established');
    expect(noisy2.why).toMatch(/own noise/);
  });

  it('fewer than 3 runs a side, one value, no direction or no value: never a direction', () => {
    expect(difference({ direction: 'higher', baseline: [1, 1.1], candidate: [5, 5.1], basis: 'runs', statistic: meanStatistic, digits: 1 })).toMatchObject({
      verdict: 'no difference established',
      basis: 'single values',
      lo: null,
      why: 'fewer than 3 runs on a side',
    });
    expect(difference({ direction: 'higher', baseline: [1], candidate: [5], basis: 'requests', statistic: meanStatistic, digits: 1 }).verdict).toBe(
      'no difference established',
    );
    expect(difference({ direction: null, baseline: [1, 2, 3], candidate: [7, 8, 9], basis: 'requests', statistic: meanStatistic, digits: 0 }).verdict).toBe(
      'no difference established',
    );
    expect(difference({ direction: 'higher', baseline: [], candidate: [1, 2], basis: 'requests', statistic: meanStatistic, digits: 0 })).toMatchObject({
      verdict: 'not compared',
      diff: null,
    });
    expect(
      difference({ direction: 'higher', baseline: [NaN, Infinity], candidate: [1, 2], basis: 'requests', statistic: meanStatistic, digits: 0 }).verdict,
    ).toBe('not compared');
  });

  it('bounds its work on huge sides (thinned evenly) and still finds a clear change', () => {
    const a = noisy(MAX_BOOTSTRAP_SAMPLES * 3, 100, 5, 3);
    const b = noisy(MAX_BOOTSTRAP_SAMPLES * 3, 90, 5, 4);
    const d = difference({ direction: 'lower', baseline: a, candidate: b, basis: 'requests', statistic: meanStatistic, digits: 1, resamples: 50 });
    expect(d.verdict).toBe('better');
    expect(d.hi as number).toBeLessThan(0);
  });
});
