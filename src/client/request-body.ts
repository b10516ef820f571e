/**
 * The request body of a generic OpenAI-compatible server (the `generic`
 * dialect). Engine-specific bodies are built by each dialect (see dialects/).
 */
import { generic } from './dialects/generic.js';
import type { RequestSpec } from './types.js';

/**
 * Serialises `spec` for a generic server: `stream: true` with
 * `stream_options.include_usage`, `maxTokens` as both `max_tokens` and
 * `max_completion_tokens`, `ignore_eos` + `min_tokens` when forced, thinking as
 * `chat_template_kwargs`. `extraBody` is merged last (`stream` stays true;
 * `stream_options` / `chat_template_kwargs` merge one level deep; `undefined` removes a key).
 * @throws TypeError when `extraBody` cannot be serialised (cycles, BigInt).
 */
export function buildRequestBody(spec: RequestSpec): string {
  return generic.buildBody(spec);
}
