/**
 * llama.cpp's llama-server: a role chunk with `content: null`, the finish
 * reason in its own chunk with `delta: {}`, `timings.predicted_n` per chunk
 * with `timings_per_token`, `cache_prompt: false` skipping the prompt cache,
 * cached tokens always in usage, `system_fingerprint` = build id, the
 * `Server: llama.cpp` header, `/props` with `build_info`, nested `{code,message,type}`
 * errors and an error event without `[DONE]` mid-stream.
 */
import { defineSimDialect, jsonRoute } from './define.js';
import { llamacppError, sseWire } from './error-shapes.js';
import { cachedUsage, PLAIN_STREAM } from './openai-style.js';

const BUILD = 'b6500-goodput-sim';

export const llamacpp = defineSimDialect({
  kind: 'llamacpp',
  version: BUILD,
  modelCard: () => ({ owned_by: 'llamacpp' }),
  headers: { server: 'llama.cpp' },
  routes: {
    'GET /props': jsonRoute((p) => ({
      default_generation_settings: { params: { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, n_predict: -1 }, n_ctx: p.maxModelLen },
      total_slots: p.maxBatch,
      model_alias: p.model,
      model_path: `models/${p.model}.gguf`,
      build_info: BUILD,
    })),
  },
  errorBody: llamacppError,
  rules: {
    allowed: null,
    ignored: ['min_tokens', 'cache_salt'],
    ignoredStreamOptions: ['continuous_usage_stats'],
    renamed: {},
    cacheOff: 'cache_prompt',
    progressKey: 'timings_per_token',
  },
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning_content', splitMixed: false },
    role: { kind: 'opening', content: 'null' },
    finish: { kind: 'own-chunk', delta: '{}' },
    extraFields: `,"system_fingerprint":"${BUILD}"`,
    usage: cachedUsage,
    progress: 'timings',
    wire: sseWire((m) => llamacppError(500, m, null, 'server_error'), false),
  },
  overload: null,
});
