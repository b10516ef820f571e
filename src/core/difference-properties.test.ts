// Property tests of the one rule for a change and its interval, over random
// run sets: the change stated lies inside its own interval (in the figure's
// unit and as a share of the baseline), a ratio of positive figures (a cost)
// never falls by more than 100 %, and a direction is named only when both
// intervals exclude zero on its side.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Difference, difference, meanStatistic, percentileStatistic } from './difference.js';

/** Positive figures over six orders of magnitude (a cost of 0.0004 USD to a throughput of 400 tok/s). */
const positive = fc.double({ min: 1e-4, max: 1e3, noNaN: true, noDefaultInfinity: true });
const runSet = fc.array(positive, { minLength: 1, maxLength: 8 });
const direction = fc.constantFrom('higher' as const, 'lower' as const, null);

function holdsItsChange(d: Difference): void {
  expect(d.diff).not.toBeNull();
  if (d.lo !== null && d.hi !== null) {
    expect(d.lo).toBeLessThanOrEqual(d.diff as number);
    expect(d.hi).toBeGreaterThanOrEqual(d.diff as number);
  }
  if (d.pctLo !== null && d.pctHi !== null) {
    expect(d.pctLo).toBeLessThanOrEqual(d.pct as number);
    expect(d.pctHi).toBeGreaterThanOrEqual(d.pct as number);
    expect(d.pctLo).toBeGreaterThanOrEqual(-100);
  }
  expect(d.pct as number).toBeGreaterThanOrEqual(-100);
  if (d.verdict === 'better' || d.verdict === 'worse') {
    const up = (d.diff as number) > 0;
    expect(up ? (d.lo as number) > 0 && (d.pctLo as number) > 0 : (d.hi as number) < 0 && (d.pctHi as number) < 0).toBe(true);
  }
}

describe('a change and its interval, over random run sets', () => {
  it('means of all runs: the change lies inside its interval and a ratio never falls below −100 %', () => {
    fc.assert(
      fc.property(runSet, runSet, direction, (baseline, candidate, dir) => {
        const d = difference({ direction: dir, baseline, candidate, basis: 'runs', statistic: meanStatistic, digits: 4, resamples: 200 });
        holdsItsChange(d);
        // The change is of the means of every run, not of the first runs.
        expect(d.diff).toBeCloseTo((meanStatistic(candidate) as number) - (meanStatistic(baseline) as number), 6);
        if (baseline.length >= 3 && candidate.length >= 3) expect(d.pctLo).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('a cost that falls: the interval stays above −100 % however far apart the runs are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e3, noNaN: true }), { minLength: 3, maxLength: 6 }),
        fc.array(fc.double({ min: 1e-4, max: 1e-2, noNaN: true }), { minLength: 3, maxLength: 6 }),
        (baseline, candidate) => {
          const d = difference({ direction: 'lower', baseline, candidate, basis: 'runs', statistic: meanStatistic, digits: 4, resamples: 200 });
          holdsItsChange(d);
          expect(d.verdict).toBe('better');
          expect(d.pctLo as number).toBeGreaterThan(-100);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("figures shown apart from the samples' statistic (a trimmed summary): the interval is moved onto them and holds their change", () => {
    const records = fc.array(positive, { minLength: 2, maxLength: 40 });
    fc.assert(
      fc.property(records, records, positive, positive, direction, (baseline, candidate, x, y, dir) => {
        const d = difference({
          direction: dir,
          baseline,
          candidate,
          basis: 'requests',
          statistic: percentileStatistic(50),
          digits: 2,
          point: [x, y],
          resamples: 200,
        });
        holdsItsChange(d);
        expect(d.diff).toBe(y - x);
      }),
      { numRuns: 200 },
    );
  });
});
