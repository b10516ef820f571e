import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { vllmBenchMetrics, vllmStats, vllmView } from './vllm-bench-metrics.js';

describe("vLLM bench serve's figures from our records (hand-computed)", () => {
  // A: sent at 0, chunks at 100/150/200 ms (3 tokens); B: sent at 50, chunks at 250/350 (2 tokens); C: HTTP 500.
  const views = [
    rec({ sendMs: 0, chunksMs: [100, 150, 200] }),
    rec({ sendMs: 50, chunksMs: [250, 350] }),
    { ...rec({ sendMs: 0, outcome: { kind: 'http-error', status: 500, message: 'boom' } }), promptTokens: null },
  ].map((r) => vllmView(r, 16));

  it('sees each request as vLLM does: seconds, 0 for what a failure never got, the error text', () => {
    expect(views[0]).toEqual({
      success: true,
      promptLen: 10,
      outputLen: 3,
      ttftS: 0.1,
      itlS: [0.05, 0.05],
      latencyS: 0.2,
      startS: 0,
      chunkTokens: [1, 1, 1],
      error: '',
    });
    expect(views[2]).toMatchObject({ success: false, promptLen: 16, outputLen: 0, ttftS: 0, itlS: [], latencyS: 0, error: 'HTTP 500: boom' });
  });

  it('counts, TTFT, TPOT = (latency − TTFT)/(n − 1), ITL per chunk, E2EL; population std; numpy percentiles', () => {
    const m = vllmBenchMetrics(views, [99]);
    expect(m).toMatchObject({ completed: 2, failed: 1, totalInput: 20, totalOutput: 5 });
    expect(m.ttft?.mean).toBeCloseTo(150, 9);
    expect(m.ttft?.median).toBeCloseTo(150, 9);
    expect(m.ttft?.std).toBeCloseTo(50, 9);
    expect(m.ttft?.percentiles[0]?.[1]).toBeCloseTo(199, 9);
    // TPOT: A (0.2 − 0.1)/2 = 50 ms, B (0.3 − 0.2)/1 = 100 ms.
    expect(m.tpot?.mean).toBeCloseTo(75, 9);
    expect(m.tpot?.percentiles[0]?.[1]).toBeCloseTo(99.5, 9);
    // ITL: 50, 50, 100 ms.
    expect(m.itl?.mean).toBeCloseTo(200 / 3, 9);
    expect(m.itl?.median).toBeCloseTo(50, 9);
    expect(m.itl?.std).toBeCloseTo(Math.sqrt(5000 / 9), 9);
    expect(m.itl?.percentiles[0]?.[1]).toBeCloseTo(99, 9);
    expect(m.e2el?.mean).toBeCloseTo(250, 9);
  });

  it('peak output tokens in 1-second buckets (tokens, not chunks) and peak concurrency, departures first on ties', () => {
    const peak = [
      rec({ sendMs: 0, chunksMs: [500, 900, 1100], chunkTokens: [1, 1, 4] }), // bucket 0: 2 tokens, bucket 1: 4
      rec({ sendMs: 1000, chunksMs: [1200, 1300] }), // bucket 1: +2
      rec({ sendMs: 1100, chunksMs: [1150] }), // starts as the first one ends; its token lands in bucket 1 too
    ].map((r) => vllmView(r, 0));
    const m = vllmBenchMetrics(peak, [99]);
    expect(m.maxOutputTokensPerS).toBe(7);
    expect(m.maxConcurrentRequests).toBe(2);
  });

  it("a statistic with no samples is null, not vLLM's 0", () => {
    expect(vllmStats([], [99])).toBeNull();
    expect(vllmBenchMetrics([], [99])).toMatchObject({ completed: 0, ttft: null, maxOutputTokensPerS: 0, maxConcurrentRequests: 0 });
  });
});
