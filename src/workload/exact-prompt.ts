/**
 * Prompts of an exact token length for the target tokenizer: build, count,
 * adjust until exact. A fixed lead (shared prefix, salt) comes first; common
 * words follow. The word count is found by bisection on the count (which only
 * grows as words are added), and a remaining gap of a few tokens is filled
 * with the first candidate piece that fits. Bounded in counts; a length the
 * tokenizer cannot hit is an error, never a silent miss.
 */
import { mulberry32 } from '../core/index.js';
import { WorkloadError } from './errors.js';
import { COMMON_WORDS } from './synthetic-prompt.js';
import type { TokenCounter } from './token-counter.js';

/** Pieces tried, in order, to close a small gap (punctuation is one token in most tokenizers). */
const FILLERS = ['.', ',', ' a', ' I', ':', ';', '!', '?', ' 1'];
/** Most count calls spent on one prompt. */
const MAX_COUNTS = 96;

/**
 * A text of exactly `target` tokens that starts with `lead`.
 * @param target tokens, ≥ the lead's own count
 * @param lead fixed start (may be empty); words are appended after a space
 * @param seed chooses the words
 * @throws WorkloadError (code 'length') when the lead alone exceeds the target or no exact fit is found
 */
export async function exactPrompt(counter: TokenCounter, target: number, lead: string, seed: number): Promise<string> {
  let counts = 0;
  const count = async (t: string) => {
    if (++counts > MAX_COUNTS) throw new WorkloadError('length', `no prompt of exactly ${target} tokens found within ${MAX_COUNTS} counts`);
    return counter.count(t);
  };
  const rand = mulberry32(seed);
  const words: string[] = [];
  const draw = (n: number) => {
    for (let i = 0; i < n; i++) words.push(COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)] as string);
  };
  const textOf = (k: number) => (k === 0 ? lead : `${lead}${lead === '' ? '' : ' '}${words.slice(0, k).join(' ')}`);

  const leadTokens = lead === '' ? 0 : await count(lead);
  if (leadTokens > target) throw new WorkloadError('length', `the fixed start of the prompt is ${leadTokens} tokens, more than the ${target} asked for`);
  if (leadTokens === target) return lead;
  // Guess one token per word; then bisect on the word count for the longest text ≤ target.
  draw(target - leadTokens);
  let hiTokens = await count(textOf(words.length));
  if (hiTokens === target) return textOf(words.length);
  while (hiTokens < target) {
    draw(Math.max(1, target - hiTokens));
    hiTokens = await count(textOf(words.length));
  }
  if (hiTokens === target) return textOf(words.length);
  let lo = 0;
  let loTokens = leadTokens;
  let hi = words.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const n = await count(textOf(mid));
    if (n === target) return textOf(mid);
    if (n < target) [lo, loTokens] = [mid, n];
    else hi = mid;
  }
  return fill(textOf(lo), loTokens, target, count);
}

/** Appends single words or filler pieces until exactly `target` tokens. */
async function fill(text: string, tokens: number, target: number, count: (t: string) => Promise<number>): Promise<string> {
  const candidates = [...COMMON_WORDS.slice(0, 24).map((w) => ` ${w}`), ...FILLERS];
  while (tokens < target) {
    let grown = false;
    for (const piece of candidates) {
      const next = text === '' ? piece.trimStart() : text + piece;
      const n = await count(next);
      if (n > tokens && n <= target) {
        [text, tokens, grown] = [next, n, true];
        break;
      }
    }
    if (!grown) throw new WorkloadError('length', `no piece closes the last ${target - tokens} token(s) to exactly ${target}`);
  }
  return text;
}
