/**
 * The prompt of one traced request: `promptTokens` common words (one token each
 * on the simulator, ≈ one on BPE models; the server's own count is recorded), cut
 * in blocks of `blockTokens`. Block b of a request whose trace gives hash id H is
 * the same text in every request that gives H there, so requests sharing leading
 * ids share that prefix exactly, as the trace says; a block without an id is the
 * request's own. Every prompt starts with the run's salt word, so a replay never
 * finds a previous run's blocks in the server's cache.
 */
import { hashString53, mulberry32 } from '../core/index.js';
import { COMMON_WORDS } from './synthetic-prompt.js';

export interface TracedPrompt {
  /** Prompt tokens (words). */
  p: number;
  /** Block ids, Mooncake's hash_ids. */
  h?: number[] | undefined;
  /** A literal prompt, used as given. */
  text?: string | undefined;
}

function blockWords(key: string, n: number, out: string[]): void {
  const rand = mulberry32(hashString53(key) % 4294967296);
  for (let i = 0; i < n; i++) out.push(COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)] as string);
}

/**
 * @param run the run's salt (its id): blocks are keyed by it, so two runs never share a block
 * @param index the request's position in the trace (keys its own blocks)
 */
export function tracePrompt(r: TracedPrompt, blockTokens: number, run: string, index: number): string {
  if (r.text !== undefined) return r.text;
  const words: string[] = [];
  for (let b = 0; words.length < r.p; b++) {
    const id = r.h?.[b];
    blockWords(id === undefined ? `${run}:own:${index}:${b}` : `${run}:id:${id}`, Math.min(blockTokens, r.p - words.length), words);
  }
  words[0] = `r${run}`;
  return words.join(' ');
}
