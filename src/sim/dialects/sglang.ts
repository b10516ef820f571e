/**
 * SGLang: a role chunk with `content: ""`, reasoning in `reasoning_content`,
 * the finish reason in a chunk of its own after the tokens, the reasoning count
 * in top-level `usage.reasoning_tokens`, flat errors, `/get_server_info` with
 * its version and `owned_by: "sglang"`.
 */
import { defineSimDialect, jsonRoute } from './define.js';
import { flatError, sseWire } from './error-shapes.js';
import { PLAIN_STREAM } from './openai-style.js';
import type { UsageCounts } from '../response-format.js';
import { PERMISSIVE } from './request-rules.js';

const VERSION = '0.5.3+goodput.sim';

const usage = (u: UsageCounts): string =>
  `{"prompt_tokens":${u.promptTokens},"total_tokens":${u.promptTokens + u.completionTokens},"completion_tokens":${u.completionTokens},"prompt_tokens_details":{"cached_tokens":${u.cachedTokens}},"reasoning_tokens":${u.reasoningTokens}}`;

export const sglang = defineSimDialect({
  kind: 'sglang',
  version: VERSION,
  modelCard: () => ({ owned_by: 'sglang' }),
  headers: {},
  routes: {
    'GET /get_server_info': jsonRoute((p) => ({
      version: VERSION,
      model_path: p.model,
      served_model_name: p.model,
      tp_size: 1,
      max_running_requests: p.maxBatch,
      max_total_num_tokens: p.kvCacheTokens,
      context_length: p.maxModelLen,
      stream_interval: p.tokensPerChunk,
    })),
    'GET /get_model_info': jsonRoute((p) => ({ model_path: p.model, tokenizer_path: p.model, is_generation: true })),
  },
  errorBody: flatError,
  rules: PERMISSIVE,
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning_content', splitMixed: false },
    role: { kind: 'opening', content: '""' },
    finish: { kind: 'own-chunk', delta: '{"role":null,"content":null,"reasoning_content":null}' },
    usage,
    wire: sseWire((m) => flatError(500, m, null, 'InternalServerError'), true),
  },
  overload: null,
});
