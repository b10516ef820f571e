/**
 * The reproduce rule, claim by claim: the median of the reproduced runs holds
 * within the published runs' range (the figure alone for one run) widened by
 * 20 % of the figure or, for durations, at least 2 ms; a figure the
 * reproduction does not record does not hold; recorded inputs and unrecorded
 * numbers are no claims; per-level curve points are, reported level by level.
 */
import { describe, expect, it } from 'vitest';
import type { Fact } from './fact.js';
import { REPRODUCE_TOLERANCE, levelVerdicts, reproduceClaims, withLevelRuns } from './reproduce-claims.js';
import type { Receipt } from './receipt-schema.js';

const fact = (id: string, value: number | null, over: Partial<Fact> = {}): Fact => ({
  id,
  metric: id.split('.')[1] ?? id,
  label: id,
  value,
  unit: 'tok/s',
  statistic: 'peak over the valid levels tested',
  provenance: value === null ? 'not recorded' : 'measured',
  configuration: id.startsWith('baseline') ? 'baseline' : 'optimized',
  digits: 1,
  ...over,
});
const receipt = (facts: Fact[]) => ({ facts }) as unknown as Receipt;
const check = (published: Fact, reproduced: Fact | null) => reproduceClaims(receipt([published]), receipt(reproduced === null ? [] : [reproduced]))[0];

describe('reproduceClaims', () => {
  it('holds within 20 % of the figure, and not past it', () => {
    expect(REPRODUCE_TOLERANCE.relative).toBe(0.2);
    expect(check(fact('optimized.peak', 100), fact('optimized.peak', 119))).toMatchObject({
      holds: true,
      low: 80,
      high: 120,
      why: 'within ± 20 % of the figure',
    });
    expect(check(fact('optimized.peak', 100), fact('optimized.peak', 121))).toMatchObject({
      holds: false,
      reproduced: 121,
      why: 'beyond ± 20 % of the figure',
    });
    expect(check(fact('optimized.peak', 100), fact('optimized.peak', 79))?.holds).toBe(false);
  });

  it("widens the published runs' range, and reads the reproduced runs by their median", () => {
    const wide = fact('optimized.peak', 100, { runs: [100, 70, 140] });
    expect(check(wide, fact('optimized.peak', 159))).toMatchObject({
      holds: true,
      low: 50,
      high: 160,
      why: "within the published runs' range ± 20 % of the figure",
    });
    expect(check(wide, fact('optimized.peak', 161))?.holds).toBe(false);
    // One disturbed run of three does not move the median.
    const again = fact('optimized.peak', 30, { runs: [30, 101, 99] });
    expect(check(fact('optimized.peak', 100), again)).toMatchObject({ holds: true, reproduced: 99, why: 'within ± 20 % of the figure' });
    expect(check(fact('optimized.peak', 100), fact('optimized.peak', 100, { runs: [100, 50, 60] }))).toMatchObject({ holds: false, reproduced: 60 });
  });

  it('gives a duration at least 2 ms either way', () => {
    const ttft = (v: number) => fact('optimized.ttftSingle', v, { unit: 'ms' });
    expect(check(ttft(5), ttft(6.9))).toMatchObject({ holds: true, low: 3, high: 7, why: 'within ± 2 ms' });
    expect(check(ttft(5), ttft(7.1))?.holds).toBe(false);
    // Never below zero: a 1 ms figure holds down to 0, not to −1.
    expect(check(ttft(1), ttft(0))).toMatchObject({ holds: true, low: 0, high: 3 });
    // Not a duration: no such floor.
    expect(check(fact('optimized.failedTotal', 0, { unit: 'requests' }), fact('optimized.failedTotal', 1, { unit: 'requests' }))?.holds).toBe(false);
    expect(check(fact('optimized.failedTotal', 0, { unit: 'requests' }), fact('optimized.failedTotal', 0, { unit: 'requests' }))?.holds).toBe(true);
  });

  it('allows a quality score 20 % of its distance from a perfect score, at least 0.01, not 20 % of itself', () => {
    const score = (v: number) => fact('optimized.quality', v, { metric: 'quality', unit: 'score (0–1)', provenance: 'derived' });
    expect(check(score(0.99), score(0.981))).toMatchObject({ holds: true, why: 'within ± 20 % of the distance from a perfect score, at least 0.01' });
    expect(check(score(0.99), score(0.97))?.holds).toBe(false);
    expect(check(score(0.8), score(0.77))).toMatchObject({ holds: true });
    expect(check(score(0.8), score(0.75))?.holds).toBe(false);
  });

  it('does not hold where the reproduction records no value, saying why', () => {
    expect(check(fact('optimized.quality', 0.99), null)).toMatchObject({ holds: false, reproduced: null, why: 'the reproduction records no value' });
    const missing = fact('optimized.quality', null, { note: 'no score was measured' });
    expect(check(fact('optimized.quality', 0.99), missing)).toMatchObject({ holds: false, why: 'the reproduction records no value (no score was measured)' });
  });

  it('checks measured and derived figures: a recorded input or an unrecorded number is no claim; a curve point is one, of its level', () => {
    const claims = reproduceClaims(
      receipt([
        fact('optimized.c2.throughput', 180),
        fact('optimized.hourlyRate', 2.5, { provenance: 'recorded' }),
        fact('optimized.goodput', null),
        fact('optimized.costPer1M', 1.2, { provenance: 'derived' }),
      ]),
      receipt([fact('optimized.hourlyRate', 9), fact('optimized.c2.throughput', 150), fact('optimized.costPer1M', 1.2, { provenance: 'derived' })]),
    );
    expect(claims.map((c) => [c.id, c.level, c.holds])).toEqual([
      ['optimized.c2.throughput', 2, true],
      ['optimized.costPer1M', null, true],
    ]);
  });
});

describe('per-level curve points', () => {
  const point = (id: string, value: number, runs?: number[]) => fact(id, value, { unit: 'ms', ...(runs ? { runs } : {}) });

  it("take the published runs' range from the evidence rebuilt, since the receipt states run 1's figure alone", () => {
    const published = receipt([point('baseline.c4.ttftP50', 100), fact('baseline.peak', 50, { runs: [50, 52, 48] })]);
    const rebuilt = receipt([point('baseline.c4.ttftP50', 100, [100, 60, 140]), fact('baseline.peak', 50, { runs: [50, 52, 48] })]);
    const read = withLevelRuns(published, rebuilt);
    expect(read.facts[0]?.runs).toEqual([100, 60, 140]);
    // A rebuilt point whose run 1 is not the published figure lends it nothing.
    expect(withLevelRuns(published, receipt([point('baseline.c4.ttftP50', 99, [99, 1, 2])])).facts[0]?.runs).toBeUndefined();
    const again = receipt([point('baseline.c4.ttftP50', 160, [160, 165, 300])]);
    expect(reproduceClaims(read, again)[0]).toMatchObject({ low: 40, high: 160, reproduced: 165, holds: false });
    expect(reproduceClaims(read, receipt([point('baseline.c4.ttftP50', 30, [30, 150, 159])]))[0]).toMatchObject({ reproduced: 150, holds: true });
  });

  it('are reported level by level, naming the points that do not hold', () => {
    const claims = reproduceClaims(
      receipt([point('optimized.c1.ttftP50', 10), point('optimized.c1.tpotP50', 5), point('optimized.c8.ttftP50', 40), fact('optimized.peak', 100)]),
      receipt([point('optimized.c1.ttftP50', 11), point('optimized.c1.tpotP50', 5), point('optimized.c8.ttftP50', 90), fact('optimized.peak', 100)]),
    );
    expect(levelVerdicts(claims)).toEqual([
      { configuration: 'optimized', concurrency: 1, claims: 2, failing: [] },
      { configuration: 'optimized', concurrency: 8, claims: 1, failing: ['optimized.c8.ttftP50'] },
    ]);
  });
});
