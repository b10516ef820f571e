/**
 * Prompt logprobs of the reference text: one completions request with
 * `echo: true, logprobs: 1, max_tokens: 1` (vLLM, SGLang and OpenAI-style
 * servers answer with the prompt's `token_logprobs`). A server that refuses it
 * (4xx) or answers without prompt logprobs yields a reason, not an error: the
 * perplexity component is then `not recorded`. vLLM's `prompt_logprobs` extension
 * is not used: which entry of each map is the prompt token itself varies between
 * vLLM versions, and vLLM answers echo anyway.
 */
import type { ScoredText } from '../core/index.js';
import type { JsonPoster } from './json-poster.js';
import { parseEchoLogprobs } from './logprobs-response.js';
import { QualityError } from './quality-error.js';

const PATH = '/v1/completions';

/** The body of the echo request for `text`. */
export function echoBody(model: string, text: string): Record<string, unknown> {
  return { model, prompt: text, max_tokens: 1, temperature: 0, echo: true, logprobs: 1 };
}

/**
 * The reference text as the server scores it, or the reason it cannot.
 * @throws QualityError('unreachable' | 'http-error') when the server fails (not a 4xx refusal).
 */
export async function promptLogprobs(poster: JsonPoster, model: string, text: string): Promise<ScoredText | string> {
  const a = await poster.post(PATH, echoBody(model, text));
  // The reason is stored with the score and can be published: the side and the route, never the server's address.
  if (a.status >= 400 && a.status < 500) {
    return `the ${poster.side} server's ${PATH} refused echo + logprobs (HTTP ${a.status}: ${a.error})`;
  }
  if (a.status < 200 || a.status >= 300) throw new QualityError('http-error', `${poster.where(PATH)} answered HTTP ${a.status}: ${a.error}`);
  const scored = parseEchoLogprobs(a.body, 1);
  return typeof scored === 'string' ? `the ${poster.side} server's ${PATH}: ${scored}` : scored;
}
