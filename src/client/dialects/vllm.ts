/**
 * vLLM (`vllm-project/vllm`): both max-token keys (`max_completion_tokens` wins),
 * `ignore_eos` + `min_tokens`, thinking through `chat_template_kwargs`, exact
 * tokens per chunk from `continuous_usage_stats`, reasoning in `reasoning`
 * (`reasoning_content` before PR #27752), `cache_salt` for cold runs.
 */
import { OPENAI_EMBEDDINGS, type OpenAiDialectDef, RERANK_V1, defineOpenAiDialect, openAiReading } from './define.js';
import { byOwner, modelEntryOf, modelsContext } from './probe-helpers.js';

/** vLLM's request body: what SGLang's OpenAI routes take too. */
export const VLLM_RULES: OpenAiDialectDef['rules'] = {
  maxTokensKeys: { chat: ['max_tokens', 'max_completion_tokens'], completions: ['max_tokens'] },
  length: { kind: 'ignore-eos-min', minKey: 'min_tokens' },
  thinking: { kind: 'template-kwargs' },
  // Defaults otherwise come from the model's generation_config.json.
  sampling: { top_p: 1, top_k: -1, min_p: 0 },
  streamOptions: { include_usage: true, continuous_usage_stats: true },
  coldCache: { chat: 'cache_salt', completions: 'cache_salt' },
};

export const vllm = defineOpenAiDialect({
  kind: 'vllm',
  engine: 'vllm',
  label: 'vLLM',
  // vLLM takes X-Request-Id as the request's own id (echoed with --enable-request-id-headers).
  requestIdHeaders: ['X-Request-Id'],
  // vLLM serves the Responses API at /v1/responses (vllm/entrypoints/openai/api_server.py).
  responses: 'stored',
  // vLLM serves pooling models at /v1/embeddings and /v1/rerank (also /rerank, /v2/rerank), and its own
  // score API at /score (/v1/score too): vllm/entrypoints/pooling/score/api_router.py.
  pooling: {
    embeddings: OPENAI_EMBEDDINGS,
    rerank: RERANK_V1,
    more: [
      { endpoint: 'rerank', path: '/rerank', shape: 'rerank' },
      { endpoint: 'rerank', path: '/v2/rerank', shape: 'rerank' },
      { endpoint: 'rerank', path: '/score', shape: 'score' },
      { endpoint: 'rerank', path: '/v1/score', shape: 'score' },
    ],
  },
  rules: VLLM_RULES,
  stream: openAiReading({
    reasoningFields: ['reasoning', 'reasoning_content'],
    reasoningTokenPaths: [['completion_tokens_details', 'reasoning_tokens']],
  }),
  usage: { placement: 'usage-only-chunk', perChunk: 'continuous_usage_stats', cachedTokens: { flag: '--enable-prompt-tokens-details' } },
  errors: { shape: 'nested', statusNotes: {} },
  tokenize: { path: '/tokenize', body: (text, model) => ({ model, prompt: text }) },
  promptLogprobs: '`prompt_logprobs` on chat and completions; completions `echo` + `logprobs`',
  metrics: {
    path: '/metrics',
    enabledBy: null,
    names: {
      ttftSeconds: 'vllm:time_to_first_token_seconds',
      itlSeconds: 'vllm:inter_token_latency_seconds',
      tpotSeconds: 'vllm:time_per_output_token_seconds',
      e2eSeconds: 'vllm:e2e_request_latency_seconds',
      queueSeconds: 'vllm:request_queue_time_seconds',
      running: 'vllm:num_requests_running',
      waiting: 'vllm:num_requests_waiting',
      kvCacheUsage: 'vllm:kv_cache_usage_perc',
      promptTokens: 'vllm:prompt_tokens_total',
      generationTokens: 'vllm:generation_tokens_total',
      prefixCacheHits: 'vllm:prefix_cache_hits_total',
      prefixCacheQueries: 'vllm:prefix_cache_queries_total',
    },
  },
  context: modelsContext(['max_model_len']),
  // vLLM reports no batch settings outside its development mode: the model card's max_model_len is what it says.
  configuration: { route: '/v1/models', select: modelEntryOf },
  // vllm/entrypoints/serve: /reset_prefix_cache is a development route, and the profiler routes need a profiler configured.
  hooks: {
    resetCache: { kind: 'post', path: '/reset_prefix_cache' },
    profiler: { start: '/start_profile', stop: '/stop_profile' },
    needs:
      'vLLM serves /reset_prefix_cache with VLLM_SERVER_DEV_MODE=1, and /start_profile and /stop_profile with a profiler configured (VLLM_TORCH_PROFILER_DIR or --profiler-config)',
  },
  probePaths: ['/version'],
  identify: (e) => byOwner(e, 'vllm'),
});
