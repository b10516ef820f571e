/**
 * The body of a request to Anthropic's Messages API (`POST /v1/messages`), in
 * the API's own shape: `model`, `max_tokens` (required), the conversation as
 * `messages` (a session's earlier turns, then the user's message), `stream`,
 * the temperature and nucleus value sent explicitly, and extended thinking as
 * `thinking: {type: "enabled", budget_tokens}` when thinking is on. The API has
 * no way to force the output length (no ignore_eos, no minimum): the run warns,
 * and requests that end short are flagged. Images, audio, tools and JSON
 * schemas are not sent in this shape (the sweep refuses them before sending).
 */
import type { RequestSpec } from '../types.js';
import { mergeExtra } from './compose.js';

/** The smallest thinking budget the API takes. */
export const MIN_THINKING_BUDGET = 1024;

/** Tokens of the output cap given to thinking: half the cap, at least the API's minimum (the cap must exceed it). */
export function thinkingBudget(maxTokens: number): number {
  return Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2));
}

/** The JSON body of `spec` for the Messages API. `stream` is always true. */
export function messagesBody(spec: RequestSpec): string {
  const body: Record<string, unknown> = {
    model: spec.model,
    max_tokens: spec.maxTokens,
    messages: [...(spec.history ?? []), { role: 'user', content: spec.prompt }],
  };
  // Thinking takes no temperature but 1 and no top_p below 0.95: the API refuses both.
  if (spec.thinking) body.thinking = { type: 'enabled', budget_tokens: thinkingBudget(spec.maxTokens) };
  else {
    if (spec.temperature !== undefined) body.temperature = spec.temperature;
    if (spec.topP !== undefined) body.top_p = spec.topP;
  }
  mergeExtra(body, spec.extraBody, 'any');
  mergeExtra(body, spec.passThrough, 'any');
  body.stream = true;
  return JSON.stringify(body);
}
