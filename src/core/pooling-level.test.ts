import { describe, expect, it } from 'vitest';
import { allFailed, poolingLevel } from './pooling-level.js';
import type { PoolingRecord } from './pooling-record.js';
import { poolingCapacity, poolingLevelSchema, poolingPeak } from './pooling-schema.js';
import { poolingCards } from './pooling-cards.js';

const ms = 1e6;
const rec = (seq: number, sentMs: number, endMs: number, over: Partial<PoolingRecord> = {}): PoolingRecord => ({
  seq,
  concurrency: 2,
  warmup: false,
  sentNs: sentMs * ms,
  endNs: endMs * ms,
  items: 16,
  inputTokens: 2048,
  dimension: 384,
  outcome: { kind: 'ok' },
  ...over,
});

describe('poolingLevel', () => {
  it('computes rates over first send to last end, and latency percentiles, ignoring warm-ups', () => {
    const records = [rec(0, -500, -400, { warmup: true }), rec(1, 0, 100), rec(2, 0, 200), rec(3, 100, 300), rec(4, 200, 400)];
    const l = poolingLevel(2, records, 3.6);
    expect(l.durationS).toBe(0.4);
    expect(l.requestsPerS).toBe(10);
    expect(l.itemsPerS).toBe(160);
    expect(l.inputTokensPerS).toBe(20480);
    expect(l.inputTokensPerRequest).toBe(2048);
    expect(l.latencyMs?.p50).toBe(200);
    expect(l.latencyMs?.mean).toBe(175);
    expect(l.dimension).toBe(384);
    // $3.60 an hour over 20,480 tok/s × 3600 s = 73,728,000 tokens an hour.
    expect(l.costPerMInputTokensUsd).toBeCloseTo(3.6 / 73.728, 10);
    expect(l.failed).toBe(0);
  });

  it('counts failures by reason, leaves their items and tokens out, and has no token rate when a success reported no usage', () => {
    const records = [
      rec(1, 0, 100),
      rec(2, 0, 100, { outcome: { kind: 'bad-answer', message: '15 vectors came back for 16 inputs' }, dimension: null, inputTokens: null }),
      rec(3, 0, 100, { outcome: { kind: 'bad-answer', message: '15 vectors came back for 16 inputs' }, dimension: null, inputTokens: null }),
      rec(4, 0, 200, { outcome: { kind: 'http-error', status: 500, message: 'boom' } }),
    ];
    const l = poolingLevel(2, records, null);
    expect(l.failed).toBe(3);
    expect(l.itemsPerS).toBe(80);
    expect(l.failures).toEqual([
      { reason: '15 vectors came back for 16 inputs', count: 2 },
      { reason: 'HTTP 500: boom', count: 1 },
    ]);
    expect(l.costPerMInputTokensUsd).toBeNull();
    const noUsage = poolingLevel(1, [rec(1, 0, 100), rec(2, 100, 200, { inputTokens: null })], 1);
    expect(noUsage.inputTokensPerS).toBeNull();
    expect(noUsage.costPerMInputTokensUsd).toBeNull();
  });

  it('has no rates where every request failed (a refusal per request is not a request served): only its failures', () => {
    const refused = { kind: 'http-error' as const, status: 400, message: "Pooling type 'none' is not OAI compatible" };
    const l = poolingLevel(2, [rec(1, 0, 1, { outcome: refused }), rec(2, 0, 2, { outcome: refused })], 3.6);
    expect(l).toMatchObject({
      requests: 2,
      failed: 2,
      requestsPerS: null,
      itemsPerS: null,
      inputTokensPerS: null,
      costPerMInputTokensUsd: null,
      latencyMs: null,
    });
    expect(l.failures).toEqual([{ reason: "HTTP 400: Pooling type 'none' is not OAI compatible", count: 2 }]);
    expect(allFailed(l)).toBe(true);
    expect(allFailed(poolingLevel(1, [], null))).toBe(false);
  });

  it('has no figures without measured requests, and a peak only from levels without failures', () => {
    const empty = poolingLevel(1, [], null);
    expect(empty).toMatchObject({ requests: 0, durationS: null, itemsPerS: null, latencyMs: null, dimension: null });
    const good = poolingLevel(1, [rec(1, 0, 100)], null);
    const better = poolingLevel(2, [rec(1, 0, 50), rec(2, 0, 50, { outcome: { kind: 'aborted' } })], null);
    expect(poolingPeak([good, better])).toEqual({ concurrency: 1, itemsPerS: 160, inputTokensPerS: 20480 });
    expect(poolingPeak([better])).toBeNull();
  });
});

describe('poolingLevel judged for our own client, as a text level is', () => {
  const fast = [rec(1, 0, 40), rec(2, 0, 40)];
  const slow = [rec(1, 0, 1000), rec(2, 0, 1000)];
  const load = (p99: number) => ({ loopDelayMs: { p50: 1, p99, max: p99 + 1 }, clientCpuPct: null, budgetMs: 10 });

  it("a loop delay large against the level's latency makes it client-bound, and then it is no peak, the cards saying why", () => {
    const bound = poolingLevel(2, fast, null, null, load(15));
    expect(bound.clientBound?.bound).toBe(true);
    expect(bound.clientBound?.reason).toMatch(/event loop was delayed 15\.0 ms \(p99\)/);
    const fine = poolingLevel(1, slow, null, null, load(15));
    expect(fine.clientBound).toMatchObject({ bound: false, budgets: { sendMs: 50, loopMs: 50 } });
    // The bound level moves more items per second, and still is no peak.
    expect(bound.itemsPerS).toBeGreaterThan(fine.itemsPerS as number);
    expect(poolingPeak([fine, bound])).toMatchObject({ concurrency: 1 });
    expect(poolingPeak([bound])).toBeNull();
    const cards = poolingCards([fine, bound], 'embeddings');
    expect(cards.engine.peakConcurrency).toBe(1);
    expect(cards.engine.excluded).toEqual([
      { concurrency: 2, reason: expect.stringMatching(/^client-bound: the client's event loop was delayed 15\.0 ms/) as unknown as string },
    ]);
    expect(poolingLevelSchema.parse(bound)).toEqual(bound);
  });

  it('a level of an earlier version (no verdict) still counts', () => {
    expect(poolingLevel(2, fast, null).clientBound).toBeUndefined();
    expect(poolingPeak([poolingLevel(2, fast, null)])).toMatchObject({ concurrency: 2 });
  });
});

describe('poolingLevel with a latency objective, and capacity at it', () => {
  it('judges the p-th percentile over every request, a failed one counting as never answered', () => {
    const records = [rec(1, 0, 100), rec(2, 0, 120), rec(3, 0, 140), rec(4, 0, 400)];
    expect(poolingLevel(2, records, null, { p: 50, maxMs: 130 }).slo).toMatchObject({ holds: true, observedMs: 130, metShare: 0.5 });
    expect(poolingLevel(2, records, null, { p: 99, maxMs: 130 }).slo).toMatchObject({ holds: false, metShare: 0.5 });
    const failing = [rec(1, 0, 100), rec(2, 0, 100, { outcome: { kind: 'timeout', message: 'late' } })];
    expect(poolingLevel(2, failing, null, { p: 99, maxMs: 1000 }).slo).toMatchObject({ holds: false, observedMs: null, metShare: 0.5 });
  });

  it('capacity is the highest level that held below the first miss, with its rates', () => {
    const slo = { p: 95, maxMs: 150 };
    const at = (c: number, endMs: number, over: Partial<PoolingRecord> = {}) => poolingLevel(c, [rec(1, 0, endMs, over)], null, slo);
    const levels = [at(1, 100), at(2, 140), at(4, 300), at(8, 120)];
    expect(poolingCapacity(levels, slo)).toEqual({
      concurrency: 2,
      itemsPerS: levels[1]?.itemsPerS,
      inputTokensPerS: levels[1]?.inputTokensPerS,
      statement: 'capacity at latency p95 ≤ 150 ms: concurrency 2; concurrency 4 missed it (latency p95 300.0 ms)',
    });
    expect(poolingCapacity([at(1, 100, { outcome: { kind: 'aborted' } })], slo).statement).toBe(
      'no level meets latency p95 ≤ 150 ms: concurrency 1 missed it (1 failed requests)',
    );
    expect(poolingCapacity([at(1, 100), at(2, 100)], slo).statement).toBe(
      'capacity at latency p95 ≤ 150 ms: at least concurrency 2, the highest level measured (every level held)',
    );
    expect(poolingCapacity([], slo).concurrency).toBeNull();
  });
});
