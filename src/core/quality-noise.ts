/**
 * The quality score's own noise (the difference rule applied to it is in
 * quality-difference.ts, which compares two scores).
 *
 * Noise: half the width of the seeded 95 % bootstrap interval of the
 * composite when the prompts are resampled (their per-prompt first-token KL;
 * the perplexity term is one fixed reference text and is held as measured).
 * It is how much the score moves with the choice of prompts, so a change in
 * the composite smaller than it is not called better or worse. It does not
 * cover a server that answers the same prompt differently twice (the score
 * asks at temperature 0 and assumes it does not).
 */
import { BOOTSTRAP, MAX_BOOTSTRAP_SAMPLES } from './difference.js';
import { mulberry32 } from './random.js';
import { KL_WEIGHT, PPL_WEIGHT } from './quality-weights.js';

export interface QualityNoise {
  /** In composite units (0–1). */
  value: number;
  statistic: 'half-width of the seeded 95 % bootstrap interval of the composite over the prompts';
  seed: number;
  resamples: number;
}

export const QUALITY_NOISE_STATISTIC = 'half-width of the seeded 95 % bootstrap interval of the composite over the prompts' as const;

/** Resamples for the noise: fewer than the difference rule's, since it runs again whenever a score file is read. */
export const QUALITY_NOISE_RESAMPLES = 1000;

/** The composite from a mean KL and the perplexity term, as composeQualityScore computes it. */
export const compositeOf = (meanKl: number, pplTerm: number): number => 1 - KL_WEIGHT * (1 - Math.exp(-meanKl)) - PPL_WEIGHT * (1 - pplTerm);

/** The noise of a composite over these per-prompt KL values; null without a perplexity term (no composite) or prompts. */
export function qualityNoise(perPromptKl: readonly number[], pplTerm: number | null): QualityNoise | null {
  if (pplTerm === null || perPromptKl.length === 0) return null;
  // A bound on work for a file with very many prompts (thinned evenly, as the difference rule does).
  const kls =
    perPromptKl.length <= MAX_BOOTSTRAP_SAMPLES
      ? perPromptKl
      : Array.from({ length: MAX_BOOTSTRAP_SAMPLES }, (_, i) => perPromptKl[Math.floor((i * perPromptKl.length) / MAX_BOOTSTRAP_SAMPLES)] as number);
  const n = kls.length;
  const rand = mulberry32(BOOTSTRAP.seed);
  const scores = new Float64Array(QUALITY_NOISE_RESAMPLES);
  for (let i = 0; i < scores.length; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += kls[Math.floor(rand() * n)] as number;
    scores[i] = compositeOf(s / n, pplTerm);
  }
  scores.sort();
  const at = (q: number) => {
    const pos = (scores.length - 1) * q;
    const lo = Math.floor(pos);
    return (scores[lo] as number) + ((scores[Math.ceil(pos)] as number) - (scores[lo] as number)) * (pos - lo);
  };
  const tail = (1 - BOOTSTRAP.confidence) / 2;
  return { value: (at(1 - tail) - at(tail)) / 2, statistic: QUALITY_NOISE_STATISTIC, seed: BOOTSTRAP.seed, resamples: QUALITY_NOISE_RESAMPLES };
}
