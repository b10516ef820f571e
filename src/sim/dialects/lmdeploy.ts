/**
 * LMDeploy: every delta carries `role: "assistant"`, other chunks carry
 * `usage: null`, reasoning in `reasoning_content` with its count in
 * `completion_tokens_details`, `min_new_tokens` (it ignores `min_tokens` and
 * `cache_salt`), flat errors, `owned_by: "lmdeploy"` and no version route.
 */
import { defineSimDialect } from './define.js';
import { flatError, sseWire } from './error-shapes.js';
import { detailedUsage, PLAIN_STREAM } from './openai-style.js';

export const lmdeploy = defineSimDialect({
  kind: 'lmdeploy',
  version: null,
  modelCard: () => ({ owned_by: 'lmdeploy' }),
  headers: {},
  routes: {},
  errorBody: flatError,
  rules: {
    allowed: null,
    ignored: ['min_tokens', 'cache_salt'],
    ignoredStreamOptions: ['continuous_usage_stats'],
    renamed: { min_new_tokens: 'min_tokens' },
  },
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning_content', splitMixed: false },
    role: { kind: 'every-chunk' },
    finish: { kind: 'on-last' },
    nullUsage: true,
    usage: detailedUsage,
    wire: sseWire((m) => flatError(500, m, null, 'internal_error'), true),
  },
  overload: null,
});
