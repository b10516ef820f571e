/** Capacity from a run's levels, the replay's time series and its sparkline, on hand-made levels and records. */
import { describe, expect, it } from 'vitest';
import { level } from '../test-support/receipt-fixture.js';
import { rec } from '../test-support/records.js';
import type { LevelResult } from './result-schema.js';
import { capacityOfLevels, replaySeries, sparkline } from './utilisation.js';

const holding = (l: LevelResult, holds: boolean): LevelResult => ({ ...l, goodput: { holds } as LevelResult['goodput'] });

describe('capacity of a run', () => {
  it('is the highest throughput of a valid, not client-bound level holding every SLO', () => {
    const levels = [
      holding(level({ c: 1, tokS: 100, perReq: 100, ttft: [5, 6], tpot: 10, e2e: 500 }), true),
      holding(level({ c: 4, tokS: 380, perReq: 95, ttft: [5, 6], tpot: 10, e2e: 500 }), true),
      holding(level({ c: 8, tokS: 400, perReq: 50, ttft: [500, 600], tpot: 10, e2e: 990 }), false),
      {
        ...holding(level({ c: 16, tokS: 900, perReq: 50, ttft: [5, 6], tpot: 10, e2e: 500 }), true),
        clientBound: { ...level({ c: 16, tokS: 1, perReq: 1, ttft: [1, 1], tpot: 1, e2e: 1 }).clientBound, bound: true },
      },
    ];
    expect(capacityOfLevels(levels, true)).toEqual({ tokS: 380, level: '4 streams', basis: 'the highest output throughput of a level holding every SLO' });
    expect(capacityOfLevels(levels, false)).toMatchObject({ tokS: 400, basis: 'the peak output throughput (the capacity run sets no SLO)' });
    expect(capacityOfLevels(levels.slice(2, 3), true)).toEqual({ reason: 'no valid level of the capacity run held every SLO' });
  });
});

describe('the replay time series', () => {
  it('counts arrivals, in-flight requests, tokens per second and SLO attainment per bucket', () => {
    // Two requests: one 0–400 ms meeting the SLO (TTFT 100), one 500–1000 ms missing it (TTFT 400).
    const records = [rec({ sendMs: 0, chunksMs: [100, 200, 300, 400], endMs: 400 }), rec({ sendMs: 500, chunksMs: [900, 950, 1000], endMs: 1000 })];
    const s = replaySeries(records, { ttftMs: { p: 50, max: 200 } }, 2);
    expect(s.map((p) => p.arrivals)).toEqual([1, 1]);
    expect(s.map((p) => p.inFlight)).toEqual([1, 1]);
    // 4 tokens in the first 500 ms, 3 in the second: per second.
    expect(s.map((p) => p.tokS)).toEqual([8, 6]);
    expect(s.map((p) => p.attainment)).toEqual([1, 0]);
    expect(replaySeries(records, null, 2).map((p) => p.attainment)).toEqual([null, null]);
    expect(replaySeries([], null)).toEqual([]);
  });

  it('draws a sparkline scaled to its max, a blank for no value', () => {
    expect(sparkline([0, 1, 2, 4, null])).toBe('▁▂▄█ ');
    expect(sparkline([0.5, 1], 1)).toBe('▄█');
    expect(sparkline([0, 0])).toBe('▁▁');
  });
});
