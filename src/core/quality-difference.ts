/**
 * The one difference rule (core/difference) applied to two quality scores:
 * a verdict only when the bootstrap interval of the composite over the
 * prompts excludes zero and the change is larger than the scores' own noise
 * (quality-noise.ts). Apart from the noise itself because it compares whole
 * scores, which are built from the noise.
 */
import { type Difference, difference, meanStatistic } from './difference.js';
import { compositeOf } from './quality-noise.js';
import type { QualityScore } from './quality-score.js';

/** The side of a quality comparison: a score, or the baseline configuration against itself (KL 0 on every prompt, perplexity unchanged: exactly 1). */
export type QualitySide = QualityScore | 'baseline itself';

const sideOf = (s: QualitySide, n: number) =>
  s === 'baseline itself'
    ? { kl: new Array<number>(n).fill(0), term: 1, noise: 0 }
    : { kl: s.components.kl.perPrompt, term: s.components.pplDelta.value === null ? null : s.components.pplDelta.term, noise: s.noise?.value ?? null };

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
    return {
      diff: null,
      pct: null,
      lo: null,
      hi: null,
      pctLo: null,
      pctHi: null,
      verdict: 'not compared',
      basis: 'requests',
      why: 'a side has no composite (its perplexity component is not recorded)',
    };
  }
  const terms = { baseline: b.term, candidate: c.term };
  return difference({
    direction: 'higher',
    baseline: b.kl,
    candidate: c.kl,
    basis: 'requests',
    digits: 4,
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
