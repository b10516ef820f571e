/**
 * Prefix cache of prompt blocks, like vLLM's automatic prefix caching: a prompt is
 * cut into blocks of `blockTokens` tokens and block i is keyed by a hash of the
 * whole prefix up to and including it (plus the request's `cache_salt`). A request
 * reuses its leading cached blocks. The cache is an LRU bounded in blocks.
 */
import { hashString53 } from './random.js';

/** Default bound of the cache, in blocks. */
export const PREFIX_CACHE_MAX_BLOCKS = 100_000;

/**
 * Block keys of a prompt. Only full blocks are cacheable, and never the whole prompt:
 * at least one token is always computed (as in vLLM), so a prompt of n tokens has
 * floor((n - 1) / blockTokens) cacheable blocks.
 */
export function prefixBlockKeys(words: readonly string[], blockTokens: number, salt: string | null): number[] {
  const blocks = Math.floor(Math.max(0, words.length - 1) / blockTokens);
  const keys: number[] = [];
  let prev = salt === null ? 'nosalt' : `salt:${salt}`;
  for (let b = 0; b < blocks; b++) {
    const key = hashString53(`${prev}\u0000${words.slice(b * blockTokens, (b + 1) * blockTokens).join(' ')}`);
    keys.push(key);
    prev = String(key);
  }
  return keys;
}

/** An LRU set of block keys. */
export class PrefixCache {
  private readonly blocks = new Map<number, true>();

  /** @param maxBlocks bound in blocks; the least recently used block is evicted first. */
  constructor(private readonly maxBlocks: number = PREFIX_CACHE_MAX_BLOCKS) {}

  /** Number of leading keys present (each one marked as recently used). */
  lookup(keys: readonly number[]): number {
    let hits = 0;
    for (const key of keys) {
      if (!this.blocks.has(key)) break;
      this.blocks.delete(key);
      this.blocks.set(key, true);
      hits++;
    }
    return hits;
  }

  /** Adds (or refreshes) every key, evicting the least recently used beyond the bound. */
  insert(keys: readonly number[]): void {
    for (const key of keys) {
      this.blocks.delete(key);
      this.blocks.set(key, true);
    }
    while (this.blocks.size > this.maxBlocks) {
      const oldest = this.blocks.keys().next();
      if (oldest.done === true) break;
      this.blocks.delete(oldest.value);
    }
  }

  /** Empties the cache (a server hook's reset); returns how many blocks it held. */
  clear(): number {
    const n = this.blocks.size;
    this.blocks.clear();
    return n;
  }

  /** Blocks currently cached. */
  get size(): number {
    return this.blocks.size;
  }
}
