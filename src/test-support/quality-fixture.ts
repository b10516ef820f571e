/**
 * A quality score literal as `goodput quality --json` writes it (servers' URLs
 * included, as in the real file). Its components are chosen so the composite
 * recomputes from them (the provenance gate checks that): KL is 0.03 nats and
 * the perplexity change makes up the rest, or, for a composite above what
 * KL 0.03 allows, KL makes up all of it and perplexity is unchanged.
 */
import {
  KL_WEIGHT,
  PPL_WEIGHT,
  QUALITY_EVALUATOR,
  QUALITY_SCALE_NOTE,
  type QualityScore,
  type SweepResult,
  composeQualityScore,
  runIdOf,
} from '../core/index.js';

export function qualityFixture(composite = 0.97): QualityScore & { baseline: { url: string }; candidate: { url: string } } {
  const deficit = 1 - composite;
  const klAt003 = KL_WEIGHT * (1 - Math.exp(-0.03));
  const kl = deficit >= klAt003 ? 0.03 : -Math.log(1 - deficit / KL_WEIGHT);
  const pplTerm = deficit >= klAt003 ? 1 - (deficit - klAt003) / PPL_WEIGHT : 1;
  const pplCandidate = 10 / pplTerm;
  return {
    composite,
    compositeProvenance: 'derived',
    components: {
      kl: { value: kl, provenance: 'measured', statistic: 'mean over prompts', perPrompt: [kl, kl], term: Math.exp(-kl), weight: KL_WEIGHT },
      pplDelta: { value: pplCandidate / 10 - 1, provenance: 'measured', pplBaseline: 10, pplCandidate, tokens: 50, term: pplTerm, weight: PPL_WEIGHT },
    },
    evaluator: QUALITY_EVALUATOR,
    scaleNote: QUALITY_SCALE_NOTE,
    promptSetHash: 'a'.repeat(64),
    referenceTextHash: 'b'.repeat(64),
    n: 2,
    topLogprobs: 20,
    // The servers of evidencePair's two runs (test-support/evidence-fixture.ts).
    compared: {
      baseline: { model: 'demo-model', fingerprint: 'a'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' },
      candidate: { model: 'demo-model', fingerprint: 'b'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' },
      measuredAt: '2026-06-03T12:00:00.000Z',
    },
    baseline: { url: 'http://127.0.0.1:8001' },
    candidate: { url: 'http://127.0.0.1:8002' },
  };
}

/**
 * A score as goodput now writes it: composed by core from per-prompt evidence
 * (two prompts, one where the sides differ; a reference text scored on both),
 * naming the two runs it belongs to and comparing evidencePair's servers.
 */
export function measuredQualityFixture(runs: { baseline: SweepResult; optimized: SweepResult }): QualityScore {
  const evidence: NonNullable<QualityScore['evidence']> = {
    firstToken: [
      {
        baseline: [
          { token: 'A', logprob: Math.log(0.6) },
          { token: 'B', logprob: Math.log(0.3) },
        ],
        candidate: [
          { token: 'A', logprob: Math.log(0.5) },
          { token: 'B', logprob: Math.log(0.4) },
        ],
      },
      {
        baseline: [
          { token: 'C', logprob: Math.log(0.9) },
          { token: 'D', logprob: Math.log(0.05) },
        ],
        candidate: [
          { token: 'C', logprob: Math.log(0.88) },
          { token: 'D', logprob: Math.log(0.06) },
        ],
      },
    ],
    referenceText: {
      baseline: { tokens: [' x', ' y', ' z'], logprobs: [-1, -2, -1.5] },
      candidate: { tokens: [' x', ' y', ' z'], logprobs: [-1.1, -2.05, -1.6] },
    },
  };
  const score = composeQualityScore({ ...evidence, topLogprobs: 2, promptSetHash: 'a'.repeat(64), referenceTextHash: 'b'.repeat(64) });
  const id = (r: SweepResult) => runIdOf(r) ?? 'records:' + '0'.repeat(64);
  return {
    ...score,
    evidence,
    compared: qualityFixture().compared,
    runs: { baseline: id(runs.baseline), candidate: id(runs.optimized) },
  };
}
