import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverMetrics } from './metric-discovery.js';
import { parsePrometheusText } from './prometheus-text.js';
import { SERVER_LATENESS_METRIC, histogramQuantileDelta, readGauges, serverFigures } from './server-truth.js';

const fixture = (name: string) => parsePrometheusText(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

/** vLLM-style exposition with chosen cumulative values. */
function vllm(
  v: { ttftSum: number; ttftCount: number; itlSum: number; itlCount: number; queueSum: number; gen: number; hits: number; queries: number; success: number },
  names: 'new' | 'old' = 'new',
) {
  const kv = names === 'new' ? 'vllm:kv_cache_usage_perc' : 'vllm:gpu_cache_usage_perc';
  const itl = names === 'new' ? 'vllm:inter_token_latency_seconds' : 'vllm:time_per_output_token_seconds';
  const l = 'model_name="m \\"q\\""';
  return parsePrometheusText(
    [
      '# TYPE vllm:time_to_first_token_seconds histogram',
      `vllm:time_to_first_token_seconds_bucket{${l},le="+Inf"} ${v.ttftCount}`,
      `vllm:time_to_first_token_seconds_sum{${l}} ${v.ttftSum}`,
      `vllm:time_to_first_token_seconds_count{${l}} ${v.ttftCount}`,
      `${itl}_sum{${l}} ${v.itlSum}`,
      `${itl}_count{${l}} ${v.itlCount}`,
      `vllm:request_queue_time_seconds_sum{${l}} ${v.queueSum}`,
      `vllm:request_queue_time_seconds_count{${l}} ${v.ttftCount}`,
      `vllm:generation_tokens_total{${l}} ${v.gen}`,
      `vllm:prefix_cache_hits_total{${l}} ${v.hits}`,
      `vllm:prefix_cache_queries_total{${l}} ${v.queries}`,
      `vllm:request_success_total{finished_reason="length",${l}} ${v.success}`,
      `vllm:request_success_total{finished_reason="stop",${l}} 1`,
      `vllm:num_requests_running{${l}} 6`,
      `vllm:num_requests_waiting{${l}} 2`,
      `${kv}{${l}} 0.25`,
    ].join('\n'),
  );
}

describe('metric discovery', () => {
  it('finds vLLM names, new and old, and says what is missing', () => {
    const zero = { ttftSum: 0, ttftCount: 0, itlSum: 0, itlCount: 0, queueSum: 0, gen: 0, hits: 0, queries: 0, success: 0 };
    const m = discoverMetrics(vllm(zero));
    expect(m.family).toBe('vllm');
    expect(m.roles.itlMs?.shape).toEqual({ kind: 'histogram-mean', name: 'vllm:inter_token_latency_seconds' });
    expect(m.missing).toEqual(['e2eMs', 'promptTokens']);
    const old = discoverMetrics(vllm(zero, 'old'));
    expect(old.roles.itlMs?.shape).toMatchObject({ name: 'vllm:time_per_output_token_seconds' });
    expect(old.roles.kvCacheUsagePct?.shape).toMatchObject({ name: 'vllm:gpu_cache_usage_perc' });
  });

  it('maps the real llama.cpp exposition: no TTFT, no KV gauge, itl from its counters', () => {
    const m = discoverMetrics(fixture('llamacpp-metrics-fresh.prom'));
    expect(m.family).toBe('llamacpp');
    expect(Object.keys(m.roles).sort()).toEqual(['generatedTokens', 'itlMs', 'promptTokens', 'running', 'waiting']);
    expect(m.missing).toEqual(['ttftMs', 'e2eMs', 'queueMs', 'requests', 'prefixCacheHitPct', 'kvCacheUsagePct']);
  });

  it('names the family of an exposition with none of the known names, and an empty one', () => {
    expect(discoverMetrics(parsePrometheusText('sglang:brand_new_metric 1')).family).toBe('sglang');
    const none = discoverMetrics(parsePrometheusText('process_cpu_seconds_total 3'));
    expect(none.family).toBeNull();
    expect(none.missing).toContain('ttftMs');
  });

  it('prefers the detected engine when it has names present', () => {
    const both = parsePrometheusText('sglang:num_running_reqs 1\nsglang:num_queue_reqs 0\nvllm:num_requests_running 1');
    expect(discoverMetrics(both).family).toBe('sglang');
    expect(discoverMetrics(both, 'vllm').family).toBe('vllm');
  });
});

describe('server figures from deltas', () => {
  const before = { ttftSum: 10, ttftCount: 100, itlSum: 4, itlCount: 200, queueSum: 1, gen: 5000, hits: 100, queries: 1000, success: 99 };
  const after = { ttftSum: 10.5, ttftCount: 110, itlSum: 4.6, itlCount: 230, queueSum: 1.2, gen: 5320, hits: 132, queries: 1160, success: 109 };

  it('takes means from _sum/_count deltas and counts from counter deltas (hand-computed)', () => {
    const a = vllm(after);
    const map = discoverMetrics(a);
    const f = serverFigures(vllm(before), a, map, [{ atMs: 0, values: readGauges(a, map) }]);
    expect(f.ttftMeanMs).toBeCloseTo(50, 9); // 0.5 s / 10
    expect(f.itlMeanMs).toBeCloseTo(20, 9); // 0.6 s / 30
    expect(f.itlPer).toBe('chunk');
    expect(f.queueMeanMs).toBeCloseTo(20, 9); // 0.2 s / 10
    expect(f.generatedTokens).toBe(320);
    expect(f.prefixCacheHitPct).toBeCloseTo(20, 9); // 32 / 160
    expect(f.requests).toBe(10); // the stop series did not move
    expect(f.running).toEqual({ mean: 6, max: 6, samples: 1 });
    expect(f.kvCacheUsagePct?.mean).toBeCloseTo(25, 9);
    expect(f.notes).toEqual([]);
  });

  it('says so when a counter went backwards (server restart) or a histogram saw nothing', () => {
    const a = vllm({ ...before, gen: 10, ttftCount: 100, ttftSum: 10 });
    const f = serverFigures(vllm(before), a, discoverMetrics(a), []);
    expect(f.generatedTokens).toBeNull();
    expect(f.ttftMeanMs).toBeNull();
    expect(f.notes.join('\n')).toMatch(/vllm:generation_tokens_total went backwards/);
    expect(f.notes.join('\n')).toMatch(/vllm:time_to_first_token_seconds had no observations/);
    expect(f.running).toBeNull();
  });

  it('llama.cpp: seconds-per-token from its counters, running and deferred as gauges (transcript numbers)', () => {
    const under = fixture('llamacpp-metrics-under-load.prom');
    const done = fixture('llamacpp-metrics-after.prom');
    const map = discoverMetrics(under);
    const f = serverFigures(under, done, map, [
      { atMs: 0, values: readGauges(under, map) },
      { atMs: 1000, values: readGauges(done, map) },
    ]);
    expect(f.generatedTokens).toBe(36835 - 26035);
    expect(f.promptTokens).toBe(5);
    expect(f.itlMeanMs).toBeCloseTo(((293.767 - 158.288) / 10800) * 1000, 9); // 12.544 ms per token per slot
    expect(f.itlPer).toBe('token');
    expect(f.running).toEqual({ mean: 4, max: 8, samples: 2 });
    expect(f.waiting).toEqual({ mean: 2, max: 4, samples: 2 });
    expect(f.ttftMeanMs).toBeNull();
  });
});

describe("the server's own write lateness", () => {
  const scrape = (counts: Record<string, number>) =>
    parsePrometheusText(
      [
        `# TYPE ${SERVER_LATENESS_METRIC} histogram`,
        ...Object.entries(counts).map(([le, n]) => `${SERVER_LATENESS_METRIC}_bucket{model_name="m",le="${le}"} ${n}`),
      ].join('\n'),
    );
  it('takes the p99 of the level from the bucket deltas, not from everything since the server started', () => {
    // Before the level: 1,000 very late writes; during it: 100 writes, 99 of them within 0.5 ms, one at 5 ms.
    const before = scrape({ '0.0005': 0, '0.005': 0, '1': 1000, '+Inf': 1000 });
    const after = scrape({ '0.0005': 99, '0.005': 100, '1': 1100, '+Inf': 1100 });
    expect(histogramQuantileDelta(before, after, SERVER_LATENESS_METRIC, 0.99)).toBe(0.0005);
    expect(histogramQuantileDelta(before, after, SERVER_LATENESS_METRIC, 1)).toBe(0.005);
  });
  it('is null without the series or without observations in the level, and the largest bound when past them all', () => {
    const same = scrape({ '0.001': 5, '+Inf': 5 });
    expect(histogramQuantileDelta(same, same, SERVER_LATENESS_METRIC, 0.99)).toBeNull();
    expect(histogramQuantileDelta(vllmEmpty, vllmEmpty, SERVER_LATENESS_METRIC, 0.99)).toBeNull();
    expect(histogramQuantileDelta(scrape({ '0.001': 0, '+Inf': 0 }), scrape({ '0.001': 0, '+Inf': 3 }), SERVER_LATENESS_METRIC, 0.99)).toBe(0.001);
  });
});
const vllmEmpty = parsePrometheusText('vllm:num_requests_running{model_name="m"} 0');
