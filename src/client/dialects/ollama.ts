/**
 * Ollama through its OpenAI-compatible `/v1` API (`ollama/ollama`, `openai/`):
 * `max_tokens` only (it ignores `max_completion_tokens`, so output would be
 * unbounded), no way to force the length, `reasoning_effort: "none"` turns
 * thinking off (not for gpt-oss), reasoning in `reasoning`, 503 when its queue
 * is full, no metrics and no tokenize route.
 */
import { OPENAI_EMBEDDINGS, defineOpenAiDialect, openAiReading } from './define.js';
import { stringAt, versionLine } from './probe-helpers.js';
import type { Identification, ProbeEvidence } from './types.js';

/** Facts about Ollama a run should carry, whichever API it uses. */
export const OLLAMA_NOTES = [
  'requests run OLLAMA_NUM_PARALLEL at a time (1 on many installs) and the rest queue, so concurrency may be serialised',
  'prompts longer than num_ctx are truncated silently (compare prompt tokens with what was sent)',
  'a cold model load lands in the first request (the warm-up absorbs it)',
];

/** Ollama answers `GET /api/version` with `{"version": …}`. */
export function identifyOllama(e: ProbeEvidence): Identification | null {
  const version = stringAt(e, '/api/version', 'version');
  return version === null ? null : { version, evidence: [versionLine('/api/version', 'version', version)] };
}

export const ollama = defineOpenAiDialect({
  // Ollama's OpenAI-compatible layer has /v1/embeddings; it has no rerank.
  pooling: { embeddings: OPENAI_EMBEDDINGS },
  kind: 'ollama',
  engine: 'ollama',
  label: 'Ollama',
  rules: {
    maxTokensKeys: { chat: ['max_tokens'], completions: ['max_tokens'] },
    length: { kind: 'cannot', reason: 'Ollama only caps the length (max_tokens / num_predict)' },
    thinking: { kind: 'ollama', key: 'reasoning_effort' },
    // /v1 forces temperature and top_p to 1 when they are not given.
    sampling: { top_p: 1 },
    streamOptions: { include_usage: true },
  },
  notes: OLLAMA_NOTES,
  stream: openAiReading({ reasoningFields: ['reasoning'] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'never' },
  errors: { shape: 'nested', statusNotes: { 503: 'server busy (Ollama rejects requests beyond OLLAMA_MAX_QUEUE, default 512)' } },
  tokenize: null,
  promptLogprobs: 'none',
  metrics: { path: null, enabledBy: null, names: {} },
  context: null,
  probePaths: ['/api/version'],
  identify: identifyOllama,
});
