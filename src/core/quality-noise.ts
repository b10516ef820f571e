/**
 * The quality score's own noise, and the one difference rule applied to it.
 *
 * Noise: half the width of the seeded 95 % bootstrap interval of the
 * composite when the prompts are resampled (their per-prompt first-token KL;
 * the perplexity term is one fixed reference text and is held as measured).
 * It is how much the score moves with the choice of prompts, so a change in
 * the composite smaller than it is not called better or worse. It does not
 * cover a server that answers the same prompt differently twice (the score
 * asks at temperature 0 and assumes it does not).
 */
import { BOOTSTRAP, type Difference, MAX_BOOTSTRAP_SAMPLES, difference, meanStatistic } from './difference.js';
import { mulberry32 } from './random.js';
import type { QualityScore } from './quality-score.js';
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
  const kls = perPromptKl.length <= MAX_BOOTSTRAP_SAMPLES ? perPromptKl
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

/** The side of a quality comparison: a score, or the baseline configuration against itself (KL 0 on every prompt, perplexity unchanged: exactly 1). */
export type QualitySide = QualityScore | 'baseline itself';

const sideOf = (s: QualitySide, n: number) => (s === 'baseline itself'
  ? { kl: new Array<number>(n).fill(0), term: 1, noise: 0 }
  : { kl: s.components.kl.perPrompt, term: s.components.pplDelta.value === null ? null : s.components.pplDelta.term, noise: s.noise?.value ?? null });

/**
 * candidate − baseline of the composite with its bootstrap interval over the
 * prompts, under the one rule (core/difference): a direction only when the
 * interval excludes zero and the change is larger than the larger of the two
 * scores' own noise. "not compared" when a side has no composite.
 */
export function qualityDifference(baseline: QualitySide, candidate: QualityScore): Difference {
  const b = sideOf(baseline, candidate.components.kl.perPrompt.length);
  const c = sideOf(candidate, 0);
  const noises = [b.noise, c.noise].filter((x): x is number => x !== null);
  if (b.term === null || c.term === null) {
    return { diff: null, pct: null, lo: null, hi: null, pctLo: null, pctHi: null, verdict: 'not compared', basis: 'requests', why: 'a side has no composite (its perplexity component is not recorded)' };
  }
  const terms = { baseline: b.term, candidate: c.term };
  return difference({
    direction: 'higher', baseline: b.kl, candidate: c.kl, basis: 'requests', digits: 4,
    statistic: (kls, side = 'candidate') => {
      const mean = meanStatistic(kls);
      return mean === null ? null : compositeOf(mean, terms[side]);
    },
    ...(noises.length === 0 ? {} : { noise: Math.max(...noises) }),
  });
}

/** "worse than the baseline: −0.0288 (95 % interval −0.0351 to −0.0230 over the prompts; the score's own noise ±0.0061)". */
export function qualityVerdictText(d: Difference, against: string): string {
  const f = (x: number) => `${x < 0 ? '−' : x > 0 ? '+' : '±'}${Math.abs(x).toFixed(4)}`;
  if (d.diff === null) return `not compared with ${against}: ${d.why}`;
  const interval = d.lo === null || d.hi === null ? '' : `95 % interval ${f(d.lo)} to ${f(d.hi)} over the prompts`;
  const head = d.verdict === 'better' || d.verdict === 'worse' ? `${d.verdict} than ${against}` : `no difference established from ${against} (${d.why})`;
  return `${head}: ${f(d.diff)}${interval === '' ? '' : ` (${interval})`}`;
}
