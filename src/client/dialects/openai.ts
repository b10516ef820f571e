/**
 * The OpenAI API: `max_completion_tokens` on chat (reasoning models reject
 * `max_tokens`), unknown keys rejected (so only an allowlist is sent), no way to
 * force the length, `reasoning_effort` for reasoning models (which also reject
 * sampling parameters), reasoning counted but never returned, and
 * `include_obfuscation: false` so deltas carry no padding.
 */
import { OPENAI_CHAT_KEYS, OPENAI_COMPLETION_KEYS } from '../../core/index.js';
import { OPENAI_EMBEDDINGS, defineOpenAiDialect, openAiReading } from './define.js';
import { modelFamily } from './model-family.js';
import { header, ownedBy, ownedByLine } from './probe-helpers.js';
import type { Dialect } from './types.js';

const CHAT_KEYS = new Set([...OPENAI_CHAT_KEYS, 'safety_identifier', 'verbosity', 'modalities', 'audio', 'prediction', 'web_search_options']);
const OWNERS = new Set(['system', 'openai', 'openai-internal']);

const base = defineOpenAiDialect({
  kind: 'openai',
  engine: 'openai',
  label: 'OpenAI',
  // The OpenAI API keeps a caller's id given in X-Client-Request-Id with its own x-request-id.
  requestIdHeaders: ['X-Client-Request-Id'],
  responses: 'stored',
  pooling: { embeddings: OPENAI_EMBEDDINGS },
  rules: {
    maxTokensKeys: { chat: ['max_completion_tokens'], completions: ['max_tokens'] },
    length: { kind: 'cannot', reason: 'the OpenAI API has no ignore_eos or min_tokens' },
    thinking: { kind: 'reasoning-effort' },
    sampling: { top_p: 1 },
    streamOptions: { include_usage: true, include_obfuscation: false },
    acceptedKeys: { chat: CHAT_KEYS, completions: OPENAI_COMPLETION_KEYS },
    samplingAllowed: (model) => modelFamily(model).kind !== 'openai-reasoning',
  },
  stream: openAiReading({
    reasoningFields: [],
    inlineThink: false,
    reasoningTokenPaths: [['completion_tokens_details', 'reasoning_tokens']],
  }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'always' },
  errors: { shape: 'nested', statusNotes: { 429: 'rate limited or out of quota' } },
  tokenize: null,
  promptLogprobs: 'none',
  metrics: { path: null, enabledBy: null, names: {} },
  context: null,
  probePaths: [],
  identify(e) {
    const owner = ownedBy(e);
    if (owner !== null && OWNERS.has(owner)) return { version: null, evidence: [ownedByLine(owner)] };
    const h = header(e, 'openai-version');
    return h === null ? null : { version: null, evidence: [`GET ${h.path}: header openai-version "${h.value}"`] };
  },
});

/** OpenAI, plus a note when the model is a reasoning model that takes no sampling parameters. */
export const openai: Dialect = {
  ...base,
  warnings: (s) => [
    ...base.warnings(s),
    ...(modelFamily(s.model).kind === 'openai-reasoning'
      ? [
          {
            code: 'engine-note' as const,
            message: `OpenAI: ${s.model} takes no sampling parameters, so temperature and top_p are not sent (the model samples at its own settings)`,
          },
        ]
      : []),
  ],
};
