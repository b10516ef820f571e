/**
 * Perplexity of a reference text from its prompt-token logprobs, and the
 * perplexity part of the quality score. The first prompt token has no logprob
 * (nothing precedes it); callers pass the logprobs of the tokens after it.
 */

/**
 * PPL = exp(−mean ln p) over the given token logprobs (natural log).
 * @throws RangeError on an empty list or a logprob that is NaN, +∞ or above 0 by more than rounding.
 */
export function perplexity(tokenLogprobs: readonly number[]): number {
  if (tokenLogprobs.length === 0) throw new RangeError('perplexity needs at least one token logprob');
  let sum = 0;
  for (const [i, lp] of tokenLogprobs.entries()) {
    if (Number.isNaN(lp) || lp > 1e-6) throw new RangeError(`token ${i}: logprob ${lp} is not a number ≤ 0`);
    sum += Math.min(0, lp);
  }
  return Math.exp(-sum / tokenLogprobs.length);
}

/** The measured perplexity comparison. */
export interface PerplexityComparison {
  /** PPL of the reference text under the baseline configuration. */
  pplBaseline: number;
  /** PPL of the reference text under the candidate configuration. */
  pplCandidate: number;
  /** Scored tokens (the same on both sides). */
  tokens: number;
  /** PPL_candidate / PPL_baseline − 1 (0.02 = 2% higher perplexity). */
  delta: number;
  /** The composite's term: min(1, PPL_baseline / PPL_candidate). */
  term: number;
}

/** A reference text as one server scored it: its tokens after the first, and their logprobs. */
export interface ScoredText {
  tokens: readonly string[];
  /** Natural-log probability of each token given the ones before it (same length as `tokens`). */
  logprobs: readonly number[];
}

/**
 * Compares the two sides' reference-text logprobs. Per-token perplexities are
 * comparable only over the same tokens, so a different tokenization is refused.
 * @returns the comparison, or a sentence saying why there is none.
 * @throws RangeError when a side's tokens and logprobs differ in length, or as {@link perplexity}.
 */
export function comparePerplexity(baseline: ScoredText, candidate: ScoredText): PerplexityComparison | string {
  for (const [side, s] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    if (s.tokens.length !== s.logprobs.length) {
      throw new RangeError(`${side}: ${s.tokens.length} tokens but ${s.logprobs.length} logprobs`);
    }
  }
  if (baseline.tokens.length !== candidate.tokens.length) {
    return `the servers split the reference text into different numbers of tokens (baseline ${baseline.tokens.length}, candidate ${candidate.tokens.length}), so their per-token perplexities are not comparable`;
  }
  const differs = baseline.tokens.findIndex((t, i) => t !== candidate.tokens[i]);
  if (differs >= 0) {
    return `the servers tokenized the reference text differently (scored token ${differs + 1}: ${JSON.stringify(baseline.tokens[differs])} vs ${JSON.stringify(candidate.tokens[differs])}), so their per-token perplexities are not comparable`;
  }
  const pplBaseline = perplexity(baseline.logprobs);
  const pplCandidate = perplexity(candidate.logprobs);
  return {
    pplBaseline,
    pplCandidate,
    tokens: baseline.tokens.length,
    delta: pplCandidate / pplBaseline - 1,
    term: Math.min(1, pplBaseline / pplCandidate),
  };
}
