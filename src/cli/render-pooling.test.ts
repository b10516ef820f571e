// The embeddings table and the page's chart table: a level where every request failed shows no rate, says
// "all failed", and keeps its failure reason, even when a stored level (written before such levels had no rates) carries one.
import { describe, expect, it } from 'vitest';
import { type PoolingLevel, poolingLevel } from '../core/index.js';
import { poolingCharts } from '../web/index.js';
import { renderPoolingLevels } from './render-pooling.js';

const ok = poolingLevel(1, [{ seq: 0, concurrency: 1, warmup: false, sentNs: 0, endNs: 1e8, items: 2, inputTokens: 16, dimension: 64, outcome: { kind: 'ok' } }], null);
const refused: PoolingLevel = {
  concurrency: 2, requests: 8, failed: 8, durationS: 0.0093, requestsPerS: 858.8, itemsPerS: 0, inputTokensPerS: null, inputTokensPerRequest: null, latencyMs: null,
  dimension: null, costPerMInputTokensUsd: null, failures: [{ reason: "HTTP 400: Pooling type 'none' is not OAI compatible", count: 8 }], slo: null,
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
    expect(items?.table?.rows).toEqual([['1', '20.0', '160'], ['2', '— (all failed)', '— (all failed)']]);
    expect(poolingCharts([refused], 'embeddings')[0]?.summary).toMatch(/^Inputs\/s is — at concurrency 2 and no level is without failed requests/);
  });
});
