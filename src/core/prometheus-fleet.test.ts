/** A fleet's metrics as one scrape: replicas merged so a counter sums over them, and a Prometheus answer read back, refused by name when it is no instant vector. */
import { describe, expect, it } from 'vitest';
import { mergeScrapes, scrapeOfVector } from './prometheus-fleet.js';
import { seriesValue } from './prometheus-series.js';
import { parsePrometheusText } from './prometheus-text.js';

const replica = (n: number) =>
  parsePrometheusText(
    `# TYPE vllm:generation_tokens counter\nvllm:generation_tokens_total{model_name="m"} ${n}\nvllm:num_requests_running{model_name="m"} 2\n`,
  );

describe('mergeScrapes', () => {
  it('labels each series with its endpoint, so identical series of replicas sum instead of hiding each other', () => {
    // One scrape alone: identical label sets would count once (the larger), as a rank's replica does.
    const merged = mergeScrapes([
      { instance: 'http://a/metrics', scrape: replica(100) },
      { instance: 'http://b/metrics', scrape: replica(40) },
    ]);
    expect(seriesValue(merged, 'vllm:generation_tokens_total', { combine: 'sum' })).toBe(140);
    expect(seriesValue(merged, 'vllm:num_requests_running', { combine: 'sum' })).toBe(4);
    expect(merged.types.get('vllm:generation_tokens')).toBe('counter');
    expect(merged.byName.get('vllm:generation_tokens_total')?.map((s) => s.labels.instance)).toEqual(['http://a/metrics', 'http://b/metrics']);
  });
});

describe('scrapeOfVector', () => {
  const vector = (result: unknown[]) => ({ status: 'success', data: { resultType: 'vector', result } });
  it('reads an instant vector as series', () => {
    const r = scrapeOfVector(
      vector([
        { metric: { __name__: 'vllm:generation_tokens_total', instance: 'a:8000', job: 'vllm' }, value: [1700000000.5, '100'] },
        { metric: { __name__: 'vllm:generation_tokens_total', instance: 'b:8000', job: 'vllm' }, value: [1700000000.5, '40'] },
        { metric: { __name__: 'vllm:kv_cache_usage_perc', instance: 'b:8000', job: 'vllm' }, value: [1700000000.5, 'NaN'] },
      ]),
    );
    if (!r.ok) throw new Error(r.error);
    expect(seriesValue(r.scrape, 'vllm:generation_tokens_total', { combine: 'sum' })).toBe(140);
    expect(r.scrape.samples[0]?.labels).toEqual({ instance: 'a:8000', job: 'vllm' });
  });

  it('refuses what is no instant vector of series, naming the rule', () => {
    expect(scrapeOfVector({ status: 'error', error: 'bad' })).toEqual({
      ok: false,
      error: 'not an instant vector from the query API: status: Invalid input: expected "success"',
    });
    expect(scrapeOfVector({ status: 'success', data: { resultType: 'matrix', result: [] } })).toEqual({
      ok: false,
      error: 'not an instant vector from the query API: data.resultType: Invalid input: expected "vector"',
    });
    expect(scrapeOfVector(vector([{ metric: { job: 'vllm' }, value: [1, '3'] }]))).toEqual({
      ok: false,
      error: 'data.result[0] has no __name__: the selector must pick series, not an aggregate',
    });
    expect(scrapeOfVector(vector([{ metric: { __name__: 'x' }, value: [1, 'many'] }]))).toEqual({ ok: false, error: 'data.result[0].value is not a number' });
    expect(scrapeOfVector(vector([]))).toEqual({ ok: false, error: 'the selector picks no series' });
    const many = Array.from({ length: 100_001 }, () => ({ metric: { __name__: 'x' }, value: [1, '1'] }));
    expect(scrapeOfVector(vector(many))).toEqual({
      ok: false,
      error:
        "not an instant vector from the query API: data.result: data.result 100001 is above the limit of 100000 series in one answer of a Prometheus server's query API (--prometheus)",
    });
  });
});
