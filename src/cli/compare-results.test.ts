import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../test-support/receipt-fixture.js';
import { renderComparison } from './compare-results.js';

describe('renderComparison', () => {
  const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
  const a = resultOf(contract(), [level({ c: 1, ...spec }), level({ c: 2, ...spec, tokS: 180 })]);
  const b = resultOf(contract(), [level({ c: 1, ...spec, tokS: 120 }), level({ c: 2, ...spec, tokS: 360, failed: 3 })]);
  const lines = renderComparison(a, b, ['a', 'b']).split('\n');
  const row = (lvl: number) => lines.find((l) => new RegExp(`^\\s*${lvl}\\s`).test(l)) ?? '';

  it('has a Failed column', () => {
    expect(lines.some((l) => /Failed/.test(l))).toBe(true);
    expect(row(1)).toMatch(/0 \/ 0/);
  });

  it('marks an invalid level and shows no change for it', () => {
    expect(row(2)).toMatch(/0 \/ 3 \(invalid: 3 failed\)/);
    expect(row(2)).toMatch(/180\.0 → 360\.0 \(—, invalid level\)/);
    expect(row(2)).not.toMatch(/\+100\.0%/);
  });

  it('still shows the change for valid levels', () => {
    expect(row(1)).toMatch(/100\.0 → 120\.0 \(\+20\.0%\)/);
    expect(row(1)).not.toMatch(/invalid/);
  });
});
