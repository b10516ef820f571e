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
  /** Prompt tokens (words here; the server's tokens when built exactly before the run). */
  p: number;
  /** Block ids, Mooncake's hash_ids. */
  h?: number[] | undefined;
  /** A literal prompt, used as given. */
  text?: string | undefined;
}

/** Shared blocks recur request after request (a system prompt, a conversation): their words are kept, least recently used out first. */
const BLOCK_CACHE_MAX = 1024;
const blockCache = new Map<string, readonly string[]>();

function drawWords(key: string, n: number): string[] {
  const rand = mulberry32(hashString53(key) % 4294967296);
  return Array.from({ length: n }, () => COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)] as string);
}

function blockWords(key: string, n: number, blockTokens: number, shared: boolean, out: string[]): void {
  if (!shared) {
    out.push(...drawWords(key, n));
    return;
  }
  let words = blockCache.get(key);
  if (words === undefined) {
    words = drawWords(key, blockTokens);
    if (blockCache.size >= BLOCK_CACHE_MAX) blockCache.delete(blockCache.keys().next().value as string);
  } else {
    blockCache.delete(key);
  }
  blockCache.set(key, words);
  // A partial block is the full block's first n words: equal ids stay equal text whatever the length.
  for (let i = 0; i < n; i++) out.push(words[i] as string);
}

/** One block of a prompt: `n` tokens of the text named by `key` (equal keys, equal text; a shorter block is the longer one's start). */
export interface PromptBlock {
  key: string;
  n: number;
}

/** A prompt of `p` tokens cut in blocks of `blockTokens`, block b named by `keyOf(b)`. */
export function promptBlocks(p: number, blockTokens: number, keyOf: (b: number) => string): PromptBlock[] {
  return Array.from({ length: Math.ceil(p / blockTokens) }, (_, b) => ({ key: keyOf(b), n: Math.min(blockTokens, p - b * blockTokens) }));
}

/** A traced request's blocks: the trace's hash id where it gives one, else the request's own block. */
export function traceBlocks(r: TracedPrompt, blockTokens: number, index: number): PromptBlock[] {
  return promptBlocks(r.p, blockTokens, (b) => (r.h?.[b] === undefined ? `own:${index}:${b}` : `id:${r.h[b]}`));
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
    const n = Math.min(blockTokens, r.p - words.length);
    if (id === undefined) blockWords(`${run}:own:${index}:${b}`, n, blockTokens, false, words);
    else blockWords(`${run}:id:${id}`, n, blockTokens, true, words);
  }
  words[0] = `r${run}`;
  return words.join(' ');
}

/** A prompt of `p` words from shared blocks named by `keys` (block b of every prompt naming the same key is the same text). */
export function tracePromptFromKeys(keys: readonly string[], p: number, blockTokens: number, run: string): string {
  const words: string[] = [];
  for (let b = 0; words.length < p && b < keys.length; b++) blockWords(keys[b] as string, Math.min(blockTokens, p - words.length), blockTokens, true, words);
  words[0] = `r${run}`;
  return words.join(' ');
}
