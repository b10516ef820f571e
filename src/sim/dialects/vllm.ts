/**
 * vLLM: a role-only first chunk with `content: ""`, reasoning in `reasoning`
 * (the name since PR #27752), finish reason on the last token chunk, a trailing
 * usage-only chunk, cumulative usage per chunk with `continuous_usage_stats`
 * (only together with include_usage), nested errors with an integer code and
 * `data: {"error":…}` then `[DONE]` mid-stream. `/version`, `owned_by: "vllm"`.
 */
import { defineSimDialect, versionRoute } from './define.js';
import { nestedIntCode, sseWire } from './error-shapes.js';
import { detailedUsage, PLAIN_STREAM } from './openai-style.js';
import { PERMISSIVE } from './request-rules.js';

const VERSION = '0.11.0+goodput.sim';

export const vllm = defineSimDialect({
  kind: 'vllm',
  version: VERSION,
  modelCard: () => ({ owned_by: 'vllm' }),
  headers: {},
  routes: { 'GET /version': versionRoute(VERSION) },
  errorBody: nestedIntCode,
  rules: PERMISSIVE,
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning', splitMixed: false },
    role: { kind: 'opening', content: '""' },
    finish: { kind: 'on-last' },
    usage: detailedUsage,
    wire: sseWire((m) => nestedIntCode(500, m, null, 'InternalServerError'), true),
  },
  overload: null,
});
