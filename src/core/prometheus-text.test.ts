import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seriesValue } from './prometheus-series.js';
import { parsePromValue, parsePrometheusText } from './prometheus-text.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('Prometheus text parsing', () => {
  it('reads the real llama.cpp /metrics text: every sample, its type, no bad line', () => {
    const p = parsePrometheusText(fixture('llamacpp-metrics-under-load.prom'));
    expect(p.samples).toHaveLength(11);
    expect(p.badLines).toEqual([]);
    expect(p.types.get('llamacpp:tokens_predicted_seconds_total')).toBe('counter');
    expect(p.types.get('llamacpp:requests_deferred')).toBe('gauge');
    expect(p.byName.get('llamacpp:tokens_predicted_total')?.[0]).toEqual({ name: 'llamacpp:tokens_predicted_total', labels: {}, value: 26035 });
    expect(p.byName.get('llamacpp:n_busy_slots_per_decode')?.[0]?.value).toBe(2.89885);
  });

  it('reads labels with escaped quotes, backslashes and newlines, and spaces around them', () => {
    const p = parsePrometheusText('m{a="say \\"hi\\"", b = "c:\\\\dir", c="two\\nlines",} 1\n');
    expect(p.samples[0]?.labels).toEqual({ a: 'say "hi"', b: 'c:\\dir', c: 'two\nlines' });
    // A brace inside a quoted value is text, not the end of the labels.
    expect(parsePrometheusText('m{le="}"} 2').samples[0]).toEqual({ name: 'm', labels: { le: '}' }, value: 2 });
  });

  it('reads +Inf, -Inf, NaN, exponents and a trailing timestamp; CRLF line ends', () => {
    const p = parsePrometheusText('h_bucket{le="+Inf"} 3\r\ng -Inf\r\nn NaN\r\ne 1.5e-3 1700000000000\r\n');
    expect(p.samples.map((s) => s.value)).toEqual([3, -Infinity, NaN, 0.0015]);
    expect(p.samples[0]?.labels.le).toBe('+Inf');
    expect(parsePromValue('+Inf')).toBe(Infinity);
    expect(parsePromValue('0x10')).toBeNull();
    expect(parsePromValue('')).toBeNull();
  });

  it('counts lines that are not samples instead of throwing, and skips comments', () => {
    const p = parsePrometheusText('# just a comment\nok 1\n{no_name="x"} 1\nbad{a="unterminated} 1\nnovalue\nx 1 2 3\ny abc\n');
    expect(p.samples.map((s) => s.name)).toEqual(['ok']);
    expect(p.badLines).toEqual([3, 4, 5, 6, 7]);
  });

  it('ignores HELP text and unknown TYPE words', () => {
    const p = parsePrometheusText('# HELP a Something with {braces} and "quotes"\n# TYPE a weird\n# TYPE b counter\na 1\n');
    expect(p.types.has('a')).toBe(false);
    expect(p.types.get('b')).toBe('counter');
  });
});

describe('combining series', () => {
  const text = [
    'vllm:num_requests_running{engine="0",model_name="m"} 3',
    'vllm:num_requests_running{engine="1",model_name="m"} 4',
    'vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.2',
    'vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.4',
    'sglang:num_running_reqs{tp_rank="0",dp_rank="0"} 5',
    'sglang:num_running_reqs{tp_rank="1",dp_rank="0"} 5',
    'sglang:num_running_reqs{tp_rank="0",dp_rank="1"} 2',
    'sglang:num_running_reqs{tp_rank="1",dp_rank="1"} 2',
    'x{a="1"} NaN',
  ].join('\n');
  const p = parsePrometheusText(text);
  it('sums, averages or maxes distinct series', () => {
    expect(seriesValue(p, 'vllm:num_requests_running', { combine: 'sum' })).toBe(7);
    expect(seriesValue(p, 'vllm:kv_cache_usage_perc', { combine: 'mean' })).toBeCloseTo(0.3, 12);
    expect(seriesValue(p, 'vllm:num_requests_running', { combine: 'max' })).toBe(4);
    expect(seriesValue(p, 'vllm:num_requests_running', { combine: 'sum', match: { engine: '1' } })).toBe(4);
  });
  it('counts series repeated once per tensor-parallel rank once', () => {
    expect(seriesValue(p, 'sglang:num_running_reqs', { combine: 'sum' })).toBe(7);
    expect(seriesValue(p, 'sglang:num_running_reqs', { combine: 'sum', replicaLabels: [] })).toBe(14);
  });
  it('is null for a metric that is absent or only NaN', () => {
    expect(seriesValue(p, 'absent', { combine: 'sum' })).toBeNull();
    expect(seriesValue(p, 'x', { combine: 'sum' })).toBeNull();
  });
});
