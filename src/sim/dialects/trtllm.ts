/**
 * TensorRT-LLM's trtllm-serve: pydantic `extra="forbid"` (an unknown key is a
 * 400), a role-only first chunk without content written `data: {…} \n\n` (a
 * stray space on every event), reasoning in `reasoning_content`, cached tokens
 * always, `include_usage` true by default once `stream_options` is sent,
 * `cache_salt` on chat only, flat errors, `/version`, `owned_by: "tensorrt_llm"`.
 */
import { TRTLLM_KEYS } from '../../core/index.js';
import { defineSimDialect, versionRoute } from './define.js';
import { flatError, sseWire } from './error-shapes.js';
import { cachedUsage, PLAIN_STREAM } from './openai-style.js';

const VERSION = '1.1.0+goodput.sim';

export const trtllm = defineSimDialect({
  kind: 'trtllm',
  version: VERSION,
  modelCard: () => ({ owned_by: 'tensorrt_llm' }),
  headers: {},
  routes: { 'GET /version': versionRoute(VERSION) },
  errorBody: flatError,
  rules: {
    allowed: {
      chat: TRTLLM_KEYS.chat,
      completion: TRTLLM_KEYS.completions,
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
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning_content', splitMixed: false },
    role: { kind: 'opening', content: null },
    finish: { kind: 'on-last' },
    completionOpening: true,
    eventSuffix: ' ',
    usage: cachedUsage,
    wire: sseWire((m) => flatError(500, m, null, 'InternalServerError'), true, ' '),
  },
  overload: null,
});
