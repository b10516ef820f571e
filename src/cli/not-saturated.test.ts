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
    concurrency, records: [rec({ chunksMs: [10, 20, 30, 40], endMs: 41 })], targetOutputTokens: 4, forceLength: true,
    loopDelayMs: null, clientCpuPct: null, clientBudgetMs: 10, gpu: { available: false, source: 'not available', reason: 'none' },
  });
  return { ...s, throughputTokS: tokS };
}
const cardsOf = (levels: LevelResult[]) => buildCards({ levels, hourlyCostUsd: null, baselineRateUsdPer1M: null, gpuLabel: null });

describe('not saturated', () => {
  it('the curve still rising 86 % at the highest level: card, CLI and page say so', () => {
    const cards = cardsOf([level(1, 50), level(2, 100), level(4, 186)]);
    expect(cards.engine.notSaturated).toBe('not saturated: the highest level tested (concurrency 4) gives the peak, 86 % above concurrency 2');
    expect(renderCards(cards)).toContain('peak 186.0 tok/s at concurrency 4 (not saturated: the highest level tested (concurrency 4) gives the peak, 86 % above concurrency 2: the peak is a floor)');
    const engine = cardViews(cards).find((c) => c.title === 'Engine');
    expect(engine?.facts).toContainEqual({ label: 'Not saturated', value: 'the peak is a floor', note: cards.engine.notSaturated });
  });
  it('a curve that flattened, or peaked below the top, is not called unsaturated', () => {
    expect(cardsOf([level(1, 50), level(2, 100), level(4, 103)]).engine.notSaturated).toBeNull();
    expect(renderCards(cardsOf([level(1, 50), level(2, 100), level(4, 103)]))).not.toContain('not saturated');
    expect(cardsOf([level(1, 50), level(2, 120), level(4, 100)]).engine.notSaturated).toBeNull();
  });
});
