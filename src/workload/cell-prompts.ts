/**
 * Every prompt of one matrix cell, built before anything is sent. Cold cache:
 * a unique salt comes first, so no two requests share a prefix block. Warm
 * cache: a shared prefix of exactly N tokens comes first and the salt after
 * it, so the prefix is served from the cache once the warm-up has primed it.
 * Primed: the prompts of a warm cell, whose shared prefix the runner also
 * sends on its own before each level (its prime, see cellPrime).
 * Synthetic prompts are exactly the target length (shared prefix and salt
 * included); corpus prompts are sampled with the seed and keep their length.
 */
import { exactPrompt } from './exact-prompt.js';
import { WorkloadError } from './errors.js';
import type { CorpusItem } from './corpus.js';
import { seededSample } from './sample.js';
import type { TokenCounter } from './token-counter.js';

export type CacheCondition = { kind: 'cold' } | { kind: 'warm'; sharedPrefixTokens: number } | { kind: 'primed'; sharedPrefixTokens: number; times: number };

export type CellSource = { kind: 'synthetic'; tokens: number } | { kind: 'corpus'; items: readonly CorpusItem[] };

/** One request's prompt, and its own output cap when the corpus sets it. */
export interface PromptItem {
  text: string;
  outputTokens?: number;
}

export interface CellPromptPlan {
  source: CellSource;
  cache: CacheCondition;
  /** Prompts to build: every request of the cell's sweep, warm-ups included. */
  count: number;
  seed: number;
  /** Unique to the run and cell, so runs never share a cold prefix. */
  salt: string;
  /** Use each corpus item's expected output length as its cap. */
  outputFromCorpus: boolean;
}

/** The shared prefix of a warm cell: exactly `tokens` tokens, the same for every request of the cell. */
export function sharedPrefix(counter: TokenCounter, tokens: number, seed: number): Promise<string> {
  return exactPrompt(counter, tokens, '', (seed ^ 0x5eed) >>> 0);
}

/** What a primed cell sends before each level: its shared prefix (the same text its prompts start with), `times` times; null for any other cell. */
export async function cellPrime(counter: TokenCounter, cache: CacheCondition, seed: number): Promise<{ prefix: string; times: number } | null> {
  return cache.kind === 'primed' ? { prefix: await sharedPrefix(counter, cache.sharedPrefixTokens, seed), times: cache.times } : null;
}

/**
 * Builds `plan.count` prompts.
 * @throws WorkloadError when a length cannot be hit exactly, or a corpus item lacks the output length asked for
 */
export async function buildCellPrompts(counter: TokenCounter, plan: CellPromptPlan): Promise<PromptItem[]> {
  const prefix = plan.cache.kind === 'cold' ? '' : await sharedPrefix(counter, plan.cache.sharedPrefixTokens, plan.seed);
  const lead = (i: number) => (prefix === '' ? `r${plan.salt}n${i}` : `${prefix} r${plan.salt}n${i}`);
  const out: PromptItem[] = [];
  if (plan.source.kind === 'synthetic') {
    for (let i = 0; i < plan.count; i++) out.push({ text: await exactPrompt(counter, plan.source.tokens, lead(i), plan.seed + i) });
    return out;
  }
  const drawn = seededSample(plan.source.items, plan.count, plan.seed);
  drawn.forEach((item, i) => {
    if (plan.outputFromCorpus && item.outputTokens === undefined) {
      throw new WorkloadError(
        'bad-format',
        `a corpus prompt has no expected output length, but the output length is taken from the corpus ("${item.text.slice(0, 40)}…")`,
      );
    }
    out.push({ text: `${lead(i)} ${item.text}`, outputTokens: plan.outputFromCorpus ? item.outputTokens : undefined });
  });
  return out;
}
