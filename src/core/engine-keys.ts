/**
 * The request keys an engine's OpenAI-compatible routes accept, as its own
 * request models declare them: the client sends only these (its allowlist) and
 * the simulator playing that engine refuses any other, so both read one
 * declaration of the engine's fact instead of two lists that could drift.
 */

/** TensorRT-LLM (`tensorrt_llm/serve/openai_protocol.py`, pydantic `extra="forbid"`): the keys shared by chat and completions. */
const TRTLLM_SAMPLING = [
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

/** TensorRT-LLM's chat and completion request keys. */
export const TRTLLM_KEYS: { readonly chat: ReadonlySet<string>; readonly completions: ReadonlySet<string> } = {
  chat: new Set([
    ...TRTLLM_SAMPLING,
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
  completions: new Set([...TRTLLM_SAMPLING, 'prompt', 'max_tokens', 'suffix', 'return_context_logits', 'detokenize']),
};

/** The OpenAI API: the keys chat and completions share. */
const OPENAI_COMMON_KEYS = [
  'model',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'user',
  'seed',
  'max_tokens',
];

/** The OpenAI API's chat request keys the simulator playing it takes (the client's allowlist adds newer ones it never sends). */
export const OPENAI_CHAT_KEYS: readonly string[] = [
  ...OPENAI_COMMON_KEYS,
  'messages',
  'max_completion_tokens',
  'top_logprobs',
  'reasoning_effort',
  'response_format',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'service_tier',
  'store',
  'metadata',
  'prompt_cache_key',
];

/** The OpenAI API's completion request keys (the legacy route takes no newer chat keys). */
export const OPENAI_COMPLETION_KEYS: ReadonlySet<string> = new Set([...OPENAI_COMMON_KEYS, 'prompt', 'echo', 'suffix', 'best_of']);
