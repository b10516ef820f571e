/**
 * TensorRT-LLM's trtllm-serve: pydantic `extra="forbid"` (an unknown key is a
 * 400), a role-only first chunk without content written `data: {…} \n\n` (a
 * stray space on every event), reasoning in `reasoning_content`, cached tokens
 * always, `include_usage` true by default once `stream_options` is sent,
 * `cache_salt` on chat only, flat errors, `/version`, `owned_by: "tensorrt_llm"`.
 */
import { defineSimDialect, versionRoute } from './define.js';
import { flatError, sseWire } from './error-shapes.js';
import { cachedUsage } from './openai-style.js';

const VERSION = '1.1.0+goodput.sim';
// The same list as the client's allowlist, kept apart on purpose: the simulator plays
// the server, so a key the client should not send shows up as a refused request.
const COMMON = [
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

export const trtllm = defineSimDialect({
  kind: 'trtllm',
  version: VERSION,
  modelCard: () => ({ owned_by: 'tensorrt_llm' }),
  headers: {},
  routes: { 'GET /version': versionRoute(VERSION) },
  errorBody: flatError,
  rules: {
    allowed: {
      chat: new Set([
        ...COMMON,
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
      ]),
      completion: new Set([...COMMON, 'prompt', 'max_tokens', 'suffix', 'return_context_logits', 'detokenize']),
      streamOptions: new Set(['include_usage', 'continuous_usage_stats']),
    },
    unknownKey: (key) => ({ status: 400, message: `1 validation error for request\n${key}\n  Extra inputs are not permitted` }),
    exclusive: { keys: ['max_tokens', 'max_completion_tokens'], status: 400, message: 'max_completion_tokens: Extra inputs are not permitted' },
    ignored: [],
    ignoredStreamOptions: [],
    renamed: {},
    includeUsageByDefault: true,
  },
  chatStyle: {
    reasoning: { kind: 'field', field: 'reasoning_content', splitMixed: false },
    role: { kind: 'opening', content: null },
    finish: { kind: 'on-last' },
    eventPerToken: false,
    preamble: '',
    completionOpening: true,
    eventSuffix: ' ',
    extraFields: '',
    nullUsage: false,
    usage: cachedUsage,
    usageChunkId: null,
    progress: 'usage',
    wire: sseWire((m) => flatError(500, m, null, 'InternalServerError'), true, ' '),
  },
  overload: null,
});
