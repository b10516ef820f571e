/**
 * llama.cpp's `llama-server` (`ggml-org/llama.cpp`, `tools/server`): `max_tokens`,
 * `ignore_eos` without a minimum, template-kwargs thinking (needs `--jinja`),
 * neutral values for its non-neutral sampler defaults (top_k 40, top_p 0.95,
 * min_p 0.05), exact tokens per chunk from `timings_per_token`
 * (`timings.predicted_n`), `cache_prompt: false` for cold runs.
 */
import { OPENAI_EMBEDDINGS, RERANK_V1, defineOpenAiDialect, openAiReading } from './define.js';
import { header, ownedBy, ownedByLine, routeContext, stringAt, versionLine } from './probe-helpers.js';

export const llamacpp = defineOpenAiDialect({
  // Served when llama-server runs with --embeddings (rerank: --reranking); otherwise it answers 501, which the preflight probe reports.
  // tools/server/server.cpp also routes /rerank and /reranking to the same handler.
  pooling: {
    embeddings: OPENAI_EMBEDDINGS,
    rerank: RERANK_V1,
    more: [
      { endpoint: 'rerank', path: '/rerank', shape: 'rerank' },
      { endpoint: 'rerank', path: '/reranking', shape: 'rerank' },
    ],
    // Started with --embeddings but no --pooling (or --pooling none), it answers 400 "Pooling type 'none' is not OAI compatible…".
    refusalHints: [{ when: /pooling type/i, hint: 'start llama-server with --pooling mean (or cls, last)' }],
  },
  kind: 'llamacpp',
  engine: 'llamacpp',
  label: 'llama.cpp',
  // tools/server/server-chat.cpp turns a /v1/responses request into a chat request: the chat keys apply,
  // and previous_response_id is refused ("llama.cpp does not support 'previous_response_id'").
  responses: 'via-chat',
  // tools/server/server.cpp serves Anthropic's Messages API at /v1/messages (post_anthropic_messages).
  messages: true,
  rules: {
    maxTokensKeys: { chat: ['max_tokens'], completions: ['max_tokens'] },
    length: { kind: 'ignore-eos' },
    thinking: { kind: 'template-kwargs' },
    sampling: { top_p: 1, top_k: 0, min_p: 0, repeat_penalty: 1 },
    streamOptions: { include_usage: true },
    fixed: { timings_per_token: true },
    coldCache: { chat: 'cache_prompt', completions: 'cache_prompt' },
    // common/chat.cpp parses tool_choice as auto, none or required only (tool calls need --jinja).
    namedToolChoice: 'required',
  },
  stream: openAiReading({
    cumulativeTokenPaths: [
      ['usage', 'completion_tokens'],
      ['timings', 'predicted_n'],
    ],
  }),
  usage: { placement: 'usage-only-chunk', perChunk: 'timings_per_token', cachedTokens: 'always' },
  errors: { shape: 'nested', statusNotes: { 503: 'llama.cpp is still loading the model' } },
  tokenize: { path: '/tokenize', body: (text) => ({ content: text }) },
  promptLogprobs: 'none',
  metrics: {
    path: '/metrics',
    enabledBy: '--metrics',
    names: {
      promptTokens: 'llamacpp:prompt_tokens_total',
      generationTokens: 'llamacpp:tokens_predicted_total',
      running: 'llamacpp:requests_processing',
      waiting: 'llamacpp:requests_deferred',
    },
  },
  // The context of one slot (-c divided by --parallel): what a single request may use.
  context: routeContext('/props', ['default_generation_settings', 'n_ctx'], ' (per slot)'),
  configuration: { route: '/props' },
  // tools/server/server-context.cpp: POST /slots/:id_slot?action=erase clears one slot's tokens; every slot action needs --slot-save-path.
  // A prompt kept in host memory (--cache-ram, on by default) can still be restored into a slot: --cache-ram 0 makes the reset whole.
  hooks: {
    resetCache: { kind: 'slots-erase' },
    profiler: null,
    needs: 'llama-server erases slots only when started with --slot-save-path DIR, and keeps prompts in host memory unless started with --cache-ram 0',
  },
  probePaths: ['/props'],
  identify(e) {
    const build = stringAt(e, '/props', 'build_info');
    if (build !== null) return { version: build, evidence: [versionLine('/props', 'build_info', build)] };
    const server = header(e, 'server');
    if (server !== null && server.value.toLowerCase().startsWith('llama.cpp')) {
      return { version: null, evidence: [`GET ${server.path}: header Server "${server.value}"`] };
    }
    return ownedBy(e) === 'llamacpp' ? { version: null, evidence: [ownedByLine('llamacpp')] } : null;
  },
});
