/**
 * First-token KL divergence between two servers' truncated distributions: each
 * side returns only its top-k tokens, so the comparison runs over the union of the
 * returned tokens plus one tail bucket per side for the mass it did not return.
 *
 * Completion of one side (P) over the union U:
 * - returned tokens keep their probability exp(logprob) (a token returned twice,
 *   e.g. two ids that decode to the same text, has its probabilities summed);
 * - tail R = max(ε, 1 − Σ returned probabilities);
 * - each of the m tokens of U that only the other side returned gets the share
 *   s = min(R / (m + 1), smallest returned probability of P): an even split of the
 *   tail with the tail bucket itself, capped because an unreturned token cannot be
 *   likelier than the least likely token that was returned;
 * - the tail bucket keeps R − m·s;
 * - every probability is floored at ε and the vector is renormalised to sum to 1.
 * Then KL(P ‖ Q) = Σ p·ln(p / q) over U and the tail bucket, in nats.
 */

/** One returned token and its natural-log probability. */
export interface TokenLogprob {
  token: string;
  /** ln p, ≤ 0 (up to {@link LOGPROB_TOLERANCE} above 0 is read as rounding). */
  logprob: number;
}

/** ε: the floor of every probability (and of each tail), so KL stays finite. */
export const TAIL_EPSILON = 1e-10;

/** How far above 0 a returned logprob may be before it is refused (float rounding). */
export const LOGPROB_TOLERANCE = 1e-6;

/** Returned tokens → probabilities, duplicates summed. @throws RangeError on an empty list or a bad logprob. */
function returnedProbabilities(side: string, entries: readonly TokenLogprob[]): Map<string, number> {
  if (entries.length === 0) throw new RangeError(`${side}: no top logprobs were returned`);
  const probs = new Map<string, number>();
  for (const { token, logprob } of entries) {
    if (Number.isNaN(logprob) || logprob > LOGPROB_TOLERANCE) {
      throw new RangeError(`${side}: token ${JSON.stringify(token)} has logprob ${logprob}; a logprob is a number ≤ 0`);
    }
    probs.set(token, (probs.get(token) ?? 0) + Math.exp(Math.min(0, logprob)));
  }
  return probs;
}

/** One side completed over `union` (same order), with its tail bucket last; sums to 1. */
export function completeDistribution(probs: ReadonlyMap<string, number>, union: readonly string[]): number[] {
  let returnedMass = 0;
  let smallest = Number.POSITIVE_INFINITY;
  for (const p of probs.values()) {
    returnedMass += p;
    smallest = Math.min(smallest, p);
  }
  const tail = Math.max(TAIL_EPSILON, 1 - returnedMass);
  const missing = union.filter((t) => !probs.has(t)).length;
  const share = Math.min(tail / (missing + 1), smallest);
  const raw = [...union.map((t) => probs.get(t) ?? share), tail - missing * share];
  const floored = raw.map((p) => Math.max(TAIL_EPSILON, p));
  const total = floored.reduce((a, b) => a + b, 0);
  return floored.map((p) => p / total);
}

/**
 * KL(baseline ‖ candidate) of one prompt's first-token distributions, in nats,
 * over the union of returned tokens and the tail bucket (see the module header).
 * Identical inputs give exactly 0.
 * @throws RangeError when a side returned nothing or a logprob is NaN or above 0.
 */
export function firstTokenKl(baseline: readonly TokenLogprob[], candidate: readonly TokenLogprob[]): number {
  const p = returnedProbabilities('baseline', baseline);
  const q = returnedProbabilities('candidate', candidate);
  const union = [...new Set([...p.keys(), ...q.keys()])];
  const pc = completeDistribution(p, union);
  const qc = completeDistribution(q, union);
  let kl = 0;
  for (let i = 0; i < pc.length; i++) {
    const pi = pc[i] as number;
    kl += pi * (Math.log(pi) - Math.log(qc[i] as number));
  }
  return Math.max(0, kl);
}

/** One prompt's returned top logprobs from both sides. */
export interface FirstTokenPair {
  baseline: readonly TokenLogprob[];
  candidate: readonly TokenLogprob[];
}

/**
 * Per-prompt KL (nats) and their arithmetic mean.
 * @throws RangeError when there are no prompts, or as {@link firstTokenKl} (naming the prompt).
 */
export function meanFirstTokenKl(pairs: readonly FirstTokenPair[]): { mean: number; perPrompt: number[] } {
  if (pairs.length === 0) throw new RangeError('first-token KL needs at least one prompt');
  const perPrompt = pairs.map((pair, i) => {
    try {
      return firstTokenKl(pair.baseline, pair.candidate);
    } catch (err) {
      throw new RangeError(`prompt ${i}: ${(err as Error).message}`);
    }
  });
  return { mean: perPrompt.reduce((a, b) => a + b, 0) / perPrompt.length, perPrompt };
}
