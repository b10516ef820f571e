/**
 * The perplexity term on engines that return no prompt logprobs (llama.cpp's
 * server, Ollama): the reference text is scored token by token from next-token
 * logprobs. The server splits the text into tokens (`POST /tokenize` with
 * pieces); for each scored position the text before that token is sent as the
 * prompt (`max_tokens` 1, temperature 0, top `k` logprobs, no prompt cache) and
 * the logprob of the token that follows is read from the returned set. A token
 * outside the set gets the tail bound: the smaller of the lowest returned
 * logprob and ln(1 − returned mass), both upper bounds on its probability, so
 * such a token makes perplexity look better, never worse; the score counts them.
 */
import type { ScoredText } from '../core/index.js';
import type { JsonPoster } from './json-poster.js';
import { parseFirstTokenTop } from './logprobs-response.js';
import { QualityError } from './quality-error.js';

/** Positions scored per side at most (each one request): spread evenly over the text when it has more tokens. */
export const MAX_PREFIX_POSITIONS = 64;

/** A floor for ln(1 − returned mass) when the returned set holds (nearly) all of it. */
const TAIL_FLOOR = Math.log(1e-10);

/** The reference text as prefix scoring saw it: the scored tokens, their logprobs, and how many got the tail bound. */
export interface PrefixScored extends ScoredText {
  tail: number;
}

/** The server's tokens of `text` as pieces, or why there are none. */
export async function tokenPieces(poster: JsonPoster, text: string): Promise<string[] | string> {
  const a = await poster.post('/tokenize', { content: text, with_pieces: true });
  if (a.status >= 400 && a.status < 500) return `the ${poster.side} server has no /tokenize with pieces (HTTP ${a.status})`;
  if (a.status < 200 || a.status >= 300) throw new QualityError('http-error', `${poster.where('/tokenize')} answered HTTP ${a.status}: ${a.error}`);
  const tokens = (a.body as { tokens?: unknown } | null)?.tokens;
  if (!Array.isArray(tokens) || tokens.some((t) => typeof (t as { piece?: unknown } | null)?.piece !== 'string')) {
    return `the ${poster.side} server's /tokenize answered without token pieces`;
  }
  return tokens.map((t) => (t as { piece: string }).piece);
}

/** Every position after the first, or `max` of them spread evenly (the last always included). */
export function scoredPositions(count: number, max = MAX_PREFIX_POSITIONS): number[] {
  const all = Array.from({ length: Math.max(0, count - 1) }, (_, i) => i + 1);
  if (all.length <= max) return all;
  return Array.from({ length: max }, (_, i) => all[Math.round(((i + 1) * all.length) / max) - 1] as number);
}

/** The text before position `i`: the pieces joined, without the leading space a sentencepiece tokenizer adds. */
function prefixOf(text: string, pieces: readonly string[], i: number): string {
  const joined = pieces.slice(0, i).join('');
  return !text.startsWith(joined) && joined.startsWith(' ') && text.startsWith(joined.slice(1)) ? joined.slice(1) : joined;
}

/**
 * Scores `text` at `positions` (default {@link scoredPositions}) with top-`k` next-token logprobs.
 * @returns the scored tokens, or why the server cannot be scored this way.
 * @throws QualityError when the server fails (not a 4xx refusal).
 */
export async function prefixScore(poster: JsonPoster, model: string, text: string, k: number, positions?: readonly number[]): Promise<PrefixScored | string> {
  const pieces = await tokenPieces(poster, text);
  if (typeof pieces === 'string') return pieces;
  const at = positions ?? scoredPositions(pieces.length);
  if (at.length === 0 || at.some((i) => !Number.isInteger(i) || i < 1 || i >= pieces.length)) {
    return `the reference text has ${pieces.length} tokens on the ${poster.side} server: too few to score by prefix`;
  }
  const tokens: string[] = [];
  const logprobs: number[] = [];
  let tail = 0;
  for (const i of at) {
    const a = await poster.post('/v1/completions', {
      model,
      prompt: prefixOf(text, pieces, i),
      max_tokens: 1,
      temperature: 0,
      logprobs: k,
      cache_prompt: false,
    });
    if (a.status >= 400 && a.status < 500) return `the ${poster.side} server's /v1/completions refused next-token logprobs (HTTP ${a.status}: ${a.error})`;
    if (a.status < 200 || a.status >= 300) throw new QualityError('http-error', `${poster.where('/v1/completions')} answered HTTP ${a.status}: ${a.error}`);
    const top = parseFirstTokenTop(a.body);
    if (typeof top === 'string' || top.length === 0)
      return `the ${poster.side} server's /v1/completions: ${typeof top === 'string' ? top : 'no top logprobs were returned'}`;
    const token = pieces[i] as string;
    const found = top.find((t) => t.token === token);
    if (found !== undefined) logprobs.push(Math.min(0, found.logprob));
    else {
      const mass = top.reduce((s, t) => s + Math.exp(t.logprob), 0);
      const lowest = Math.min(...top.map((t) => t.logprob));
      logprobs.push(Math.min(lowest, mass < 1 ? Math.max(TAIL_FLOOR, Math.log(1 - mass)) : TAIL_FLOOR));
      tail++;
    }
    tokens.push(token);
  }
  return { tokens, logprobs, tail };
}
