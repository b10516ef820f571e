import { describe, expect, it } from 'vitest';
import { arrivalSchema } from '../core/index.js';
import { arrivalOps, burstOffsetsNs, constantOffsetsNs, gammaOffsetsNs, poissonOffsetsNs } from './arrival.js';

function gaps(offsets: number[]): number[] {
  return offsets.slice(1).map((t, i) => t - (offsets[i] as number));
}
function meanCv(xs: number[]): { mean: number; cv: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return { mean, cv: sd / mean };
}

describe('Poisson arrivals', () => {
  for (const [rate, seed] of [
    [4, 1],
    [25, 7],
    [0.5, 12345],
  ] as const) {
    it(`over 2,000 inter-arrivals at ${rate} req/s (seed ${seed}): mean 1/rate and CV 1, each within 5%`, () => {
      const { mean, cv } = meanCv(gaps(poissonOffsetsNs(rate, 2001, seed)));
      const target = 1e9 / rate;
      expect(Math.abs(mean - target) / target).toBeLessThan(0.05);
      expect(Math.abs(cv - 1)).toBeLessThan(0.05);
    });
  }
  it('is reproducible for a seed and different for another', () => {
    expect(poissonOffsetsNs(3, 50, 9)).toEqual(poissonOffsetsNs(3, 50, 9));
    expect(poissonOffsetsNs(3, 50, 9)).not.toEqual(poissonOffsetsNs(3, 50, 10));
    expect(poissonOffsetsNs(3, 5, 9)[0]).toBe(0);
  });
});

describe('constant and burst schedules', () => {
  it('constant: evenly 1/rate apart', () => {
    expect(constantOffsetsNs(4, 4)).toEqual([0, 250e6, 500e6, 750e6]);
  });
  it('burst: size requests at once, every interval', () => {
    expect(burstOffsetsNs(3, 100, 7)).toEqual([0, 0, 0, 100e6, 100e6, 100e6, 200e6]);
  });
});

describe('each kind owns its levels, defaults and plan', () => {
  const closed = arrivalOps(arrivalSchema.parse({ kind: 'concurrency' }));
  const rate = arrivalOps(arrivalSchema.parse({ kind: 'rate', process: 'constant', maxConcurrency: 8 }));
  const burst = arrivalOps(arrivalSchema.parse({ kind: 'burst', intervalMs: 500 }));
  it('concurrency: whole streams, closed loop, max(8, 4C) requests', () => {
    expect(closed.plan(4, 16)).toEqual({ kind: 'closed', slots: 4 });
    expect(closed.autoRequests(1)).toBe(8);
    expect(closed.autoRequests(16)).toBe(64);
    expect(closed.checkLevel(1.5)).toMatch(/not a whole number of streams/);
    expect(closed.label(1)).toBe('1 stream');
  });
  it('rate: fractional req/s allowed, open loop with the cap, about 10 s of arrivals', () => {
    expect(rate.checkLevel(0.5)).toBeNull();
    expect(rate.checkLevel(0)).toMatch(/not a rate/);
    expect(rate.plan(2, 3)).toEqual({ kind: 'open', offsetsNs: [0, 500e6, 1000e6], maxInFlight: 8 });
    expect(rate.autoRequests(0.5)).toBe(16);
    expect(rate.autoRequests(10)).toBe(100);
    expect(rate.label(2)).toBe('2 req/s constant, cap 8');
    expect(rate.connections(2)).toBe(8);
  });
  it('burst: whole burst sizes, the client socket budget without a cap', () => {
    expect(burst.plan(2, 4)).toEqual({ kind: 'open', offsetsNs: [0, 0, 500e6, 500e6], maxInFlight: 1024 });
    expect(burst.label(8)).toBe('bursts of 8 every 500 ms');
    expect(burst.checkLevel(2.5)).toMatch(/requests per burst/);
  });
  it('bisection: whole-number axes stop when adjacent, rates within the resolution', () => {
    expect(closed.bisect(4, 8, 0.1)).toBe(6);
    expect(closed.bisect(6, 7, 0.1)).toBeNull();
    expect(burst.bisect(2, 5, 0.1)).toBe(3);
    expect(rate.bisect(4, 8, 0.1)).toBe(6);
    expect(rate.bisect(7.5, 8, 0.1)).toBeNull();
  });
  it('an unknown kind is refused, naming the kinds', () => {
    const bad = arrivalSchema.safeParse({ kind: 'gamma' });
    expect(bad.error?.issues[0]).toMatchObject({ path: ['kind'], message: 'kind must be one of concurrency, rate, burst, trace' });
    expect(arrivalSchema.safeParse({ kind: 'rate', process: 'uniform' }).error?.issues[0]?.message).toBe('process must be constant or poisson');
  });
});

describe("gamma gaps (vLLM's burstiness)", () => {
  it("keep the rate's mean gap at every shape, burstier below 1 and more even above it, the same for the same seed", () => {
    for (const shape of [0.25, 0.5, 1, 4]) {
      const { mean, cv } = meanCv(gaps(gammaOffsetsNs(10, 20_001, shape, 7)));
      expect(mean / 1e9).toBeCloseTo(0.1, 2);
      // A gamma of shape k has a coefficient of variation of 1/√k.
      expect(cv).toBeCloseTo(1 / Math.sqrt(shape), 1);
    }
    expect(gammaOffsetsNs(10, 50, 0.5, 7)).toEqual(gammaOffsetsNs(10, 50, 0.5, 7));
    expect(gammaOffsetsNs(10, 50, 0.5, 8)).not.toEqual(gammaOffsetsNs(10, 50, 0.5, 7));
  });

  it("is the rate arrival's plan for process poisson with a burstiness, labelled with it; constant gaps take none", () => {
    const ops = arrivalOps({ kind: 'rate', process: 'poisson', burstiness: 0.5, seed: 3, maxConcurrency: null });
    expect(ops.plan(10, 5)).toEqual({ kind: 'open', offsetsNs: gammaOffsetsNs(10, 5, 0.5, 3), maxInFlight: 1024 });
    expect(ops.label(10)).toBe('10 req/s poisson, burstiness 0.5 (seed 3)');
    expect(arrivalSchema.safeParse({ kind: 'rate', process: 'constant', burstiness: 2 }).error?.issues[0]?.path).toEqual(['burstiness']);
  });
});
