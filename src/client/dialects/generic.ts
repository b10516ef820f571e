/**
 * Any other OpenAI-compatible server: the behaviour before dialects existed.
 * Both max-token keys, `ignore_eos` + `min_tokens`, `chat_template_kwargs`
 * thinking, both reasoning field names and both reasoning-count places read.
 * Detection falls back to it; its version comes from `/version` when answered.
 */
import { OPENAI_EMBEDDINGS, RERANK_V1, defineOpenAiDialect, openAiReading } from './define.js';
import { modelsContext, stringAt, versionLine } from './probe-helpers.js';

export const generic = defineOpenAiDialect({
  kind: 'generic',
  engine: 'generic',
  label: 'OpenAI-compatible server',
  // Tried as the OpenAI API has it; a server without it answers 404, a failed request.
  responses: 'stored',
  // Anthropic's Messages API, as Anthropic and the servers that copy it serve it.
  messages: true,
  // Any other OpenAI-compatible server (TEI among them): tried, and refused by the preflight probe when absent.
  pooling: { embeddings: OPENAI_EMBEDDINGS, rerank: RERANK_V1 },
  rules: {
    maxTokensKeys: { chat: ['max_tokens', 'max_completion_tokens'], completions: ['max_tokens', 'max_completion_tokens'] },
    length: { kind: 'ignore-eos-min', minKey: 'min_tokens' },
    thinking: { kind: 'template-kwargs' },
    sampling: {},
    streamOptions: { include_usage: true },
  },
  stream: openAiReading({
    reasoningFields: ['reasoning_content', 'reasoning'],
    reasoningTokenPaths: [['completion_tokens_details', 'reasoning_tokens'], ['reasoning_tokens']],
  }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'unknown' },
  errors: { shape: 'nested', statusNotes: {} },
  tokenize: { path: '/tokenize', body: (text, model) => ({ model, prompt: text }) },
  promptLogprobs: 'unknown',
  metrics: { path: '/metrics', enabledBy: null, names: {} },
  // Read only when a server volunteers vLLM's field.
  context: modelsContext(['max_model_len']),
  probePaths: ['/version'],
  identify(e) {
    const version = stringAt(e, '/version', 'version');
    const evidence = ['no engine-specific answer; /v1/models answers in the OpenAI shape'];
    return { version, evidence: version === null ? evidence : [...evidence, versionLine('/version', 'version', version)] };
  },
});
