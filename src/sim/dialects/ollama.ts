/**
 * Ollama through `/v1`: the role on the first emitted chunk, reasoning in
 * `reasoning` with thinking and content of one step split into two chunks, a
 * separate finish chunk, usage with prompt/completion/total only, and it
 * ignores `max_completion_tokens`, `ignore_eos`, `min_tokens` and template
 * kwargs. 503 "server busy" beyond its queue (512). Identity: `/api/version`,
 * `GET /` ("Ollama is running"), `/api/tags`; plus the native NDJSON API.
 */
import { defineSimDialect, jsonRoute } from './define.js';
import { nestedNullCode, sseWire } from './error-shapes.js';
import { OLLAMA_NATIVE_ROUTES } from './ollama-native.js';
import { PLAIN_STREAM, plainUsage } from './openai-style.js';

const VERSION = '0.12.6-goodput-sim';
const DEFAULT_MAX_QUEUE = 512;

export const ollama = defineSimDialect({
  kind: 'ollama',
  version: VERSION,
  modelCard: () => ({ owned_by: 'library' }),
  headers: {},
  routes: {
    'GET /api/version': jsonRoute(() => ({ version: VERSION })),
    'GET /': () => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'Ollama is running' }),
    'GET /api/tags': jsonRoute((p) => ({
      models: [{ name: p.model, model: p.model, modified_at: '2026-01-01T00:00:00Z', size: 0, digest: '', details: { format: 'gguf' } }],
    })),
  },
  nativeRoutes: OLLAMA_NATIVE_ROUTES,
  errorBody: nestedNullCode,
  rules: {
    allowed: null,
    ignored: ['max_completion_tokens', 'ignore_eos', 'min_tokens', 'cache_salt', 'chat_template_kwargs'],
    ignoredStreamOptions: ['continuous_usage_stats'],
    renamed: {},
  },
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'field', field: 'reasoning', splitMixed: true },
    role: { kind: 'first-chunk' },
    finish: { kind: 'own-chunk', delta: '{"role":"assistant","content":""}' },
    extraFields: ',"system_fingerprint":"fp_ollama"',
    usage: plainUsage,
    wire: sseWire((m) => nestedNullCode(500, m, null, 'api_error'), false),
  },
  overload: {
    status: 503,
    message: 'server busy, please try again.  maximum pending requests exceeded',
    type: 'api_error',
    exceeded: (live, p) => live.waiting >= (p.overloadLimit ?? DEFAULT_MAX_QUEUE),
  },
});
