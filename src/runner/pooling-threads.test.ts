import { describe, expect, it } from 'vitest';
import type { PoolingRecord } from '../core/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { type DialectKind, dialects } from '../client/index.js';
import { SweepError } from './errors.js';
import { routeOf } from './pooling-setup.js';
import type { PoolingSpec } from './pooling-spec.js';
import { poolingSharePlans } from './pooling-share.js';
import { type PoolingThreads, startPoolingThreads } from './client-threads.js';
import { runSweep } from './run-kinds.js';
import type { SweepEvent } from './sweep-events.js';

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

  it('a pool lost after a level finished ends the sweep as stopped, keeping that level, as a text sweep does; lost before any, an error', async () => {
    const s = await sim();
    const spec = { url: s.url, endpoint: 'embeddings' as const, levels: [2, 4, 8], itemsPerRequest: 4, itemTokens: 32, requestsPerLevel: 8, warmup: 0 };
    // Real threads (clients elsewhere, as workers are given), but the `at`-th level fails with `err`.
    const losing = (at: number, err: SweepError) => {
      let calls = 0;
      const events: Array<SweepEvent<'pooling'>> = [];
      const clients = (init: { spec: PoolingSpec; model: string; dialect: DialectKind; connections: number }): PoolingThreads => {
        const route = routeOf(dialects[init.dialect], init.spec);
        const real = startPoolingThreads(2, { target: { baseUrl: s.url }, route, model: init.model, timeoutMs: 10_000, idleMs: 10_000 }, init.connections);
        return {
          size: 2,
          always: true,
          runLevel: async (...a) => {
            if (++calls === at) throw err;
            return real.runLevel(...a);
          },
          close: () => real.close(),
        };
      };
      return { deps: { clients, onEvent: (e: SweepEvent<'pooling'>) => events.push(e) }, events };
    };
    const lost = losing(2, new SweepError('client-failed', 'client thread 2 exited (code 1) during the level'));
    const r = await runSweep(spec, lost.deps);
    expect(r.run.status).toBe('stopped');
    expect(r.levels.map((l) => l.concurrency)).toEqual([2]);
    expect(r.run.stopReason).toBe('client thread 2 exited (code 1) during the level. Level 2 is complete.');
    // The shares went to the clients elsewhere: the level-start says so.
    expect(lost.events.filter((e) => e.kind === 'level-start')).toEqual([
      { kind: 'level-start', concurrency: 2, index: 0, total: 3, requests: 8, threads: 2, over: 'workers' },
      { kind: 'level-start', concurrency: 4, index: 1, total: 3, requests: 8, threads: 2, over: 'workers' },
    ]);
    // The workers' database going away stops the sweep even at its first level.
    const db = await runSweep(spec, losing(1, new SweepError('client-stopped', "the workers' database stopped answering")).deps);
    expect(db.run).toMatchObject({ status: 'stopped', stopReason: "the workers' database stopped answering. No level was completed." });
    await expect(runSweep(spec, losing(1, new SweepError('client-failed', 'client thread 1 failed: boom')).deps)).rejects.toMatchObject({
      code: 'client-failed',
    });
  });
});
