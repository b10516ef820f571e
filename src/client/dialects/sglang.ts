/**
 * SGLang (`sgl-project/sglang`): `ignore_eos` + `min_tokens`, template-kwargs
 * thinking, `continuous_usage_stats` read on its own, reasoning in
 * `reasoning_content` with the count in top-level `usage.reasoning_tokens`,
 * flat errors, metrics only with `--enable-metrics`.
 */
import { OPENAI_EMBEDDINGS, RERANK_V1, defineOpenAiDialect, openAiReading } from './define.js';
import { modelsContext, ownedBy, ownedByLine, stringAt, versionLine } from './probe-helpers.js';
import { VLLM_RULES } from './vllm.js';

export const sglang = defineOpenAiDialect({
  kind: 'sglang',
  engine: 'sglang',
  label: 'SGLang',
  // SGLang serves /v1/responses (python/sglang/srt/entrypoints/openai/serving_responses.py).
  responses: 'stored',
  // SGLang serves /v1/embeddings and, for cross-encoder models, /v1/rerank.
  pooling: { embeddings: OPENAI_EMBEDDINGS, rerank: RERANK_V1 },
  // SGLang's OpenAI routes take vLLM's keys: both cap keys, ignore_eos + min_tokens, its neutral sampling, cache_salt.
  rules: VLLM_RULES,
  stream: openAiReading({ reasoningTokenPaths: [['reasoning_tokens'], ['completion_tokens_details', 'reasoning_tokens']] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'continuous_usage_stats', cachedTokens: { flag: '--enable-cache-report' } },
  errors: { shape: 'flat', statusNotes: {} },
  tokenize: { path: '/tokenize', body: (text, model) => ({ model, prompt: text }) },
  promptLogprobs: 'completions `echo`; native `/generate` with `logprob_start_len`',
  metrics: {
    path: '/metrics',
    enabledBy: '--enable-metrics',
    names: {
      ttftSeconds: 'sglang:time_to_first_token_seconds',
      itlSeconds: 'sglang:inter_token_latency_seconds',
      e2eSeconds: 'sglang:e2e_request_latency_seconds',
      running: 'sglang:num_running_reqs',
      waiting: 'sglang:num_queue_reqs',
      kvCacheUsage: 'sglang:token_usage',
      prefixCacheHitRate: 'sglang:cache_hit_rate',
      promptTokens: 'sglang:prompt_tokens_total',
      generationTokens: 'sglang:generation_tokens_total',
    },
  },
  // SGLang's model card carries max_model_len like vLLM's.
  context: modelsContext(['max_model_len']),
  configuration: { route: '/get_server_info' },
  // python/sglang/srt/entrypoints/http_server.py: /flush_cache empties the radix cache (refused while requests run); the profiler writes to SGLANG_TORCH_PROFILER_DIR.
  hooks: {
    resetCache: { kind: 'post', path: '/flush_cache' },
    profiler: { start: '/start_profile', stop: '/stop_profile' },
    needs: 'SGLang flushes its cache only when no request is running, and writes profiles to SGLANG_TORCH_PROFILER_DIR (default /tmp)',
  },
  probePaths: ['/get_server_info'],
  identify(e) {
    const version = stringAt(e, '/get_server_info', 'version');
    if (version !== null) return { version, evidence: [versionLine('/get_server_info', 'version', version)] };
    return ownedBy(e) === 'sglang' ? { version: null, evidence: [ownedByLine('sglang')] } : null;
  },
});
