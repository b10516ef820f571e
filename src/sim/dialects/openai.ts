/**
 * The OpenAI API: unknown keys refused ("Unrecognized request argument"),
 * `ignore_eos`/`min_tokens` therefore refused too, reasoning counted in
 * `completion_tokens_details` but never streamed, a role chunk with
 * `content: ""`, `usage: null` on every chunk, nested errors with a string
 * code, `owned_by: "system"` and an `openai-version` header.
 */
import { OPENAI_CHAT_KEYS, OPENAI_COMPLETION_KEYS } from '../../core/index.js';
import { defineSimDialect } from './define.js';
import { nestedStringCode, sseWire } from './error-shapes.js';
import { detailedUsage, PLAIN_STREAM } from './openai-style.js';

export const openai = defineSimDialect({
  kind: 'openai',
  version: null,
  modelCard: () => ({ owned_by: 'system' }),
  headers: { 'openai-version': '2020-10-01' },
  routes: {},
  errorBody: nestedStringCode,
  rules: {
    allowed: {
      chat: new Set(OPENAI_CHAT_KEYS),
      completion: OPENAI_COMPLETION_KEYS,
      streamOptions: new Set(['include_usage', 'include_obfuscation']),
    },
    unknownKey: (key) => ({ status: 400, message: `Unrecognized request argument supplied: ${key}` }),
    ignored: [],
    ignoredStreamOptions: [],
    renamed: {},
  },
  chatStyle: {
    ...PLAIN_STREAM,
    reasoning: { kind: 'hidden' },
    role: { kind: 'opening', content: '""' },
    finish: { kind: 'own-chunk', delta: '{}' },
    extraFields: ',"system_fingerprint":"fp_goodput_sim","service_tier":"default"',
    nullUsage: true,
    usage: detailedUsage,
    wire: sseWire((m) => nestedStringCode(500, m, null, 'server_error'), false),
  },
  overload: null,
});
