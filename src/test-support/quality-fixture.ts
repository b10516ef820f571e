/** A quality score literal as `goodput quality --json` writes it (servers' URLs included, as in the real file). */
import { QUALITY_EVALUATOR, QUALITY_SCALE_NOTE, type QualityScore } from '../core/index.js';

export function qualityFixture(composite = 0.97): QualityScore & { baseline: { url: string }; candidate: { url: string } } {
  return {
    composite,
    compositeProvenance: 'derived',
    components: {
      kl: { value: 0.03, provenance: 'measured', statistic: 'mean over prompts', perPrompt: [0.02, 0.04], term: Math.exp(-0.03), weight: 0.7 },
      pplDelta: { value: 0.02, provenance: 'measured', pplBaseline: 10, pplCandidate: 10.2, tokens: 50, term: 10 / 10.2, weight: 0.3 },
    },
    evaluator: QUALITY_EVALUATOR, scaleNote: QUALITY_SCALE_NOTE,
    promptSetHash: 'a'.repeat(64), referenceTextHash: 'b'.repeat(64), n: 2, topLogprobs: 20,
    baseline: { url: 'http://127.0.0.1:8001' }, candidate: { url: 'http://127.0.0.1:8002' },
  };
}
