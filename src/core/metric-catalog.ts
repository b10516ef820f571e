/**
 * Known Prometheus metrics of the serving engines, as data: for each quantity the
 * server can tell us (a role), the names each engine has used for it, newest
 * first, with how to read it and the factor to our unit. Names drift between
 * releases (vLLM `gpu_cache_usage_perc` → `kv_cache_usage_perc`,
 * `time_per_output_token` → `inter_token_latency`; llama.cpp dropped its KV
 * gauge), so discovery tries them all and reports what it did not find.
 */
import type { Combine } from './prometheus-series.js';

export type MetricFamily = 'vllm' | 'sglang' | 'tgi' | 'llamacpp' | 'trtllm' | 'lmdeploy';

/** What a role measures, in our units: ms, counts, tokens, percent, bytes. */
export type MetricRole =
  | 'ttftMs'
  | 'itlMs'
  | 'e2eMs'
  | 'queueMs'
  | 'requests'
  | 'generatedTokens'
  | 'promptTokens'
  | 'prefixCacheHitPct'
  | 'running'
  | 'waiting'
  | 'kvCacheUsagePct'
  | 'gpuMemoryBytes';

/** Roles read as a before/after delta; the rest are gauges sampled during the level. */
export const DELTA_ROLES = ['ttftMs', 'itlMs', 'e2eMs', 'queueMs', 'requests', 'generatedTokens', 'promptTokens', 'prefixCacheHitPct'] as const;
export const GAUGE_ROLES = ['running', 'waiting', 'kvCacheUsagePct', 'gpuMemoryBytes'] as const;

/** How a role is read from the exposition. Histogram names are the family name (without `_sum`/`_count`). */
export type MetricShape =
  | { kind: 'histogram-mean'; name: string }
  | { kind: 'histogram-sum'; name: string }
  | { kind: 'histogram-count'; name: string }
  | { kind: 'counter'; name: string }
  | { kind: 'counter-ratio'; numerator: string; denominator: string }
  | { kind: 'gauge'; name: string; combine: Combine };

export interface MetricCandidate {
  family: MetricFamily;
  role: MetricRole;
  shape: MetricShape;
  /** Multiplies the raw figure into the role's unit (seconds → ms: 1000; fraction → %: 100). */
  scale: number;
  /** For inter-token figures: one observation per streamed chunk (engine step), per token, or per request (its mean). */
  per?: 'chunk' | 'token' | 'request';
}

/** Where each family serves Prometheus text. TRT-LLM's `/metrics` is destructive JSON, so its path is tried first. */
export const METRICS_PATHS: readonly string[] = ['/prometheus/metrics', '/metrics'];

/** Name prefixes that identify a family. */
export const FAMILY_PREFIXES: Readonly<Record<MetricFamily, string>> = {
  vllm: 'vllm:',
  sglang: 'sglang:',
  tgi: 'tgi_',
  llamacpp: 'llamacpp:',
  trtllm: 'trtllm_',
  lmdeploy: 'lmdeploy:',
};

const S = 1000;
const PCT = 100;
const h = (name: string) => ({ kind: 'histogram-mean', name }) as const;
const c = (name: string) => ({ kind: 'counter', name }) as const;
const g = (name: string, combine: Combine = 'sum') => ({ kind: 'gauge', name, combine }) as const;
const r = (numerator: string, denominator: string) => ({ kind: 'counter-ratio', numerator, denominator }) as const;

/** Every known name, preferred first within a family and role. */
export const METRIC_CATALOG: readonly MetricCandidate[] = [
  { family: 'vllm', role: 'ttftMs', shape: h('vllm:time_to_first_token_seconds'), scale: S },
  { family: 'vllm', role: 'itlMs', shape: h('vllm:inter_token_latency_seconds'), scale: S, per: 'chunk' },
  { family: 'vllm', role: 'itlMs', shape: h('vllm:time_per_output_token_seconds'), scale: S, per: 'chunk' },
  { family: 'vllm', role: 'e2eMs', shape: h('vllm:e2e_request_latency_seconds'), scale: S },
  { family: 'vllm', role: 'queueMs', shape: h('vllm:request_queue_time_seconds'), scale: S },
  { family: 'vllm', role: 'requests', shape: c('vllm:request_success_total'), scale: 1 },
  { family: 'vllm', role: 'generatedTokens', shape: c('vllm:generation_tokens_total'), scale: 1 },
  { family: 'vllm', role: 'promptTokens', shape: c('vllm:prompt_tokens_total'), scale: 1 },
  { family: 'vllm', role: 'prefixCacheHitPct', shape: r('vllm:prefix_cache_hits_total', 'vllm:prefix_cache_queries_total'), scale: PCT },
  { family: 'vllm', role: 'prefixCacheHitPct', shape: r('vllm:gpu_prefix_cache_hits_total', 'vllm:gpu_prefix_cache_queries_total'), scale: PCT },
  { family: 'vllm', role: 'prefixCacheHitPct', shape: g('vllm:gpu_prefix_cache_hit_rate', 'mean'), scale: PCT },
  { family: 'vllm', role: 'running', shape: g('vllm:num_requests_running'), scale: 1 },
  { family: 'vllm', role: 'waiting', shape: g('vllm:num_requests_waiting'), scale: 1 },
  { family: 'vllm', role: 'kvCacheUsagePct', shape: g('vllm:kv_cache_usage_perc', 'mean'), scale: PCT },
  { family: 'vllm', role: 'kvCacheUsagePct', shape: g('vllm:gpu_cache_usage_perc', 'mean'), scale: PCT },

  { family: 'sglang', role: 'ttftMs', shape: h('sglang:time_to_first_token_seconds'), scale: S },
  { family: 'sglang', role: 'itlMs', shape: h('sglang:inter_token_latency_seconds'), scale: S, per: 'chunk' },
  { family: 'sglang', role: 'itlMs', shape: h('sglang:time_per_output_token_seconds'), scale: S, per: 'chunk' },
  { family: 'sglang', role: 'e2eMs', shape: h('sglang:e2e_request_latency_seconds'), scale: S },
  { family: 'sglang', role: 'requests', shape: { kind: 'histogram-count', name: 'sglang:e2e_request_latency_seconds' }, scale: 1 },
  { family: 'sglang', role: 'generatedTokens', shape: c('sglang:generation_tokens_total'), scale: 1 },
  { family: 'sglang', role: 'promptTokens', shape: c('sglang:prompt_tokens_total'), scale: 1 },
  { family: 'sglang', role: 'prefixCacheHitPct', shape: g('sglang:cache_hit_rate', 'mean'), scale: PCT },
  { family: 'sglang', role: 'running', shape: g('sglang:num_running_reqs'), scale: 1 },
  { family: 'sglang', role: 'waiting', shape: g('sglang:num_queue_reqs'), scale: 1 },
  { family: 'sglang', role: 'kvCacheUsagePct', shape: g('sglang:token_usage', 'mean'), scale: PCT },

  { family: 'tgi', role: 'itlMs', shape: h('tgi_request_mean_time_per_token_duration'), scale: S, per: 'request' },
  { family: 'tgi', role: 'e2eMs', shape: h('tgi_request_duration'), scale: S },
  { family: 'tgi', role: 'queueMs', shape: h('tgi_request_queue_duration'), scale: S },
  { family: 'tgi', role: 'requests', shape: { kind: 'histogram-count', name: 'tgi_request_duration' }, scale: 1 },
  { family: 'tgi', role: 'generatedTokens', shape: { kind: 'histogram-sum', name: 'tgi_request_generated_tokens' }, scale: 1 },
  { family: 'tgi', role: 'promptTokens', shape: { kind: 'histogram-sum', name: 'tgi_request_input_length' }, scale: 1 },
  { family: 'tgi', role: 'running', shape: g('tgi_batch_current_size'), scale: 1 },
  { family: 'tgi', role: 'waiting', shape: g('tgi_queue_size'), scale: 1 },

  { family: 'llamacpp', role: 'itlMs', shape: r('llamacpp:tokens_predicted_seconds_total', 'llamacpp:tokens_predicted_total'), scale: S, per: 'token' },
  { family: 'llamacpp', role: 'generatedTokens', shape: c('llamacpp:tokens_predicted_total'), scale: 1 },
  { family: 'llamacpp', role: 'promptTokens', shape: c('llamacpp:prompt_tokens_total'), scale: 1 },
  { family: 'llamacpp', role: 'running', shape: g('llamacpp:requests_processing'), scale: 1 },
  { family: 'llamacpp', role: 'waiting', shape: g('llamacpp:requests_deferred'), scale: 1 },
  { family: 'llamacpp', role: 'kvCacheUsagePct', shape: g('llamacpp:kv_cache_usage_ratio', 'mean'), scale: PCT },

  { family: 'trtllm', role: 'ttftMs', shape: h('trtllm_time_to_first_token_seconds'), scale: S },
  { family: 'trtllm', role: 'itlMs', shape: h('trtllm_time_per_output_token_seconds'), scale: S, per: 'request' },
  { family: 'trtllm', role: 'e2eMs', shape: h('trtllm_e2e_request_latency_seconds'), scale: S },
  { family: 'trtllm', role: 'queueMs', shape: h('trtllm_request_queue_time_seconds'), scale: S },
  { family: 'trtllm', role: 'requests', shape: c('trtllm_request_success_total'), scale: 1 },
  { family: 'trtllm', role: 'generatedTokens', shape: c('trtllm_generation_tokens_total'), scale: 1 },
  { family: 'trtllm', role: 'promptTokens', shape: c('trtllm_prompt_tokens_total'), scale: 1 },
  { family: 'trtllm', role: 'prefixCacheHitPct', shape: r('trtllm_prompt_cache_hit_tokens_total', 'trtllm_prompt_tokens_total'), scale: PCT },
  { family: 'trtllm', role: 'prefixCacheHitPct', shape: g('trtllm_kv_cache_hit_rate', 'mean'), scale: PCT },
  { family: 'trtllm', role: 'running', shape: g('trtllm_num_requests_running'), scale: 1 },
  { family: 'trtllm', role: 'waiting', shape: g('trtllm_num_requests_waiting'), scale: 1 },
  { family: 'trtllm', role: 'kvCacheUsagePct', shape: g('trtllm_kv_cache_utilization', 'mean'), scale: PCT },
  { family: 'trtllm', role: 'gpuMemoryBytes', shape: g('trtllm_gpu_memory_usage_bytes'), scale: 1 },

  { family: 'lmdeploy', role: 'ttftMs', shape: h('lmdeploy:time_to_first_token_seconds'), scale: S },
  { family: 'lmdeploy', role: 'itlMs', shape: h('lmdeploy:time_per_output_token_seconds'), scale: S, per: 'chunk' },
  { family: 'lmdeploy', role: 'e2eMs', shape: h('lmdeploy:e2e_request_latency_seconds'), scale: S },
  { family: 'lmdeploy', role: 'prefixCacheHitPct', shape: g('lmdeploy:prefix_cache_hit_rate', 'mean'), scale: PCT },
  { family: 'lmdeploy', role: 'running', shape: g('lmdeploy:num_requests_running'), scale: 1 },
  { family: 'lmdeploy', role: 'waiting', shape: g('lmdeploy:num_requests_waiting'), scale: 1 },
  { family: 'lmdeploy', role: 'kvCacheUsagePct', shape: g('lmdeploy:gpu_cache_usage_perc', 'mean'), scale: PCT },
];

/** The sample names a candidate needs present to be usable. */
export function requiredNames(shape: MetricShape): string[] {
  switch (shape.kind) {
    case 'histogram-mean':
      return [`${shape.name}_sum`, `${shape.name}_count`];
    case 'histogram-sum':
      return [`${shape.name}_sum`];
    case 'histogram-count':
      return [`${shape.name}_count`];
    case 'counter':
    case 'gauge':
      return [shape.name];
    case 'counter-ratio':
      return [shape.numerator, shape.denominator];
  }
}

/** A readable name for reports: the histogram or counter name, or `a / b`. */
export function shapeLabel(shape: MetricShape): string {
  return shape.kind === 'counter-ratio' ? `${shape.numerator} / ${shape.denominator}` : shape.name;
}
