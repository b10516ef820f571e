/**
 * TensorRT-LLM's `trtllm-serve` (`NVIDIA/TensorRT-LLM`, `tensorrt_llm/serve/`):
 * pydantic `extra="forbid"`, so only keys of its request models are sent;
 * `max_tokens` (the alias of `max_completion_tokens`; both at once is an extra
 * key), `ignore_eos` + `min_tokens`, `continuous_usage_stats`, `cache_salt` on
 * chat only, Prometheus at `/prometheus/metrics` (`/metrics` is JSON, emptied when read).
 */
import { TRTLLM_KEYS } from '../../core/index.js';
import { defineOpenAiDialect, openAiReading } from './define.js';
import { byOwner } from './probe-helpers.js';

export const trtllm = defineOpenAiDialect({
  kind: 'trtllm',
  engine: 'trtllm',
  label: 'TensorRT-LLM',
  rules: {
    maxTokensKeys: { chat: ['max_tokens'], completions: ['max_tokens'] },
    length: { kind: 'ignore-eos-min', minKey: 'min_tokens' },
    thinking: { kind: 'template-kwargs' },
    sampling: { top_p: 1, top_k: 0, min_p: 0 },
    streamOptions: { include_usage: true, continuous_usage_stats: true },
    coldCache: { chat: 'cache_salt', completions: null },
    acceptedKeys: TRTLLM_KEYS,
  },
  stream: openAiReading({ reasoningFields: ['reasoning_content', 'reasoning'] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'continuous_usage_stats', cachedTokens: 'always' },
  errors: { shape: 'flat', statusNotes: { 400: 'rejected request (TensorRT-LLM refuses unknown keys and over-long inputs with 400)' } },
  tokenize: { path: '/_internal/tokenize', body: (text, model) => ({ model, prompt: text }) },
  promptLogprobs: 'none (completions `echo` only prepends the prompt text)',
  metrics: {
    path: '/prometheus/metrics',
    enabledBy: null,
    names: {
      ttftSeconds: 'trtllm_time_to_first_token_seconds',
      tpotSeconds: 'trtllm_time_per_output_token_seconds',
      queueSeconds: 'trtllm_request_queue_time_seconds',
      running: 'trtllm_num_requests_running',
      waiting: 'trtllm_num_requests_waiting',
      kvCacheUsage: 'trtllm_kv_cache_utilization',
      prefixCacheHitRate: 'trtllm_kv_cache_hit_rate',
    },
  },
  context: null,
  probePaths: ['/version'],
  identify: (e) => byOwner(e, 'tensorrt_llm'),
});
