import { describe, expect, it } from 'vitest';
import type { PoolingRecord } from '../core/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { poolingSharePlans } from './pooling-share.js';
import { runSweep } from './run-kinds.js';

// 4 inputs × 32 tokens at 0.05 ms a token: ~6 ms a request on one encoder, so requests in flight wait their turn.
const sim = useSimulators({ pooling: { dimension: 16, msPerInputToken: 0.05 } });

/** The most requests in flight at once over a level's measured records (an end before a send at the same instant). */
function peakInFlight(records: readonly PoolingRecord[]): number {
  const edges = records
    .filter((r) => !r.warmup)
    .flatMap(
      (r) =>
        [
          [r.sentNs, 1],
          [r.endNs, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

describe('pooling levels over client threads', () => {
  it('splits C streams over the shares, the requests in proportion and the warm-ups in turn, every request once', () => {
    const plans = poolingSharePlans(5, 3, 20, 2, (k) => ({ endpoint: 'embeddings', inputs: [String(k)] }));
    expect(plans.map((p) => p.streams)).toEqual([3, 2]);
    expect(plans.map((p) => p.warmups.map((w) => w.seq))).toEqual([[0, 2], [1]]);
    expect(plans.map((p) => p.measured.length)).toEqual([12, 8]);
    const seqs = plans.flatMap((p) => [...p.warmups, ...p.measured].map((s) => s.seq)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(plans.flatMap((p) => p.measured).every((m) => m.payload.endpoint === 'embeddings' && m.payload.inputs[0] === String(m.seq))).toBe(true);
    // Fewer requests than streams: a stream per request, never more.
    expect(poolingSharePlans(8, 0, 3, 2, () => ({ endpoint: 'embeddings', inputs: [] })).map((p) => p.streams)).toEqual([2, 1]);
  });

  it('levels over 2 threads send what one loop sends, with C requests in flight at the peak and never more', async () => {
    const s = await sim();
    const run = async (clientThreads: number) => {
      const records = new Map<number, PoolingRecord[]>();
      const threads: number[] = [];
      const r = await runSweep(
        {
          url: s.url,
          endpoint: 'embeddings',
          levels: [2, 4],
          itemsPerRequest: 4,
          itemTokens: 32,
          requestsPerLevel: 16,
          warmup: 2,
          clientThreads,
          clientBudgetMs: 1000,
        },
        {
          onEvent: (e) => {
            if (e.kind === 'level-start') threads.push(e.threads);
            if (e.kind === 'level-end') records.set(e.level.concurrency, [...e.records]);
          },
        },
      );
      return { r, records, threads };
    };
    const before = s.stats().pooling.requests;
    const one = await run(1);
    const mid = s.stats().pooling.requests;
    const two = await run(2);
    expect(one.threads).toEqual([1, 1]);
    expect(two.threads).toEqual([2, 2]);
    // Each sweep: the probe, then 2 warm-ups and 16 measured requests per level.
    expect(mid - before).toBe(1 + 2 * 18);
    expect(s.stats().pooling.requests - mid).toBe(1 + 2 * 18);
    for (const { r, records } of [one, two]) {
      expect(r.levels.map((l) => [l.concurrency, l.requests, l.failed, l.inputTokensPerRequest])).toEqual([
        [2, 16, 0, 128],
        [4, 16, 0, 128],
      ]);
      for (const c of [2, 4]) {
        const recs = records.get(c) ?? [];
        expect(recs.map((x) => x.seq)).toEqual(Array.from({ length: 18 }, (_, i) => i));
        expect(recs.filter((x) => x.warmup).length).toBe(2);
        expect(peakInFlight(recs)).toBe(c);
      }
    }
  });

  it('a stop during a threaded level keeps the finished levels, drops the one in flight, and frees the threads for the next sweep', async () => {
    const s = await sim();
    const ctrl = new AbortController();
    let measured = 0;
    const r = await runSweep(
      {
        url: s.url,
        endpoint: 'embeddings',
        levels: [2, 4],
        itemsPerRequest: 4,
        itemTokens: 32,
        requestsPerLevel: 64,
        warmup: 0,
        clientThreads: 2,
        clientBudgetMs: 1000,
      },
      {
        signal: ctrl.signal,
        onEvent: (e) => {
          if (e.kind === 'request' && e.concurrency === 4 && ++measured === 3) ctrl.abort();
        },
      },
    );
    expect(r.run).toMatchObject({ status: 'stopped', stopReason: 'stopped by the user; 1 level(s) complete' });
    expect(r.levels.map((l) => l.concurrency)).toEqual([2]);
    const again = await runSweep({
      url: s.url,
      endpoint: 'embeddings',
      levels: [2],
      itemsPerRequest: 4,
      itemTokens: 32,
      requestsPerLevel: 8,
      warmup: 0,
      clientThreads: 2,
      clientBudgetMs: 1000,
    });
    expect(again.levels[0]).toMatchObject({ requests: 8, failed: 0 });
  });
});
