/**
 * How each derived fact is computed from its sources, keyed by the derived
 * fact's `metric`: the gate recomputes every derived number from the numbers
 * it names, so a hand-edited figure cannot ship. The formulas are the ones
 * run-facts.ts and quality-facts.ts apply when the receipt is built.
 */
import { KL_WEIGHT, PPL_WEIGHT } from '../core/index.js';

export interface Derivation {
  /** The metrics of the sources, each found once among `derivedFrom` (same configuration). */
  sources: readonly string[];
  /** The value from the sources' values, in `sources` order. */
  compute: (values: readonly number[]) => number;
}

export const DERIVATIONS: Readonly<Record<string, Derivation>> = {
  /** USD per 1M output tokens = USD/h ÷ (tok/s × 3600 s/h) × 1e6. */
  costPer1M: { sources: ['hourlyRate', 'peakThroughput'], compute: ([usdPerHour = NaN, tokS = NaN]) => (usdPerHour / (tokS * 3600)) * 1e6 },
  /** USD per 1M input tokens (embeddings, rerank) = USD/h ÷ (input tok/s × 3600 s) × 1e6. */
  costPer1MInput: { sources: ['hourlyRate', 'peakInputTokens'], compute: ([usdPerHour = NaN, tokS = NaN]) => (usdPerHour / (tokS * 3600)) * 1e6 },
  /** Output tok/s per GPU at a level = the level's throughput ÷ the GPU count recorded with the run. */
  throughputPerGpu: { sources: ['throughput', 'gpuCount'], compute: ([tokS = NaN, gpus = NaN]) => tokS / gpus },
  /**
   * The quality composite (core/quality-score.ts) from the KL (nats) and the
   * perplexity change PPL_candidate ÷ PPL_baseline − 1, whose term is
   * min(1, PPL_baseline ÷ PPL_candidate) = min(1, 1 ÷ (1 + change)).
   */
  quality: {
    sources: ['qualityKl', 'qualityPplDelta'],
    compute: ([kl = NaN, pplDelta = NaN]) => 1 - KL_WEIGHT * (1 - Math.exp(-kl)) - PPL_WEIGHT * (1 - Math.min(1, 1 / (1 + pplDelta))),
  },
};

/** Within tolerance: |recomputed − value| ≤ 1e-6 × max(1, |value|). */
export function agrees(recomputed: number, value: number): boolean {
  return Math.abs(recomputed - value) <= 1e-6 * Math.max(1, Math.abs(value));
}
