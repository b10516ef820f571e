// A receipt's change and its interval come from one estimator (core's
// difference over the means of all runs): over random run sets the change
// stated lies inside its own interval and is the change of the means, a cost
// never falls by more than 100 %, and the figures shown beside a change carry
// enough digits for a reader to see it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanStatistic } from '../core/index.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { buildReceipt } from './build-receipt.js';
import type { Fact } from './fact.js';
import type { Receipt } from './receipt-schema.js';
import { receiptView } from './receipt-view.js';
import { digitsShowingChange } from './view-number.js';

const built = buildReceipt({
  ...evidencePair({ baseline: { repeats: 3, spread: 0.02 }, optimized: { repeats: 3, spread: 0.02 } }),
  quality: null,
  method: 'FP8 dynamic quantization',
  generator: '0.1.0',
});
if (!built.ok) throw new Error(built.problems.join('; '));
const receipt: Receipt = built.receipt;

/** The receipt with each fact-table figure's runs replaced (run 1 is the figure shown). */
function withRuns(runs: Record<string, number[]>): Receipt {
  const facts = receipt.facts.map((f): Fact => {
    const r = runs[f.id];
    return r === undefined ? f : { ...f, value: r[0] as number, runs: r };
  });
  return { ...receipt, facts };
}

const positive = fc.double({ min: 1e-3, max: 1e3, noNaN: true, noDefaultInfinity: true });
const runSet = fc.array(positive, { minLength: 1, maxLength: 6 });
const FIGURES = ['peakThroughput', 'singleStream', 'ttftSingle', 'costPer1M'] as const;

describe("a receipt's change and its interval", () => {
  it('over random run sets: the change is of the means of all runs, inside its own interval, and never below −100 %', () => {
    const sides = fc.record(
      Object.fromEntries(
        FIGURES.flatMap((k) => [
          [`baseline.${k}`, runSet],
          [`optimized.${k}`, runSet],
        ]),
      ) as Record<string, typeof runSet>,
    );
    fc.assert(
      fc.property(sides, (runs) => {
        const v = receiptView(withRuns(runs));
        for (const key of FIGURES) {
          const row = v.rows.find((x) => x.optimized.id.endsWith(`/optimized.${key}`));
          const c = row?.change;
          expect(c, key).toBeDefined();
          const [b, o] = [runs[`baseline.${key}`] as number[], runs[`optimized.${key}`] as number[]];
          const pct = ((meanStatistic(o) as number) / (meanStatistic(b) as number) - 1) * 100;
          expect(c?.value).toBeCloseTo(pct, 6);
          expect(c?.value as number).toBeGreaterThanOrEqual(-100);
          if (b.length >= 3 && o.length >= 3) {
            expect(c?.interval, key).toBeDefined();
            expect(c?.interval?.low).toBeLessThanOrEqual(c?.value as number);
            expect(c?.interval?.high).toBeGreaterThanOrEqual(c?.value as number);
            expect(c?.interval?.low).toBeGreaterThanOrEqual(-100);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("the issue's receipt: a first run far from the others no longer puts the change outside its interval, and a cost cannot fall by 175 %", () => {
    // Peak throughput: run 1 of the baseline fast, the others slow; cost per 1M follows it.
    const v = receiptView(
      withRuns({
        'baseline.peakThroughput': [300, 100, 110],
        'optimized.peakThroughput': [903, 880, 910],
        'baseline.costPer1M': [1.85, 5.56, 5.05],
        'optimized.costPer1M': [0.615, 0.631, 0.61],
      }),
    );
    for (const key of ['peakThroughput', 'costPer1M']) {
      const c = v.rows.find((x) => x.optimized.id.endsWith(`/optimized.${key}`))?.change;
      expect(c?.interval?.low, key).toBeLessThanOrEqual(c?.value as number);
      expect(c?.interval?.high, key).toBeGreaterThanOrEqual(c?.value as number);
      expect(c?.interval?.low, key).toBeGreaterThan(-100);
    }
    expect(v.rows.find((x) => x.label === 'Peak throughput')?.change?.text).toBe('+428 %');
  });

  it('shows the figures beside a change with the digits that let a reader see it', () => {
    expect(digitsShowingChange(0.0253, 0.0235, 2)).toBe(4);
    expect(digitsShowingChange(235.1, 434.6, 1)).toBe(1);
    const one = (f: Fact): Fact => ({ ...f, runs: undefined });
    const costs = {
      ...receipt,
      facts: receipt.facts.map((f) =>
        f.id === 'baseline.costPer1M' ? { ...one(f), value: 0.0253 } : f.id === 'optimized.costPer1M' ? { ...one(f), value: 0.0235 } : one(f),
      ),
    };
    const row = receiptView(costs).rows.find((x) => x.label === 'Cost per 1M output tokens');
    expect([row?.baseline.text, row?.optimized.text, row?.change?.text]).toEqual(['0.0253', '0.0235', '−7.1 %']);
  });
});
