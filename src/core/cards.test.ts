import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { buildCards } from './cards.js';
import { costPer1MUsd, savingPct } from './cost.js';
import { summarizeLevel } from './level-summary.js';
import type { LevelResult } from './result-schema.js';

function level(concurrency: number, tokS: number, over: Partial<LevelResult> = {}): LevelResult {
  const s = summarizeLevel({
    concurrency,
    records: [rec({ chunksMs: [10, 20, 30, 40], endMs: 41 })],
    targetOutputTokens: 4,
    forceLength: true,
    loopDelayMs: null,
    clientCpuPct: null,
    clientBudgetMs: 10,
    gpu: { available: true, source: 'nvidia-smi', gpu: 'H100', totalMiB: 81559, peak: 70000 + concurrency, mean: 60000, samples: 5 },
  });
  return { ...s, throughputTokS: tokS, ...over };
}

describe('cost', () => {
  it('$6.50/h at 1,400 tok/s is $1.29 per 1M output tokens; 35.5% below a $2.00 baseline', () => {
    const cost = costPer1MUsd(6.5, 1400);
    expect(cost.toFixed(2)).toBe('1.29');
    expect(savingPct(cost, 2).toFixed(1)).toBe('35.5');
  });
  it('refuses nonsense inputs rather than printing a figure', () => {
    expect(() => costPer1MUsd(-1, 100)).toThrow(/hourly cost/);
    expect(() => costPer1MUsd(1, 0)).toThrow(/throughput/);
  });
});

describe('cards', () => {
  const levels = [level(1, 40), level(4, 150), level(8, 900, { invalid: true, invalidReason: '1 of 8 requests failed (1 timeout)' }), level(16, 1400)];

  it('Engine: the peak skips invalid levels and says why', () => {
    const { engine } = buildCards({ levels, hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });
    expect(engine.peakThroughputTokS).toBe(1400);
    expect(engine.peakConcurrency).toBe(16);
    expect(engine.excluded).toEqual([{ concurrency: 8, reason: 'invalid: 1 of 8 requests failed (1 timeout)' }]);
    expect(engine.curve.map((p) => p.concurrency)).toEqual([1, 4, 8, 16]);
  });
  it('Model: a client-bound concurrency-1 level keeps its card, its figures flagged with the reason', () => {
    const bound = {
      bound: true,
      reason: "the client's event loop was delayed 10.7 ms (p99); budget 10 ms",
      sendLagMs: null,
      loopDelayMs: null,
      budgetMs: 10,
      clientCpuPct: null,
      rampMs: null,
    };
    const { model } = buildCards({ levels: [level(1, 40, { clientBound: bound })], hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });
    expect(model).toMatchObject({ available: true, concurrency: 1, clientBound: "the client's event loop was delayed 10.7 ms (p99); budget 10 ms" });
    const { model: trusted } = buildCards({ levels: [level(1, 40)], hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });
    expect(trusted.available && 'clientBound' in trusted).toBe(false);
  });
  it('Platform: no hourly cost, no cost figure', () => {
    const { platform } = buildCards({ levels, hourlyCostUsd: null, baselineRateUsdPer1M: 2, gpuLabel: null });
    expect(platform.costPer1MOutputTokensUsd).toBeNull();
    expect(platform.savingPct).toBeNull();
    expect(platform.basis).toMatch(/No hourly cost/);
  });
  it('Platform: cost at the peak, saving against the baseline, memory of the peak level', () => {
    const { platform } = buildCards({ levels, hourlyCostUsd: 6.5, baselineRateUsdPer1M: 2, gpuLabel: null });
    expect(platform.costPer1MOutputTokensUsd?.toFixed(2)).toBe('1.29');
    expect(platform.savingPct?.toFixed(1)).toBe('35.5');
    expect(platform.gpu).toBe('H100');
    expect(platform.gpuMemMiBPeak).toBe(70016);
    expect(platform.basis).toMatch(/output tokens only/);
  });
  it('Model: taken at concurrency 1, or stated as missing', () => {
    const { model } = buildCards({ levels, hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });
    expect(model).toMatchObject({ available: true, concurrency: 1, ttftMsP50: 10, tpotMsP50: 10 });
    const missing = buildCards({ levels: levels.slice(1), hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });
    expect(missing.model).toEqual({ available: false, reason: 'no concurrency-1 level was measured' });
  });
});
