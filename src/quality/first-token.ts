/**
 * First-token logprob requests: `max_tokens: 1`, `temperature: 0`, thinking off,
 * and top_logprobs k. Probing finds the largest k a server accepts by walking
 * {@link TOP_K_LADDER} down (vLLM caps at --max-logprobs, 20 by default; TGI at 5;
 * OpenAI and Ollama at 20) until one is answered with logprobs.
 */
import type { TokenLogprob } from '../core/index.js';
import type { JsonAnswer, JsonPoster } from './json-poster.js';
import { parseFirstTokenTop } from './logprobs-response.js';
import { QualityError } from './quality-error.js';

/** top_logprobs values tried, largest first. */
export const TOP_K_LADDER: readonly number[] = [20, 10, 5, 2, 1];

/** The API the first-token requests go to. */
export type QualityEndpoint = 'chat' | 'completions';

const PATHS: Readonly<Record<QualityEndpoint, string>> = { chat: '/v1/chat/completions', completions: '/v1/completions' };

/** The request body for one prompt's first token with k alternatives. */
export function firstTokenBody(endpoint: QualityEndpoint, model: string, prompt: string, k: number): Record<string, unknown> {
  const common = { model, max_tokens: 1, temperature: 0 };
  if (endpoint === 'completions') return { ...common, prompt, logprobs: k };
  return {
    ...common,
    messages: [{ role: 'user', content: prompt }],
    logprobs: true,
    top_logprobs: k,
    chat_template_kwargs: { enable_thinking: false },
  };
}

/** A 4xx that says "not this k" (vLLM 400, TGI 422) rather than "not at all". */
const refusesK = (a: JsonAnswer): boolean => a.status === 400 || a.status === 422;

function parsed(poster: JsonPoster, path: string, a: JsonAnswer): TokenLogprob[] {
  const top = parseFirstTokenTop(a.body);
  if (typeof top === 'string') {
    throw new QualityError(
      'no-logprobs',
      `${poster.where(path)} answered without usable first-token logprobs (${top}); the quality score needs top_logprobs from both servers.`,
    );
  }
  if (top.length === 0) {
    throw new QualityError(
      'no-logprobs',
      `${poster.where(path)} returned an empty top_logprobs list; the quality score needs at least one alternative per token.`,
    );
  }
  return top;
}

/**
 * The largest k of the ladder that the server answers with logprobs.
 * @throws QualityError when every k is refused or the server answers another error.
 */
export async function probeTopK(poster: JsonPoster, endpoint: QualityEndpoint, model: string, prompt: string): Promise<number> {
  const path = PATHS[endpoint];
  let last = '';
  for (const k of TOP_K_LADDER) {
    const a = await poster.post(path, firstTokenBody(endpoint, model, prompt, k));
    if (refusesK(a)) {
      last = `HTTP ${a.status}: ${a.error}`;
      continue;
    }
    if (a.status < 200 || a.status >= 300) throw new QualityError('http-error', `${poster.where(path)} answered HTTP ${a.status}: ${a.error}`);
    parsed(poster, path, a);
    return k;
  }
  throw new QualityError('no-logprobs', `${poster.where(path)} refused every top_logprobs value tried (${TOP_K_LADDER.join(', ')}); last answer ${last}`);
}

/**
 * One prompt's first-token top logprobs: the k most likely entries returned. A
 * completions map may add the sampled token beyond the top k (vLLM does); it is
 * dropped so both sides compare the same k.
 * @throws QualityError on an error status or an answer without logprobs.
 */
export async function firstTokenTop(poster: JsonPoster, endpoint: QualityEndpoint, model: string, prompt: string, k: number): Promise<TokenLogprob[]> {
  const path = PATHS[endpoint];
  const a = await poster.post(path, firstTokenBody(endpoint, model, prompt, k));
  if (a.status < 200 || a.status >= 300) throw new QualityError('http-error', `${poster.where(path)} answered HTTP ${a.status}: ${a.error}`);
  return parsed(poster, path, a)
    .sort((x, y) => y.logprob - x.logprob)
    .slice(0, k);
}
