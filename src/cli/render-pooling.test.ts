import { describe, expect, it } from 'vitest';
import { type PoolingLevel, type PoolingResult, poolingLevel, poolingPeak } from '../core/index.js';
import { poolingCharts } from '../web/index.js';
import { renderPoolingLevels, renderPoolingResult } from './pooling-view.js';

const rec = (seq: number, endMs: number) => ({
  seq,
  concurrency: 1,
  warmup: false,
  sentNs: 0,
  endNs: endMs * 1e6,
  items: 4,
  inputTokens: 64,
  dimension: 32,
  outcome: { kind: 'ok' as const },
});
const load = (p99: number) => ({ loopDelayMs: { p50: 1, p99, max: p99 }, clientCpuPct: null, budgetMs: 10 });
const result = (levels: PoolingResult['levels'], stopReason: string | null = null): PoolingResult => ({
  schemaVersion: 1,
  warnings: [],
  levels,
  peak: poolingPeak(levels),
  capacity: null,
  run: {
    url: 'http://127.0.0.1:1',
    model: 'm',
    endpoint: 'embeddings',
    path: '/v1/embeddings',
    engine: { name: 'x', version: null, dialect: 'goodput', detection: 'detected' },
    itemsPerRequest: 4,
    itemTokens: 16,
    queryTokens: null,
    tokenizer: { exact: true, label: 'server' },
    levelsRequested: [1, 2],
    requestsPerLevel: 2,
    warmupPerLevel: 0,
    hourlyCostUsd: null,
    seed: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    status: stopReason === null ? 'complete' : 'server-failed',
    stopReason,
    command: 'goodput sweep',
    toolVersion: '0',
    latencySlo: null,
  } as PoolingResult['run'],
});

describe('renderPoolingResult', () => {
  it('names a client-bound level and leaves it out of the peak', () => {
    const fine = poolingLevel(1, [rec(1, 1000), rec(2, 1000)], null, null, load(15));
    const bound = { ...poolingLevel(2, [rec(1, 40), rec(2, 40)], null, null, load(15)), concurrency: 2 };
    const text = renderPoolingResult(result([fine, bound]), false);
    expect(text).toMatch(/^concurrency 2: client-bound, no peak: the client's event loop was delayed 15\.0 ms \(p99\)/m);
    expect(text).toMatch(/Engine: peak [\d.]+ inputs\/s, \d+ input tok\/s at concurrency 1 \(levels without failures, not client-bound\)/);
    expect(renderPoolingResult(result([bound]), false)).toContain('Engine: no peak: no level counts (concurrency 2: client-bound)');
  });

  it("the chart's summary names the Engine card's peak: a faster client-bound level is ringed and left out", () => {
    const fine = poolingLevel(1, [rec(1, 1000), rec(2, 1000)], null, null, load(1));
    const bound = { ...poolingLevel(2, [rec(1, 40), rec(2, 40)], null, null, load(15)), concurrency: 2 };
    const [items] = poolingCharts([fine, bound], 'embeddings');
    expect(bound.itemsPerS as number).toBeGreaterThan(fine.itemsPerS as number);
    expect(items?.summary).toBe(
      `Inputs/s is ${(fine.itemsPerS as number).toFixed(1)} at concurrency 1 and peaks at ${(fine.itemsPerS as number).toFixed(1)} inputs/s at concurrency 1; client-bound levels are marked and left out of the peak.`,
    );
    expect(poolingPeak([fine, bound])?.concurrency).toBe(1);
  });

  it('says plainly that no level finished, never a header alone', () => {
    const text = renderPoolingResult(result([], 'the server stopped answering during the concurrency-1 level: ECONNREFUSED. 0 level(s) complete'), false);
    expect(text).toContain('No level finished: nothing was measured.');
    expect(text).not.toMatch(/Concurrency +Requests\/s/);
    expect(text).toMatch(/the server stopped answering during the concurrency-1 level/);
  });
});

// The embeddings table and the page's chart table: a level where every request failed shows no rate, says
// "all failed", and keeps its failure reason, even when a stored level (written before such levels had no rates) carries one.
const ok = poolingLevel(
  1,
  [{ seq: 0, concurrency: 1, warmup: false, sentNs: 0, endNs: 1e8, items: 2, inputTokens: 16, dimension: 64, outcome: { kind: 'ok' } }],
  null,
);
const refused: PoolingLevel = {
  concurrency: 2,
  requests: 8,
  failed: 8,
  durationS: 0.0093,
  requestsPerS: 858.8,
  itemsPerS: 0,
  inputTokensPerS: null,
  inputTokensPerRequest: null,
  latencyMs: null,
  dimension: null,
  costPerMInputTokensUsd: null,
  failures: [{ reason: "HTTP 400: Pooling type 'none' is not OAI compatible", count: 8 }],
  slo: null,
};

describe('levels where every request failed', () => {
  it('the terminal table shows dashes and "all failed" where the stored level says 858.8 requests/s', () => {
    const lines = renderPoolingLevels([ok, refused], { endpoint: 'embeddings', hourlyCostUsd: null, latencySlo: null }, false);
    const row = lines[2] as string;
    expect(row).not.toContain('858.8');
    expect(row.trim().split(/\s{2,}/)).toEqual(['2', '—', '—', '—', '—', '—', '—', '—', '8/8 all failed']);
    expect(lines[1]).toMatch(/^\s*1\s+10\.0\s+20\.0\s+160\s/);
    expect(lines).toContain("concurrency 2: 8 failed: HTTP 400: Pooling type 'none' is not OAI compatible");
  });

  it("the page's chart table and summary give it no rate", () => {
    const [items] = poolingCharts([refused, ok], 'embeddings');
    expect(items?.table?.rows).toEqual([
      ['1', '20.0', '160'],
      ['2', '— (all failed)', '— (all failed)'],
    ]);
    expect(poolingCharts([refused], 'embeddings')[0]?.summary).toMatch(/^Inputs\/s is — at concurrency 2 and no level counts toward a peak/);
  });
});
