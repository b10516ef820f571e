import { describe, expect, it } from 'vitest';
import { composeQualityScore, QUALITY_EVALUATOR, QUALITY_SCALE_NOTE, type QualityInput } from './quality-score.js';
import { formatQualityScore, formatScoreValue, qualityScoreLine } from './quality-score-format.js';
import { comparePerplexity, perplexity } from './quality-score-ppl.js';
import type { TokenLogprob } from './quality-score-kl.js';

const top = (probs: Record<string, number>): TokenLogprob[] => Object.entries(probs).map(([token, p]) => ({ token, logprob: Math.log(p) }));
const text = (probs: number[]) => ({ tokens: probs.map((_, i) => `t${i}`), logprobs: probs.map(Math.log) });

const hashes = { promptSetHash: 'a'.repeat(64), referenceTextHash: 'b'.repeat(64), topLogprobs: 20 };
const same = top({ a: 0.6, b: 0.3 });

describe('perplexity', () => {
  it('exp(−mean ln p): tokens at 1/2, 1/4, 1/8 give 4', () => {
    expect(perplexity([Math.log(0.5), Math.log(0.25), Math.log(0.125)])).toBeCloseTo(4, 12);
  });
  it('refuses an empty list and a logprob above 0', () => {
    expect(() => perplexity([])).toThrow(/at least one token logprob/);
    expect(() => perplexity([-1, 0.2])).toThrow(/token 1: logprob 0.2 is not a number ≤ 0/);
  });
  it('compares only the same tokens', () => {
    const r = comparePerplexity(text([0.5, 0.25, 0.125]), text([0.125, 0.125, 0.125]));
    expect(r).toMatchObject({
      pplBaseline: expect.closeTo(4, 12),
      pplCandidate: expect.closeTo(8, 12),
      tokens: 3,
      delta: expect.closeTo(1, 12),
      term: expect.closeTo(0.5, 12),
    });
    expect(comparePerplexity(text([0.5]), text([0.5, 0.5]))).toMatch(/different numbers of tokens \(baseline 1, candidate 2\)/);
    expect(comparePerplexity({ tokens: ['x'], logprobs: [-1] }, { tokens: ['y'], logprobs: [-1] })).toMatch(
      /tokenized the reference text differently \(scored token 1: "x" vs "y"\)/,
    );
    expect(() => comparePerplexity({ tokens: ['x'], logprobs: [] }, text([0.5]))).toThrow(/baseline: 1 tokens but 0 logprobs/);
  });
  it('a candidate with lower perplexity is capped at a term of 1', () => {
    const r = comparePerplexity(text([0.25, 0.25]), text([0.5, 0.5]));
    expect(typeof r !== 'string' && r.term).toBe(1);
  });
});

describe('composeQualityScore', () => {
  it('identical configurations score exactly 1.0', () => {
    const s = composeQualityScore({
      ...hashes,
      firstToken: [{ baseline: same, candidate: same }],
      referenceText: { baseline: text([0.5, 0.1]), candidate: text([0.5, 0.1]) },
    });
    expect(s.composite).toBe(1);
    expect(s.components.kl.value).toBe(0);
    expect(s.components.pplDelta.value).toBe(0);
  });

  it('0.7·exp(−KL) + 0.3·min(1, PPL_b/PPL_c): KL 0.0268125 and PPL 4 → 8 give 0.8314807', () => {
    const input: QualityInput = {
      ...hashes,
      firstToken: [{ baseline: top({ a: 0.7, b: 0.2 }), candidate: top({ a: 0.6, b: 0.3 }) }],
      referenceText: { baseline: text([0.5, 0.25, 0.125]), candidate: text([0.125, 0.125, 0.125]) },
    };
    const s = composeQualityScore(input);
    expect(s.composite).toBeCloseTo(0.8314806659, 9);
    expect(s.compositeProvenance).toBe('derived');
    expect(s.components.kl).toMatchObject({ provenance: 'measured', statistic: 'mean over prompts', weight: 0.7, term: expect.closeTo(0.9735438084, 9) });
    expect(s.components.pplDelta).toMatchObject({
      provenance: 'measured',
      value: expect.closeTo(1, 12),
      pplBaseline: expect.closeTo(4, 12),
      tokens: 3,
      weight: 0.3,
    });
    expect(s).toMatchObject({ evaluator: QUALITY_EVALUATOR, scaleNote: QUALITY_SCALE_NOTE, n: 1, topLogprobs: 20, promptSetHash: hashes.promptSetHash });
  });

  it('without prompt logprobs the composite is not recorded, never invented', () => {
    const s = composeQualityScore({ ...hashes, firstToken: [{ baseline: same, candidate: same }], referenceText: { notRecorded: 'baseline: no echo' } });
    expect(s.composite).toBeNull();
    expect(s.compositeProvenance).toBe('not recorded');
    expect(s.components.pplDelta).toEqual({ value: null, provenance: 'not recorded', reason: 'baseline: no echo', weight: 0.3 });
    expect(s.components.kl.value).toBe(0);
  });

  it('a different tokenization makes the perplexity component not recorded', () => {
    const s = composeQualityScore({
      ...hashes,
      firstToken: [{ baseline: same, candidate: same }],
      referenceText: { baseline: text([0.5]), candidate: text([0.5, 0.5]) },
    });
    expect(s.composite).toBeNull();
    expect(s.components.pplDelta.provenance).toBe('not recorded');
  });

  it('refuses a bad top_logprobs and an empty prompt set', () => {
    const ref = { notRecorded: 'x' };
    expect(() => composeQualityScore({ ...hashes, topLogprobs: 0, firstToken: [{ baseline: same, candidate: same }], referenceText: ref })).toThrow(
      /topLogprobs must be a whole number ≥ 1, got 0/,
    );
    expect(() => composeQualityScore({ ...hashes, firstToken: [], referenceText: ref })).toThrow(/at least one prompt/);
  });
});

describe('formatting: the number never goes out without the evaluator and the scale note', () => {
  const measured = composeQualityScore({
    ...hashes,
    firstToken: [{ baseline: top({ a: 0.7, b: 0.2 }), candidate: top({ a: 0.6, b: 0.3 }) }],
    referenceText: { baseline: text([0.5, 0.25, 0.125]), candidate: text([0.125, 0.125, 0.125]) },
  });
  const unrecorded = composeQualityScore({
    ...hashes,
    firstToken: [{ baseline: same, candidate: same }],
    referenceText: { notRecorded: 'candidate ignored echo' },
  });

  it('formatScoreValue truncates, so a degraded score never prints as 1', () => {
    expect(formatScoreValue(1)).toBe('1.0');
    expect(formatScoreValue(0.99999)).toBe('0.9999');
    expect(formatScoreValue(0.83148)).toBe('0.8314');
    expect(formatScoreValue(1 - 1e-14)).toBe('0.9999');
  });

  it('formatScoreValue is not fooled by binary error: every four-decimal value prints as itself', () => {
    const wrong = Array.from({ length: 10_000 }, (_, i) => i / 1e4).filter((v) => formatScoreValue(v) !== v.toFixed(4));
    expect(wrong).toEqual([]);
  });

  it('the block carries the number, both components, the evaluator, the scale note and the hashes', () => {
    const out = formatQualityScore(measured);
    expect(out).toMatch(/^Quality score: 0\.8314 \(derived/);
    expect(out).toContain('first-token KL: 2.681e-2 nats (measured, mean over 1 prompts, top_logprobs 20) → exp(−KL) = 0.9735, weight 0.7');
    expect(out).toContain(
      'perplexity delta: +100.00% (measured; PPL 4.000 baseline, 8.000 candidate, 3 tokens) → min(1, PPL_baseline / PPL_candidate) = 0.5000, weight 0.3',
    );
    // One prompt: nothing to resample, so no noise and no interval: no direction is established.
    expect(out).toContain('noise: ±0.0000 (half-width of the seeded 95 % bootstrap interval of the composite over the prompts, seed 20240611, 1000 resamples)');
    expect(out).toMatch(/against the baseline: no difference established from the baseline \(fewer than 2 values on a side\): −0\.1685/);
    expect(out).toContain(`evaluator: ${QUALITY_EVALUATOR}`);
    expect(out).toContain(`scale: ${QUALITY_SCALE_NOTE}`);
    expect(out).toContain(`prompt set sha256:${'a'.repeat(64)}, reference text sha256:${'b'.repeat(64)}`);
  });

  it('not recorded: says so, shows the KL component alone and the reason', () => {
    const out = formatQualityScore(unrecorded);
    expect(out).toMatch(/^Quality score: not recorded/);
    expect(out).toContain('perplexity delta: not recorded: candidate ignored echo');
    expect(out).toContain('first-token KL: 0.000e+0 nats');
    expect(out).toContain(QUALITY_SCALE_NOTE);
  });

  it('the one-line form carries the evaluator id and the scale note', () => {
    expect(qualityScoreLine(measured)).toBe(`quality 0.8314 (goodput-quality-v1; ${QUALITY_SCALE_NOTE})`);
    expect(qualityScoreLine(unrecorded)).toBe(`quality not recorded (goodput-quality-v1; ${QUALITY_SCALE_NOTE})`);
  });
});
