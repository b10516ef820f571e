import { describe, expect, it } from 'vitest';
import { composeQualityScore } from './quality-score.js';
import { QUALITY_NOISE_RESAMPLES, compositeOf, qualityNoise } from './quality-noise.js';
import { qualityDifference, qualityVerdictText } from './quality-difference.js';
import { qualityScoreSchema } from './quality-score-schema.js';
import { BOOTSTRAP } from './difference.js';
import type { QualityScore } from './quality-score.js';
import { KL_WEIGHT } from './quality-weights.js';

/** A score whose per-prompt KL values are `kls` and whose perplexity is unchanged (term 1), as composeQualityScore would write it. */
function score(kls: number[]): QualityScore {
  const mean = kls.reduce((a, b) => a + b, 0) / kls.length;
  const term = Math.exp(-mean);
  const noise = qualityNoise(kls, 1);
  return {
    composite: 1 - KL_WEIGHT * (1 - term),
    compositeProvenance: 'derived',
    components: {
      kl: { value: mean, provenance: 'measured', statistic: 'mean over prompts', perPrompt: kls, term, weight: KL_WEIGHT },
      pplDelta: { value: 0, provenance: 'measured', pplBaseline: 10, pplCandidate: 10, tokens: 50, term: 1, weight: 0.3 },
    },
    evaluator: composeQualityScore({
      firstToken: [{ baseline: [{ token: 'a', logprob: -0.1 }], candidate: [{ token: 'a', logprob: -0.1 }] }],
      referenceText: { notRecorded: 'x' },
      promptSetHash: 'a'.repeat(64),
      referenceTextHash: 'b'.repeat(64),
      topLogprobs: 1,
    }).evaluator,
    scaleNote: '1.0 = no detected degradation on this composite under the disclosed workload',
    promptSetHash: 'a'.repeat(64),
    referenceTextHash: 'b'.repeat(64),
    n: kls.length,
    topLogprobs: 20,
    ...(noise === null ? {} : { noise }),
  };
}

/** 32 prompts: half agree (KL `low`), half disagree (KL `high`). */
const spread = (low: number, high: number) => Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? low : high));

describe("the quality score's own noise", () => {
  it('is the half-width of the seeded bootstrap interval of the composite over the prompts, reproducibly', () => {
    const kls = spread(0, 0.2);
    const a = qualityNoise(kls, 1);
    expect(a).toEqual(qualityNoise(kls, 1));
    expect(a?.seed).toBe(BOOTSTRAP.seed);
    expect(a?.resamples).toBe(QUALITY_NOISE_RESAMPLES);
    // Half the prompts at 0.2 nats: the mean moves by about 0.2 × √(0.25/32) × 1.96 ≈ 0.035 nats, the composite by 0.7 × e^(−0.1) × that.
    expect(a?.value).toBeGreaterThan(0.01);
    expect(a?.value).toBeLessThan(0.03);
    // Prompts that all agree leave nothing to resample; no composite, no noise.
    expect(qualityNoise(spread(0.03, 0.03), 1)?.value).toBeCloseTo(0, 12);
    expect(qualityNoise(kls, null)).toBeNull();
    expect(qualityNoise([], 1)).toBeNull();
  });

  it('composeQualityScore records it, and a score read back must carry the noise its prompts give', () => {
    const tok = (p: number) => [
      { token: 'a', logprob: Math.log(p) },
      { token: 'b', logprob: Math.log(1 - p) },
    ];
    const s = composeQualityScore({
      firstToken: [0.5, 0.6, 0.9, 0.5].map((p) => ({ baseline: tok(0.5), candidate: tok(p) })),
      referenceText: { baseline: { tokens: ['x', 'y'], logprobs: [-1, -1] }, candidate: { tokens: ['x', 'y'], logprobs: [-1, -1.2] } },
      promptSetHash: 'a'.repeat(64),
      referenceTextHash: 'b'.repeat(64),
      topLogprobs: 2,
    });
    expect(s.noise?.value).toBeGreaterThan(0);
    expect(s.noise).toEqual(qualityNoise(s.components.kl.perPrompt, s.components.pplDelta.value === null ? null : s.components.pplDelta.term));
    expect(qualityScoreSchema.safeParse(s).success).toBe(true);
    const forged = qualityScoreSchema.safeParse({ ...s, noise: { ...s.noise, value: (s.noise?.value ?? 0) * 3 } });
    expect(forged.success).toBe(false);
    expect(forged.error?.issues.map((i) => i.path.join('.'))).toEqual(['noise.value']);
    expect(qualityScoreSchema.safeParse({ ...s, noise: { ...s.noise, seed: 1 } }).error?.issues[0]?.message).toMatch(/seed 20240611 and 1000 resamples/);
    // Scores written before the noise was recorded still read; they are compared without it.
    const { noise: _n, ...older } = s;
    expect(qualityScoreSchema.safeParse(older).success).toBe(true);
  });

  it('a hostile file with very many prompts is bounded work', () => {
    const kls = Array.from({ length: 1_000_000 }, (_, i) => (i % 3) * 0.01);
    expect(qualityNoise(kls, 1)?.value).toBeGreaterThan(0);
  });
});

describe("quality differences follow the one rule, with the score's noise", () => {
  it('a change within the noise is no difference established; one past it is better or worse', () => {
    const base = score(spread(0, 0.2));
    const within = score(spread(0.002, 0.202));
    const d = qualityDifference(base, within);
    expect(d.verdict).toBe('no difference established');
    expect(Math.abs(d.diff as number)).toBeLessThan(base.noise?.value as number);
    const past = score(spread(0.1, 0.3));
    const worse = qualityDifference(base, past);
    expect(worse.verdict).toBe('worse');
    expect(Math.abs(worse.diff as number)).toBeGreaterThan(base.noise?.value as number);
    expect(worse.hi as number).toBeLessThan(0);
    expect(qualityDifference(past, base).verdict).toBe('better');
    expect(qualityVerdictText(worse, 'run 1')).toMatch(/^worse than run 1: −0\.\d{4} \(95 % interval −0\.\d{4} to −0\.\d{4} over the prompts\)$/);
  });

  it('the noise decides when the interval alone would name a direction', () => {
    // Two steady scores (no spread, no noise of their own) 0.0007 apart: the interval excludes zero.
    const a = score(spread(0.03, 0.03));
    const b = score(spread(0.031, 0.031));
    expect(qualityDifference(a, b).verdict).toBe('worse');
    // The same two with a noisy score among them: the larger noise is the floor.
    const noisy = { ...b, noise: { ...(score(spread(0, 0.2)).noise as NonNullable<QualityScore['noise']>) } };
    const d = qualityDifference(a, noisy);
    expect(d.verdict).toBe('no difference established');
    expect(d.why).toMatch(/within the figure's own noise/);
  });

  it('against the baseline itself (exactly 1): a degraded score is worse only past its noise', () => {
    expect(compositeOf(0, 1)).toBe(1);
    expect(qualityDifference('baseline itself', score(spread(0.05, 0.05))).verdict).toBe('worse');
    // One prompt in 32 disagrees: most resamples hold it once or not at all, so no degradation is established.
    const rare = score(Array.from({ length: 32 }, (_, i) => (i === 0 ? 0.3 : 0)));
    const d = qualityDifference('baseline itself', rare);
    expect(d.verdict).toBe('no difference established');
    expect(qualityVerdictText(d, 'the baseline')).toMatch(
      /^no difference established from the baseline \((the interval includes zero|the change is within the figure's own noise.*)\): −0\.\d{4}/,
    );
    const noPpl = {
      ...rare,
      composite: null,
      compositeProvenance: 'not recorded' as const,
      components: { ...rare.components, pplDelta: { value: null, provenance: 'not recorded' as const, reason: 'no logprobs', weight: 0.3 } },
    };
    expect(qualityDifference('baseline itself', noPpl).verdict).toBe('not compared');
  });
});
