import { describe, expect, it } from 'vitest';
import { costPer1MUsd } from './cost.js';
import { businessCost, costPer1MSuccessfulUsd, levelCost } from './cost-success.js';

const gpu = { name: 'H100 80GB', usdPerHour: 6.5, asOf: '2025-06-01' };
const base = {
  gpu,
  overheads: [],
  peakTokS: 1400,
  peakAsOf: 'concurrency 16, 2025-06-02',
  utilisation: 0.55,
  utilisationAsOf: '2025-06-01',
  successShare: 1,
  successAsOf: 'concurrency 16, 2025-06-02',
};

describe("cost per successful million output tokens (the issue's vectors)", () => {
  it('keeps the simple peak figure: $6.50/h at 1,400 tok/s → $1.29', () => {
    expect(costPer1MUsd(6.5, 1400).toFixed(2)).toBe('1.29');
  });
  it('55% utilisation: 770 tok/s effective → $2.34 per 1M output tokens', () => {
    const c = businessCost(base);
    expect(c.effectiveTokS).toBeCloseTo(770, 9);
    expect(c.costPer1MSuccessfulUsd?.toFixed(2)).toBe('2.34');
  });
  it('15% of requests miss the SLO → $2.76', () => {
    const c = businessCost({ ...base, successShare: 0.85 });
    expect(c.successfulTokS).toBeCloseTo(654.5, 9);
    expect(c.costPer1MSuccessfulUsd?.toFixed(2)).toBe('2.76');
  });
  it('named overhead lines add to the hourly cost: +$1.50/h → $3.40', () => {
    const overheads = [
      { name: 'CPU', usdPerHour: 0.3, asOf: '2025-06-01' },
      { name: 'storage', usdPerHour: 0.05, asOf: '2025-05-15' },
      { name: 'network', usdPerHour: 0.1, asOf: '2025-06-01' },
      { name: 'observability', usdPerHour: 0.05, asOf: '2025-06-01' },
      { name: 'warm headroom', usdPerHour: 1, asOf: '2025-06-01' },
    ];
    const c = businessCost({ ...base, overheads, successShare: 0.85 });
    expect(c.hourlyTotalUsd).toBeCloseTo(8, 9);
    // 8 / (1400 × 0.55 × 0.85 × 3600) × 1e6 = 3.3953
    expect(c.costPer1MSuccessfulUsd?.toFixed(2)).toBe('3.40');
  });
  it('prints every input with its date or its measurement', () => {
    const c = businessCost({ ...base, overheads: [{ name: 'CPU', usdPerHour: 0.3, asOf: '2025-05-30' }], successShare: 0.85 });
    expect(c.inputs).toEqual([
      { name: 'GPU: H100 80GB', value: 6.5, unit: '$/h', asOf: '2025-06-01' },
      { name: 'overhead: CPU', value: 0.3, unit: '$/h', asOf: '2025-05-30' },
      { name: 'peak throughput (measured)', value: 1400, unit: 'tok/s', asOf: 'concurrency 16, 2025-06-02' },
      { name: 'utilisation (declared)', value: 0.55, unit: 'share', asOf: '2025-06-01' },
      { name: 'success share (measured)', value: 0.85, unit: 'share', asOf: 'concurrency 16, 2025-06-02' },
    ]);
    expect(c.formula).toMatch(/utilisation × success share/);
  });
  it('no figure, with the reason, when nothing can be costed', () => {
    expect(businessCost({ ...base, peakTokS: null })).toMatchObject({ costPer1MSuccessfulUsd: null, reason: expect.stringMatching(/no valid level/) });
    expect(businessCost({ ...base, successShare: 0 })).toMatchObject({ costPer1MSuccessfulUsd: null, reason: expect.stringMatching(/no request met/) });
  });
  it('refuses nonsense inputs', () => {
    expect(() => costPer1MSuccessfulUsd(6.5, 1400, 0, 1)).toThrow(/utilisation/);
    expect(() => costPer1MSuccessfulUsd(6.5, 1400, 1.2, 1)).toThrow(/utilisation/);
    expect(() => costPer1MSuccessfulUsd(-1, 1400, 0.5, 1)).toThrow(/hourly/);
  });
});

describe('per-level figure', () => {
  it('is goodput-based and never bare on a level with failures', () => {
    // 6.5 / (770 × 0.55 × 3600) × 1e6 = 4.26
    expect(levelCost(6.5, 0.55, { level: 8, goodputTokS: 770, requests: 32, failed: 0 })).toEqual({
      level: 8,
      costPer1MSuccessfulUsd: expect.closeTo(4.2634, 3),
      note: null,
    });
    const failing = levelCost(6.5, 0.55, { level: 16, goodputTokS: 770, requests: 64, failed: 3 });
    expect(failing.note).toBe('3 of 64 requests failed; only tokens of requests that met every SLO are counted');
    expect(levelCost(6.5, 0.55, { level: 32, goodputTokS: 0, requests: 8, failed: 8 })).toMatchObject({
      costPer1MSuccessfulUsd: null,
      note: expect.stringMatching(/no request met every SLO/),
    });
  });
});
