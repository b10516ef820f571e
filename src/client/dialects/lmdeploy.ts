/**
 * LMDeploy (`InternLM/lmdeploy`): `ignore_eos` + `min_new_tokens` (not
 * `min_tokens`), template-kwargs thinking, top_k sent as 0 because its request
 * default is 40, reasoning in `reasoning_content` with the count in
 * `completion_tokens_details`, flat errors with stable codes, `/v1/encode`.
 */
import { defineOpenAiDialect, openAiReading } from './define.js';
import { byOwner } from './probe-helpers.js';

export const lmdeploy = defineOpenAiDialect({
  kind: 'lmdeploy',
  engine: 'lmdeploy',
  label: 'LMDeploy',
  rules: {
    maxTokensKeys: { chat: ['max_tokens', 'max_completion_tokens'], completions: ['max_tokens'] },
    length: { kind: 'ignore-eos-min', minKey: 'min_new_tokens' },
    thinking: { kind: 'template-kwargs' },
    sampling: { top_p: 1, top_k: 0, min_p: 0 },
    streamOptions: { include_usage: true },
  },
  stream: openAiReading({ reasoningTokenPaths: [['completion_tokens_details', 'reasoning_tokens']] }),
  usage: { placement: 'usage-only-chunk', perChunk: 'none', cachedTokens: 'always' },
  errors: { shape: 'flat', statusNotes: { 503: 'LMDeploy engine unavailable', 499: 'request cancelled by the server' } },
  tokenize: { path: '/v1/encode', body: (text) => ({ input: text, do_preprocess: false, add_bos: true }) },
  promptLogprobs: 'none (`POST /get_ppl` returns perplexity only)',
  metrics: {
    path: '/metrics',
    enabledBy: null,
    names: {
      ttftSeconds: 'lmdeploy:time_to_first_token_seconds',
      tpotSeconds: 'lmdeploy:time_per_output_token_seconds',
      e2eSeconds: 'lmdeploy:e2e_request_latency_seconds',
      running: 'lmdeploy:num_requests_running',
      waiting: 'lmdeploy:num_requests_waiting',
      kvCacheUsage: 'lmdeploy:gpu_cache_usage_perc',
      prefixCacheHitRate: 'lmdeploy:prefix_cache_hit_rate',
    },
  },
  context: null,
  probePaths: [],
  identify: (e) => byOwner(e, 'lmdeploy'),
});
