/**
 * Hugging Face TGI (`huggingface/text-generation-inference`, in maintenance
 * mode): `max_tokens` only (sending its alias too is a duplicate-field error),
 * no way to force the length, no thinking switch but Qwen3's `/no_think`,
 * reasoning inline in content, `{error, error_type}` bodies, 429 above
 * `max_concurrent_requests`, `:` keep-alive comments.
 */
import { defineOpenAiDialect, openAiReading } from './define.js';
import { okJson, routeContext, versionLine } from './probe-helpers.js';

export const tgi = defineOpenAiDialect({
  kind: 'tgi',
  engine: 'tgi',
  label: 'TGI',
  rules: {
    maxTokensKeys: { chat: ['max_tokens'], completions: ['max_tokens'] },
    length: { kind: 'cannot', reason: 'TGI has no ignore_eos or min_tokens, only max_tokens' },
    thinking: { kind: 'prompt-only' },
    // top_p must lie strictly inside (0, 1) and top_k be positive: leaving them out is TGI's neutral setting.
    sampling: {},
    streamOptions: { include_usage: true },
    // router/src/lib.rs GrammarType: `{type: "json", value: schema}` is read by every TGI version (json_schema only by newer ones).
    answerSchema: 'tgi-grammar',
  },
  stream: openAiReading({ reasoningFields: [] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'never' },
  errors: {
    shape: 'tgi',
    statusNotes: {
      422: 'validation error (TGI answers 422 for an input longer than max_input_tokens)',
      424: 'generation error',
      429: 'overloaded (TGI rejects requests above max_concurrent_requests, default 128)',
    },
  },
  tokenize: { path: '/tokenize', body: (text) => ({ inputs: text }) },
  promptLogprobs: 'native `/generate` with `decoder_input_details` (not streamed)',
  metrics: {
    path: '/metrics',
    enabledBy: null,
    names: {
      requestDuration: 'tgi_request_duration',
      queueSeconds: 'tgi_request_queue_duration',
      tpotSeconds: 'tgi_request_mean_time_per_token_duration',
      waiting: 'tgi_queue_size',
      running: 'tgi_batch_current_size',
      promptTokens: 'tgi_request_input_length',
      generationTokens: 'tgi_request_generated_tokens',
    },
  },
  // Prompt plus output must stay within max_total_tokens (TGI answers 422 past it).
  context: routeContext('/info', ['max_total_tokens']),
  configuration: { route: '/info' },
  probePaths: ['/info'],
  identify(e) {
    const info = okJson(e, '/info');
    if (info === null) return null;
    const router = typeof info.router === 'string' ? info.router : '';
    const looksTgi = router.includes('text-generation') || ('model_id' in info && 'max_total_tokens' in info);
    if (!looksTgi) return null;
    const version = typeof info.version === 'string' ? info.version : null;
    return { version, evidence: [version === null ? 'GET /info: TGI router info' : versionLine('/info', 'version', version)] };
  },
});
