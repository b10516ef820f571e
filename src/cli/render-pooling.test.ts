import { describe, expect, it } from 'vitest';
import { type PoolingResult, poolingLevel, poolingPeak } from '../core/index.js';
import { renderPoolingResult } from './render-pooling.js';

const rec = (seq: number, endMs: number) => ({ seq, concurrency: 1, warmup: false, sentNs: 0, endNs: endMs * 1e6, items: 4, inputTokens: 64, dimension: 32, outcome: { kind: 'ok' as const } });
const load = (p99: number) => ({ loopDelayMs: { p50: 1, p99, max: p99 }, clientCpuPct: null, budgetMs: 10 });
const result = (levels: PoolingResult['levels'], stopReason: string | null = null): PoolingResult => ({
  schemaVersion: 1, warnings: [], levels, peak: poolingPeak(levels), capacity: null,
  run: {
    url: 'http://127.0.0.1:1', model: 'm', endpoint: 'embeddings', path: '/v1/embeddings', engine: { name: 'x', version: null, dialect: 'goodput', detection: 'detected' },
    itemsPerRequest: 4, itemTokens: 16, queryTokens: null, tokenizer: { exact: true, label: 'server' }, levelsRequested: [1, 2], requestsPerLevel: 2, warmupPerLevel: 0,
    hourlyCostUsd: null, seed: 1, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', status: stopReason === null ? 'complete' : 'server-failed', stopReason,
    command: 'goodput sweep', toolVersion: '0', latencySlo: null,
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

  it('says plainly that no level finished, never a header alone', () => {
    const text = renderPoolingResult(result([], 'the server stopped answering during the concurrency-1 level: ECONNREFUSED. 0 level(s) complete'), false);
    expect(text).toContain('No level finished: nothing was measured.');
    expect(text).not.toMatch(/Concurrency +Requests\/s/);
    expect(text).toMatch(/the server stopped answering during the concurrency-1 level/);
  });
});
