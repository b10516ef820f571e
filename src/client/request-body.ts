/**
 * Builds the JSON body of one streamed request. Engine dialects (which keys each
 * engine honours) are layered on later through `extraBody`.
 */
import type { RequestSpec } from './types.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Serialises `spec` to a request body. Always `stream: true` with
 * `stream_options.include_usage: true`; `maxTokens` goes out as both
 * `max_tokens` and `max_completion_tokens`. `extraBody` is merged last, except
 * that `stream` stays `true` and `stream_options` / `chat_template_kwargs`
 * merge one level deep. Keys whose value is `undefined` are left out.
 * @throws TypeError when `extraBody` cannot be serialised (cycles, BigInt).
 */
export function buildRequestBody(spec: RequestSpec): string {
  const body: Record<string, unknown> = { model: spec.model };
  if (spec.endpoint === 'chat') {
    body.messages = [{ role: 'user', content: spec.prompt }];
  } else {
    body.prompt = spec.prompt;
  }
  body.max_tokens = spec.maxTokens;
  body.max_completion_tokens = spec.maxTokens;
  if (spec.forceLength) {
    body.ignore_eos = true;
    body.min_tokens = spec.maxTokens;
  }
  if (spec.temperature !== undefined) body.temperature = spec.temperature;
  if (spec.seed !== undefined) body.seed = spec.seed;
  const extra = spec.extraBody ?? {};
  Object.assign(body, extra);
  body.stream = true;
  body.stream_options = { include_usage: true, ...(isRecord(extra.stream_options) ? extra.stream_options : {}) };
  if (spec.endpoint === 'chat') {
    const kwargs = isRecord(extra.chat_template_kwargs) ? extra.chat_template_kwargs : {};
    body.chat_template_kwargs = { enable_thinking: spec.thinking, ...kwargs };
  }
  return JSON.stringify(body);
}
