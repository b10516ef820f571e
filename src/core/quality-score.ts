/**
 * The quality score: a composite evaluator of a candidate configuration against
 * a baseline (typically FP16) on a fixed, hashed prompt set.
 *
 *   composite = 0.7 × exp(−KL) + 0.3 × min(1, PPL_baseline / PPL_candidate)
 *
 * computed as 1 − 0.7·(1 − exp(−KL)) − 0.3·(1 − min(1, ratio)) so that no
 * detected difference gives exactly 1. When the perplexity component is not
 * recorded (a server returned no prompt logprobs), the composite is not recorded
 * either: the KL component is reported alone and no number is invented.
 */
import { meanFirstTokenKl, TAIL_EPSILON, type FirstTokenPair } from './quality-score-kl.js';
import { comparePerplexity, type ScoredText } from './quality-score-ppl.js';

import type { ServerAccount } from './server-account-schema.js';
import { type QualityNoise, qualityNoise } from './quality-noise.js';
import { KL_WEIGHT, PPL_WEIGHT } from './quality-weights.js';

export { KL_WEIGHT, PPL_WEIGHT };

/** Printed beside every quality score. */
export const QUALITY_SCALE_NOTE = '1.0 = no detected degradation on this composite under the disclosed workload';

/** Short name of this evaluator, for tables and receipts. */
export const QUALITY_EVALUATOR_ID = 'goodput-quality-v1';

/** The evaluator definition, printed beside every quality score. */
export const QUALITY_EVALUATOR =
  `${QUALITY_EVALUATOR_ID}: composite = ${KL_WEIGHT} × exp(−KL) + ${PPL_WEIGHT} × min(1, PPL_baseline / PPL_candidate), against the baseline configuration. ` +
  'KL = mean over the prompt set of KL(baseline ‖ candidate), in nats, of the first generated token (temperature 0), over the union of the top-k tokens ' +
  "both servers returned (k = the largest top_logprobs both allow); each side's unreturned mass forms one tail bucket, and a token only the other side " +
  `returned gets an even share of that tail (tail / (m + 1) for m such tokens, capped at the side's smallest returned probability); probabilities are floored at ${TAIL_EPSILON}. ` +
  'PPL = exp(−mean token logprob) of a fixed reference text from prompt logprobs, the first token excluded; where either server returns no prompt logprobs, ' +
  "both sides are scored by prefix instead (each scored token's logprob read from the top-k next-token logprobs of the text before it, at most 64 tokens spread " +
  'evenly; a token outside the returned set gets the tail bound min(lowest returned logprob, ln(1 − returned mass)), and the score counts such tokens), ' +
  'the method recorded with the score. Without either on both servers the perplexity component and the composite are not recorded.';

/** The measured inputs of one score. Hashes are computed by the caller (core does no I/O). */
export interface QualityInput {
  /** Per prompt, both sides' returned first-token top logprobs. */
  firstToken: readonly FirstTokenPair[];
  /** Both sides' reference-text logprobs, or why they could not be recorded. */
  referenceText: { baseline: ScoredText; candidate: ScoredText; prefix?: { tailTokens: { baseline: number; candidate: number } } } | { notRecorded: string };
  /** sha256 (hex) of the prompt set. */
  promptSetHash: string;
  /** sha256 (hex) of the reference text. */
  referenceTextHash: string;
  /** top_logprobs requested from both servers. */
  topLogprobs: number;
}

/** The perplexity component: measured, or not recorded with the reason. */
/** How the reference text's token logprobs were obtained: the prompt's own (echo), or next-token logprobs prefix by prefix. */
export type PerplexityMethod = 'prompt-logprobs' | 'prefix-scoring';

export type PplDeltaComponent =
  | {
      value: number;
      provenance: 'measured';
      pplBaseline: number;
      pplCandidate: number;
      tokens: number;
      term: number;
      weight: number;
      /** Absent in scores written before prefix scoring: prompt logprobs. */
      method?: PerplexityMethod;
      /** Prefix scoring only: tokens outside the returned top-k on each side, given the tail bound. */
      tailTokens?: { baseline: number; candidate: number };
    }
  | { value: null; provenance: 'not recorded'; reason: string; weight: number };

/** One side of a quality comparison, as the score saw it: a receipt refuses a score whose sides are not its runs' servers. */
export interface ScoredSide {
  model: string;
  /** The client's serverFingerprint of `/v1/models`; null when the server listed no data array. */
  fingerprint: string | null;
  engine: string | null;
  engineVersion: string | null;
  /** What the server said about itself (goodput run records the same account): absent in scores written before it was recorded. */
  account?: ServerAccount;
}

/** What a score compared and when (ISO 8601); absent in scores written before it was recorded. */
export interface ScoreComparison {
  baseline: ScoredSide;
  candidate: ScoredSide;
  measuredAt: string;
}

/** A quality score; see {@link QUALITY_EVALUATOR}. Never shown without `evaluator` and `scaleNote`. */
export interface QualityScore {
  /** 0..1, 1 = no detected degradation; null when not recorded (see `components.pplDelta.reason`). */
  composite: number | null;
  compositeProvenance: 'derived' | 'not recorded';
  components: {
    /** Mean first-token KL in nats; `term` = exp(−KL). */
    kl: { value: number; provenance: 'measured'; statistic: 'mean over prompts'; perPrompt: number[]; term: number; weight: number };
    /** PPL_candidate / PPL_baseline − 1. */
    pplDelta: PplDeltaComponent;
  };
  evaluator: string;
  scaleNote: string;
  promptSetHash: string;
  referenceTextHash: string;
  /** Prompts scored. */
  n: number;
  topLogprobs: number;
  compared?: ScoreComparison;
  /** The runs the score belongs to (see runIdOf): absent in scores written before they were named; baseline null when measured in the candidate's own run. */
  runs?: { baseline: string | null; candidate: string };
  /** Both sides' returned logprobs, which the score recomputes from; absent in scores written before they were kept. */
  evidence?: Pick<QualityInput, 'firstToken' | 'referenceText'>;
  /** The composite's own noise over the prompts (core/quality-noise.ts); absent in scores written before it was recorded, or without a composite. */
  noise?: QualityNoise;
}

/**
 * Builds the score from measured logprobs.
 * @throws RangeError on empty or malformed inputs (see meanFirstTokenKl, comparePerplexity).
 */
export function composeQualityScore(input: QualityInput): QualityScore {
  if (!(Number.isInteger(input.topLogprobs) && input.topLogprobs >= 1)) {
    throw new RangeError(`topLogprobs must be a whole number ≥ 1, got ${input.topLogprobs}`);
  }
  const { mean, perPrompt } = meanFirstTokenKl(input.firstToken);
  const klTerm = Math.exp(-mean);
  const kl = { value: mean, provenance: 'measured' as const, statistic: 'mean over prompts' as const, perPrompt, term: klTerm, weight: KL_WEIGHT };
  const ref = input.referenceText;
  const compared = 'notRecorded' in ref ? ref.notRecorded : comparePerplexity(ref.baseline, ref.candidate);
  const pplDelta: PplDeltaComponent =
    typeof compared === 'string'
      ? { value: null, provenance: 'not recorded', reason: compared, weight: PPL_WEIGHT }
      : {
          value: compared.delta,
          provenance: 'measured',
          pplBaseline: compared.pplBaseline,
          pplCandidate: compared.pplCandidate,
          tokens: compared.tokens,
          term: compared.term,
          weight: PPL_WEIGHT,
          ...('prefix' in ref && ref.prefix !== undefined
            ? { method: 'prefix-scoring' as const, tailTokens: ref.prefix.tailTokens }
            : { method: 'prompt-logprobs' as const }),
        };
  const composite = pplDelta.value === null ? null : 1 - KL_WEIGHT * (1 - klTerm) - PPL_WEIGHT * (1 - pplDelta.term);
  const noise = qualityNoise(perPrompt, pplDelta.value === null ? null : pplDelta.term);
  return {
    composite,
    compositeProvenance: composite === null ? 'not recorded' : 'derived',
    components: { kl, pplDelta },
    evaluator: QUALITY_EVALUATOR,
    scaleNote: QUALITY_SCALE_NOTE,
    promptSetHash: input.promptSetHash,
    referenceTextHash: input.referenceTextHash,
    n: input.firstToken.length,
    topLogprobs: input.topLogprobs,
    ...(noise === null ? {} : { noise }),
  };
}
