/**
 * Text renderings of a quality score. Every rendering carries the evaluator and
 * the scale note beside the number; there is deliberately no function that
 * returns the bare number as text.
 */
import { QUALITY_EVALUATOR_ID, type QualityScore } from './quality-score.js';
import { qualityDifference, qualityVerdictText } from './quality-difference.js';

/**
 * A score in [0, 1] with 4 decimals, truncated (never rounded up), so a
 * degraded score never prints as 1.0000; exactly 1 prints as "1.0".
 */
export function formatScoreValue(value: number): string {
  if (value === 1) return '1.0';
  // The nudge absorbs binary error (0.57 × 1e4 = 5699.999…); the cap keeps anything below 1 below "1.0000".
  const steps = Math.floor(value * 1e4 + 1e-6);
  return ((value < 1 ? Math.min(steps, 9999) : steps) / 1e4).toFixed(4);
}

function pct(x: number): string {
  const sign = x > 0 ? '+' : x < 0 ? '−' : '±';
  return `${sign}${Math.abs(x * 100).toFixed(2)}%`;
}

const sig = (x: number): string => x.toPrecision(4);

/** One line: the composite (or "not recorded"), the evaluator id and the scale note. */
export function qualityScoreLine(score: QualityScore): string {
  const value = score.composite === null ? 'not recorded' : formatScoreValue(score.composite);
  return `quality ${value} (${QUALITY_EVALUATOR_ID}${perplexityMethod(score)}; ${score.scaleNote})`;
}

/** ", perplexity by prefix scoring (2 + 1 tokens at the tail bound)" when that was the method; empty otherwise. */
function perplexityMethod(score: QualityScore): string {
  const p = score.components.pplDelta;
  if (p.value === null || p.method !== 'prefix-scoring') return '';
  const t = p.tailTokens;
  return `, perplexity by prefix scoring${t === undefined ? '' : ` (${t.baseline} + ${t.candidate} tokens at the tail bound)`}`;
}

/**
 * The full block: the composite with its provenance, both components, the
 * evaluator definition, the scale note and the workload identity.
 */
export function formatQualityScore(score: QualityScore): string {
  const { kl, pplDelta } = score.components;
  const head =
    score.composite === null
      ? 'Quality score: not recorded (no composite without the perplexity component; the KL component is shown alone below)'
      : `Quality score: ${formatScoreValue(score.composite)} (derived from the two components below)`;
  const klLine =
    `  first-token KL: ${kl.value.toExponential(3)} nats (measured, mean over ${score.n} prompts, top_logprobs ${score.topLogprobs})` +
    ` → exp(−KL) = ${formatScoreValue(kl.term)}, weight ${kl.weight}`;
  const pplLine =
    pplDelta.value === null
      ? `  perplexity delta: not recorded: ${pplDelta.reason}`
      : `  perplexity delta: ${pct(pplDelta.value)} (measured${perplexityMethod(score)}; PPL ${sig(pplDelta.pplBaseline)} baseline, ${sig(pplDelta.pplCandidate)} candidate, ${pplDelta.tokens} tokens)` +
        ` → min(1, PPL_baseline / PPL_candidate) = ${formatScoreValue(pplDelta.term)}, weight ${pplDelta.weight}`;
  const noise =
    score.noise === undefined
      ? []
      : [`  noise: ±${score.noise.value.toFixed(4)} (${score.noise.statistic}, seed ${score.noise.seed}, ${score.noise.resamples} resamples)`];
  const against =
    score.composite === null ? [] : [`  against the baseline: ${qualityVerdictText(qualityDifference('baseline itself', score), 'the baseline')}`];
  return [
    head,
    klLine,
    pplLine,
    ...noise,
    ...against,
    `  evaluator: ${score.evaluator}`,
    `  scale: ${score.scaleNote}`,
    `  workload: prompt set sha256:${score.promptSetHash}, reference text sha256:${score.referenceTextHash}`,
  ].join('\n');
}
