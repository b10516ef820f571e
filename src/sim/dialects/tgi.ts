/**
 * TGI: no role-only chunk (every chunk carries the role and one token, even
 * when a step makes several: bursts), reasoning inline as `<think>…</think>`,
 * a `:` keep-alive comment, `system_fingerprint` "<version>-<label>", a usage
 * chunk with `id: ""`, `{error, error_type}` bodies, 422 for both max-token keys
 * at once (its serde alias), no `ignore_eos`/`min_tokens`/template kwargs, 429
 * above `max_concurrent_requests` (128), `/info`.
 */
import { defineSimDialect, jsonRoute } from './define.js';
import { sseWire, tgiError } from './error-shapes.js';
import { PLAIN_STREAM, plainUsage } from './openai-style.js';

const VERSION = '3.3.4+goodput.sim';
const DEFAULT_MAX_CONCURRENT = 128;

export const tgi = defineSimDialect({
  kind: 'tgi',
  version: VERSION,
  modelCard: (p) => ({ owned_by: p.model }),
  headers: {},
  routes: {
    'GET /info': jsonRoute((p) => ({
      model_id: p.model,
      model_sha: null,
      model_pipeline_tag: 'text-generation',
      max_concurrent_requests: p.overloadLimit ?? DEFAULT_MAX_CONCURRENT,
      max_best_of: 2,
      max_stop_sequences: 4,
      max_input_tokens: p.maxModelLen - 1,
      max_total_tokens: p.maxModelLen,
      validation_workers: 2,
      max_client_batch_size: 4,
      router: 'text-generation-router',
      version: VERSION,
      sha: null,
      docker_label: 'goodput-sim',
    })),
  },
  errorBody: tgiError,
  rules: {
    allowed: null,
    exclusive: {
      keys: ['max_tokens', 'max_completion_tokens'],
      status: 422,
      message: 'Failed to deserialize the JSON body into the target type: duplicate field `max_tokens`',
    },
    ignored: ['ignore_eos', 'min_tokens', 'cache_salt', 'chat_template_kwargs', 'reasoning_effort'],
    ignoredStreamOptions: ['continuous_usage_stats'],
    renamed: { max_completion_tokens: 'max_tokens' },
    softThinkingOff: '/no_think',
  },
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'inline' },
    role: { kind: 'every-chunk' },
    finish: { kind: 'on-last' },
    eventPerToken: true,
    preamble: ':\n\n',
    extraFields: `,"system_fingerprint":"${VERSION}-goodput-sim"`,
    usage: plainUsage,
    usageChunkId: '',
    wire: sseWire((m) => JSON.stringify({ error: { message: m, http_status_code: 500 } }), false),
  },
  overload: {
    status: 429,
    message: 'Model is overloaded',
    type: 'overloaded',
    exceeded: (live, p) => live.running + live.waiting >= (p.overloadLimit ?? DEFAULT_MAX_CONCURRENT),
  },
});
