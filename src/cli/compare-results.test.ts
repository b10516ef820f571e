import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../test-support/receipt-fixture.js';
import { renderComparison } from './compare-results.js';

describe('renderComparison (goodput rerun, goodput compare)', () => {
  const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
  const a = resultOf(contract(), [level({ c: 1, ...spec }), level({ c: 2, ...spec, tokS: 180 })]);
  const b = resultOf(contract(), [level({ c: 1, ...spec, tokS: 120 }), level({ c: 2, ...spec, tokS: 360, failed: 3 })]);
  const text = renderComparison(a, b, ['a', 'b']);
  const lines = text.split('\n');

  it('lists the contract first, then one aligned table with a column group per run and a Failed column', () => {
    expect(lines[0]).toBe('Comparing a (baseline), b');
    expect(text.indexOf('Same contract')).toBeLessThan(text.indexOf('Concurrency'));
    const header = lines.find((l) => l.startsWith('Concurrency')) ?? '';
    expect(header).toMatch(/a \(baseline\): Throughput tok\/s \(tokens ÷ duration\).*Failed \(count\).*b: Throughput/);
    expect(lines.find((l) => /^2\s/.test(l))).toMatch(/180\.0 .*360\.0 .*invalid: 3 of \d+ failed/);
  });

  it('gives no difference for an invalid level', () => {
    expect(lines.filter((l) => l.startsWith('  concurrency 2,')).every((l) => l.endsWith('not compared: a level is invalid'))).toBe(true);
  });

  it('words a valid level\'s difference with the one rule: no records, so no direction is established', () => {
    // These results kept no request records: the change is shown, but never called better.
    expect(lines.find((l) => l.startsWith('  concurrency 1, Throughput'))).toBe('  concurrency 1, Throughput tok/s (tokens ÷ duration): +20.0 tok/s (+20 %): no difference established (no request records kept in a and b, so no interval)');
    expect(lines.filter((l) => l.startsWith('  concurrency')).some((l) => /: (better|worse)$/.test(l))).toBe(false);
  });
});
