/**
 * Hugging Face Text Embeddings Inference (`huggingface/text-embeddings-inference`):
 * embeddings and rerank only, no text generation. Its own routes are `/embed`
 * (`{inputs}` → a bare array of vectors) and `/rerank` (`{query, texts}` → a bare
 * `[{index, score}]`), plus OpenAI's `/v1/embeddings`; token counts come in the
 * `x-compute-tokens` header; there is no `/v1/models`, the model is `/info`'s
 * `model_id` (router/src/http/server.rs, router/src/lib.rs `Info`).
 */
import { OPENAI_EMBEDDINGS, defineOpenAiDialect, openAiReading } from './define.js';
import { okJson, versionLine } from './probe-helpers.js';
import type { ProbeEvidence } from './types.js';

/** `/info` as TEI answers it: `model_type` is `{embedding}`, `{reranker}` or `{classifier}`. */
function teiInfo(e: ProbeEvidence): Record<string, unknown> | null {
  const info = okJson(e, '/info');
  const type = info?.model_type;
  if (info === null || typeof type !== 'object' || type === null) return null;
  const kinds = Object.keys(type);
  return kinds.length === 1 && ['embedding', 'reranker', 'classifier'].includes(kinds[0] as string) && 'max_client_batch_size' in info ? info : null;
}

export const tei = defineOpenAiDialect({
  kind: 'tei',
  engine: 'tei',
  label: 'TEI',
  pooling: {
    embeddings: OPENAI_EMBEDDINGS,
    rerank: { path: '/rerank', shape: 'tei-rerank' },
    more: [
      { endpoint: 'embeddings', path: '/embed', shape: 'tei-embed' },
      { endpoint: 'embeddings', path: '/embeddings', shape: 'openai' },
    ],
  },
  // The generation fields below are never used: a text sweep is refused first.
  rules: {
    maxTokensKeys: { chat: ['max_tokens'], completions: ['max_tokens'] },
    length: { kind: 'cannot', reason: 'TEI generates no text' },
    thinking: { kind: 'prompt-only' },
    sampling: {},
    streamOptions: {},
  },
  stream: openAiReading({ reasoningFields: [] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'never' },
  // TEI answers {error, error_type}; 413 for a batch above max_client_batch_size, 424 for a model of the wrong kind.
  errors: {
    shape: 'tgi',
    statusNotes: {
      413: "batch too large (above TEI's --max-client-batch-size)",
      424: 'inference failed (for rerank: the model is not a reranker)',
      429: 'overloaded',
    },
  },
  tokenize: { path: '/tokenize', body: (text) => ({ inputs: text, add_special_tokens: false }) },
  promptLogprobs: 'none',
  metrics: { path: '/metrics', enabledBy: null, names: {} },
  context: null,
  probePaths: ['/info'],
  identify(e) {
    const info = teiInfo(e);
    if (info === null) return null;
    const version = typeof info.version === 'string' ? info.version : null;
    const kind = Object.keys(info.model_type as object)[0] as string;
    return { version, evidence: [version === null ? `GET /info: TEI model_type ${kind}` : `${versionLine('/info', 'version', version)}, model_type ${kind}`] };
  },
});

/** Longest `model_id` taken from `/info`: a model name, not a document. */
const MODEL_ID_CHARS = 512;

/** TEI has no `/v1/models`: the model it serves is `/info`'s `model_id` (a plain line of text, or none). */
export const teiDialect = {
  ...tei,
  generatesText: false,
  servedModel: (e: ProbeEvidence) => {
    const id = teiInfo(e)?.model_id;
    // eslint-disable-next-line no-control-regex
    return typeof id === 'string' && id !== '' && id.length <= MODEL_ID_CHARS && !/[\u0000-\u001f\u007f-\u009f]/.test(id) ? id : null;
  },
};
