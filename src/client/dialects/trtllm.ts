/**
 * TensorRT-LLM's `trtllm-serve` (`NVIDIA/TensorRT-LLM`, `tensorrt_llm/serve/`):
 * pydantic `extra="forbid"`, so only keys of its request models are sent;
 * `max_tokens` (the alias of `max_completion_tokens`; both at once is an extra
 * key), `ignore_eos` + `min_tokens`, `continuous_usage_stats`, `cache_salt` on
 * chat only, Prometheus at `/prometheus/metrics` (`/metrics` is JSON, emptied when read).
 */
import { defineOpenAiDialect, openAiReading } from './define.js';
import { byOwner } from './probe-helpers.js';

const SAMPLING_KEYS = [
  'model',
  'seed',
  'stop',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'n',
  'best_of',
  'frequency_penalty',
  'presence_penalty',
  'logit_bias',
  'logprobs',
  'use_beam_search',
  'top_k',
  'top_p_min',
  'min_p',
  'repetition_penalty',
  'length_penalty',
  'early_stopping',
  'stop_token_ids',
  'include_stop_str_in_output',
  'ignore_eos',
  'min_tokens',
  'skip_special_tokens',
  'spaces_between_special_tokens',
  'truncate_prompt_tokens',
  'add_special_tokens',
  'response_format',
  'priority',
  'thinking_token_budget',
  'user',
  'echo',
  'lora_request',
  'prompt_ignore_length',
];
const CHAT_KEYS = new Set([
  ...SAMPLING_KEYS,
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning_effort',
  'thinking',
  'add_generation_prompt',
  'documents',
  'chat_template',
  'chat_template_kwargs',
  'cache_salt',
  'mm_processor_kwargs',
]);
const COMPLETION_KEYS = new Set([...SAMPLING_KEYS, 'prompt', 'max_tokens', 'suffix', 'return_context_logits', 'detokenize']);

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
    fixed: {},
    coldCache: { chat: 'cache_salt', completions: null },
    acceptedKeys: { chat: CHAT_KEYS, completions: COMPLETION_KEYS },
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
