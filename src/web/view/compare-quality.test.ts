import { describe, expect, it } from 'vitest';
import { type QualityScore, KL_WEIGHT, QUALITY_EVALUATOR, qualityNoise } from '../../core/index.js';
import { compareQuality, qualityVerdictPhrase } from './compare-quality.js';

const side = { model: 'm', fingerprint: 'f'.repeat(64), engine: null, engineVersion: null };

/** A score over these per-prompt KL values, perplexity unchanged, measured against `side` unless `compared` is false. */
function score(kls: number[], over: Partial<QualityScore> = {}): QualityScore {
  const mean = kls.reduce((a, b) => a + b, 0) / kls.length;
  const noise = qualityNoise(kls, 1);
  return {
    composite: 1 - KL_WEIGHT * (1 - Math.exp(-mean)),
    compositeProvenance: 'derived',
    components: {
      kl: { value: mean, provenance: 'measured', statistic: 'mean over prompts', perPrompt: kls, term: Math.exp(-mean), weight: KL_WEIGHT },
      pplDelta: { value: 0, provenance: 'measured', pplBaseline: 10, pplCandidate: 10, tokens: 50, term: 1, weight: 0.3 },
    },
    evaluator: QUALITY_EVALUATOR,
    scaleNote: '1.0 = no detected degradation',
    promptSetHash: 'a'.repeat(64),
    referenceTextHash: 'b'.repeat(64),
    n: kls.length,
    topLogprobs: 20,
    compared: { baseline: side, candidate: { ...side, fingerprint: 'c'.repeat(64) }, measuredAt: '2026-12-01T00:00:00.000Z' },
    ...(noise === null ? {} : { noise }),
    ...over,
  };
}
const steady = (kl: number) => Array.from({ length: 32 }, () => kl);
const spread = (low: number, high: number) => Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? low : high));

describe('the quality row of a comparison', () => {
  it('is absent when no run carries a score', () => {
    expect(compareQuality([{ label: 'a' }, { label: 'b' }])).toBeNull();
  });

  it("a change the interval alone would call worse is no difference established within the scores' own noise", () => {
    const a = score(steady(0.03));
    const steadyWorse = compareQuality([
      { label: 'a', quality: a },
      { label: 'b', quality: score(steady(0.031)) },
    ]);
    expect(steadyWorse?.verdicts[0]?.verdict).toBe('worse');
    const noisy = score(steady(0.031), { noise: score(spread(0, 0.2)).noise });
    const q = compareQuality([
      { label: 'a', quality: a },
      { label: 'b', quality: noisy },
    ]);
    const v = q?.verdicts[0];
    expect(v?.difference?.lo).toBeLessThan(0);
    expect(v?.difference?.hi).toBeLessThan(0);
    expect(v?.verdict).toMatch(/^no difference established \(the change is within the figure's own noise \(±0\.0\d+\)\)$/);
    expect(qualityVerdictPhrase(v as NonNullable<typeof v>)).toMatch(
      /^−0\.0007, 95 % interval −0\.0007 to −0\.0007 over the prompts \(the scores' own noise ±0\.0\d{3}\): no difference established/,
    );
    expect(q?.scores[1]).toMatch(/^0\.97\d{2} ± 0\.0\d{3} \(32 prompts\)$/);
  });

  it('compares nothing when a score does not say what it was measured against, or used other prompts', () => {
    const a = score(steady(0.03));
    const old = score(steady(0.05), { compared: undefined });
    expect(
      compareQuality([
        { label: 'a', quality: a },
        { label: 'b', quality: old },
      ])?.verdicts[0],
    ).toMatchObject({
      difference: null,
      verdict: "not compared: b's score does not record what it was measured against, so the two scores may not share a baseline",
    });
    const other = score(steady(0.05), { promptSetHash: 'd'.repeat(64) });
    expect(
      compareQuality([
        { label: 'a', quality: a },
        { label: 'b', quality: other },
      ])?.verdicts[0]?.verdict,
    ).toBe('not compared: the two scores were measured against different prompts, reference text or top_logprobs, so they do not measure the same thing');
    const noComposite = score(steady(0.05), {
      composite: null,
      compositeProvenance: 'not recorded',
      components: { ...a.components, pplDelta: { value: null, provenance: 'not recorded', reason: 'no logprobs', weight: 0.3 } },
    });
    const q = compareQuality([
      { label: 'a', quality: a },
      { label: 'b', quality: noComposite },
    ]);
    expect(q?.scores[1]).toBe('not recorded (no logprobs)');
    expect(q?.verdicts[0]?.verdict).toMatch(/^not compared: a side has no composite/);
  });
});
