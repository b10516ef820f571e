/**
 * The quality score as facts of the optimized configuration: the composite
 * (derived from its two components), the components and the number of
 * prompts. Without a score the composite is there, null and "not recorded",
 * so a receipt never silently drops quality.
 */
import {
  QUALITY_EVALUATOR,
  QUALITY_EVALUATOR_ID,
  QUALITY_NOISE_STATISTIC,
  QUALITY_SCALE_NOTE,
  type QualityScore,
  qualityDifference,
  qualityScoreLine,
  qualityVerdictText,
} from '../core/index.js';
import { FIGURES } from '../web/index.js';
import { type Fact, measured } from './fact.js';
import type { Receipt } from './receipt-schema.js';

const q = FIGURES.quality;
const base = (id: string, metric: string, label: string, unit: string, statistic: string, digits: number) => ({
  id: `optimized.${id}`,
  metric,
  label,
  unit,
  statistic,
  configuration: 'optimized' as const,
  digits,
});

export function qualityFacts(score: QualityScore | null): { facts: Fact[]; quality: Receipt['quality'] } {
  const composite = base('quality', 'quality', q.label, q.unit, q.statistic, q.digits);
  if (score === null) {
    return { facts: [{ ...composite, value: null, provenance: 'not recorded', note: 'no quality score was given (goodput quality --json)' }], quality: null };
  }
  const kl = score.components.kl;
  const ppl = score.components.pplDelta;
  const klFact = measured(base('qualityKl', 'qualityKl', 'First-token KL divergence', 'nats', kl.statistic, 6), kl.value);
  const pplFact = measured(
    base('qualityPplDelta', 'qualityPplDelta', 'Perplexity change', 'ratio − 1', 'PPL_candidate ÷ PPL_baseline − 1 on the reference text', 4),
    ppl.value,
    ppl.value === null ? ppl.reason : undefined,
  );
  const prompts = measured(base('qualityPrompts', 'qualityPrompts', 'Prompts scored', 'prompts', 'count', 0), score.n);
  const noise = measured(
    base('qualityNoise', 'qualityNoise', 'Quality score noise', q.unit, QUALITY_NOISE_STATISTIC, q.digits),
    score.noise?.value ?? null,
    score.composite === null ? 'there is no composite to be noisy' : 'the score file predates recording its noise',
  );
  const compositeFact: Fact =
    score.composite === null
      ? {
          ...composite,
          value: null,
          provenance: 'not recorded',
          derivedFrom: [klFact.id, pplFact.id],
          note: 'the perplexity component is not recorded, so neither is the composite',
        }
      : {
          ...composite,
          value: score.composite,
          provenance: 'derived',
          derivedFrom: [klFact.id, pplFact.id],
          note: `${kl.weight} × exp(−KL) + ${ppl.weight} × min(1, PPL_baseline ÷ PPL_candidate)`,
        };
  return {
    facts: [compositeFact, klFact, pplFact, prompts, noise],
    quality: {
      // The definition and the scale note come from the evaluator in code, never from the file.
      evaluator: QUALITY_EVALUATOR,
      evaluatorId: QUALITY_EVALUATOR_ID,
      scaleNote: QUALITY_SCALE_NOTE,
      promptSetHash: score.promptSetHash,
      referenceTextHash: score.referenceTextHash,
      line: qualityScoreLine(score),
      verdict: qualityVerdictText(qualityDifference('baseline itself', score), 'the baseline (which scores exactly 1 against itself)'),
    },
  };
}
