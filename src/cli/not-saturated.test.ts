/**
 * "Not saturated" is said wherever receipts say it: when the highest level
 * tested gives the peak and throughput still rose by more than 5 %, the engine
 * card carries the reason, the CLI's Engine line says so, and the page's card has it.
 */
import { describe, expect, it } from 'vitest';
import { type LevelResult, buildCards, summarizeLevel } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { cardViews } from '../web/index.js';
import { renderCards } from './render-table.js';

function level(concurrency: number, tokS: number): LevelResult {
  const s = summarizeLevel({
    concurrency,
    records: [rec({ chunksMs: [10, 20, 30, 40], endMs: 41 })],
    targetOutputTokens: 4,
    forceLength: true,
    loopDelayMs: null,
    clientCpuPct: null,
    clientBudgetMs: 10,
    gpu: { available: false, source: 'not available', reason: 'none' },
  });
  return { ...s, throughputTokS: tokS };
}
const cardsOf = (levels: LevelResult[]) => buildCards({ levels, hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });

describe('not saturated', () => {
  it('the curve still rising 86 % at the highest level: card, CLI and page say so', () => {
    const cards = cardsOf([level(1, 50), level(2, 100), level(4, 186)]);
    expect(cards.engine.notSaturated).toBe('not saturated: the highest level tested (concurrency 4) gives the peak, 86 % above concurrency 2');
    expect(renderCards(cards)).toContain(
      'peak 186.0 tok/s at concurrency 4 (not saturated: the highest level tested (concurrency 4) gives the peak, 86 % above concurrency 2: the peak is a floor)',
    );
    const engine = cardViews(cards).find((c) => c.title === 'Engine');
    expect(engine?.facts).toContainEqual({ label: 'Not saturated', value: 'the peak is a floor', note: cards.engine.notSaturated });
  });
  it('a curve that flattened, or peaked below the top, is not called unsaturated', () => {
    expect(cardsOf([level(1, 50), level(2, 100), level(4, 103)]).engine.notSaturated).toBeNull();
    expect(renderCards(cardsOf([level(1, 50), level(2, 100), level(4, 103)]))).not.toContain('not saturated');
    expect(cardsOf([level(1, 50), level(2, 120), level(4, 100)]).engine.notSaturated).toBeNull();
  });
});

describe('the Engine card of an open loop names its levels on their own axis', () => {
  // Three replay speeds whose peak in flight was 2 at each: by concurrency they are one level.
  const speed = (x: number, tokS: number): LevelResult => ({
    ...level(2, tokS),
    load: { kind: 'trace', level: x, label: `trace at ${x}×`, offeredRps: null, achievedRps: null, peakInFlight: 2, waitedForSlot: 0, scheduleLagMs: null },
  });
  it('peak at a speed, the curve by speed, the saturation check by speed: card, CLI and page', () => {
    const cards = cardsOf([speed(1, 50), speed(2, 100), speed(4, 186)]);
    expect(cards.engine).toMatchObject({ axis: 'Speed', peakAt: 'speed 4×', peakConcurrency: 2 });
    expect(cards.engine.curve.map((p) => p.level)).toEqual(['1×', '2×', '4×']);
    expect(cards.engine.notSaturated).toBe('not saturated: the highest level tested (speed 4×) gives the peak, 86 % above speed 2×');
    const line = renderCards(cards);
    expect(line).toContain('peak 186.0 tok/s at speed 4× (not saturated');
    expect(line).toContain('curve 1×→50 2×→100 4×→186');
    expect(line.split('\n').find((l) => l.startsWith('Engine'))).not.toContain('concurrency');
    const engine = cardViews(cards).find((c) => c.title === 'Engine');
    expect(engine?.question).toBe('the serving stack, as speed rises');
    expect(engine?.facts).toContainEqual({ label: 'Peak at', value: 'speed 4×', note: 'measured · 2 in flight at most' });
    expect(engine?.facts).toContainEqual({ label: 'Scaling curve', value: '1×→50, 2×→100, 4×→186', note: 'throughput tok/s by speed · measured' });
  });
  it("a closed loop's card is as before: no axis, no level labels", () => {
    const e = cardsOf([level(1, 50), level(2, 100)]).engine;
    expect(e).not.toHaveProperty('axis');
    expect(e).not.toHaveProperty('peakAt');
    expect(e.curve[0]).not.toHaveProperty('level');
  });
});
