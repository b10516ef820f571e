import { describe, expect, it } from 'vitest';
import { composeQualityScore } from './quality-score.js';
import { qualityScoreSchema } from './quality-score-schema.js';
import type { TokenLogprob } from './quality-score-kl.js';

const top = (probs: Record<string, number>): TokenLogprob[] => Object.entries(probs).map(([token, logprob]) => ({ token, logprob: Math.log(logprob) }));
const text = (probs: number[]) => ({ tokens: probs.map((_, i) => `t${i}`), logprobs: probs.map(Math.log) });
const base = {
  promptSetHash: 'a'.repeat(64),
  referenceTextHash: 'b'.repeat(64),
  topLogprobs: 20,
  firstToken: [{ baseline: top({ a: 0.6, b: 0.3 }), candidate: top({ a: 0.5, b: 0.4 }) }],
};

describe('qualityScoreSchema', () => {
  it('reads back what composeQualityScore makes, with and without the composite, dropping extra keys', () => {
    const full = composeQualityScore({ ...base, referenceText: { baseline: text([0.5, 0.1]), candidate: text([0.4, 0.1]) } });
    expect(qualityScoreSchema.parse({ ...full, baseline: { url: 'http://x' } })).toEqual(full);
    const partial = composeQualityScore({ ...base, referenceText: { notRecorded: 'no prompt logprobs' } });
    expect(qualityScoreSchema.parse(partial)).toEqual(partial);
  });

  it('refuses a score without its scale note or evaluator, or whose provenance contradicts its value', () => {
    const s = composeQualityScore({ ...base, referenceText: { baseline: text([0.5]), candidate: text([0.5]) } });
    const issues = (x: unknown) => qualityScoreSchema.safeParse(x).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ ...s, scaleNote: '' })).toEqual(['scaleNote: the scale note must be stated']);
    expect(issues({ ...s, evaluator: '' })).toEqual(['evaluator: the evaluator must be stated']);
    expect(issues({ ...s, compositeProvenance: 'not recorded' })).toEqual(['compositeProvenance: must be "not recorded" exactly when composite is null']);
    expect(issues({ ...s, composite: 1.2 })?.[0]).toMatch(/^composite: /);
  });

  it('refuses an edited score: another evaluator or scale, or a figure that does not recompute from its components', () => {
    const s = composeQualityScore({ ...base, referenceText: { baseline: text([0.5, 0.1]), candidate: text([0.4, 0.1]) } });
    const issues = (x: unknown) => qualityScoreSchema.safeParse(x).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ ...s, evaluator: 'my own vibes' })).toEqual([expect.stringMatching(/^evaluator: must be goodput-quality-v1's definition/)]);
    expect(issues({ ...s, scaleNote: '1.0 = great' })).toEqual([expect.stringMatching(/^scaleNote: must read "1\.0 = no detected degradation/)]);
    expect(issues({ ...s, composite: 0.999 })).toEqual([expect.stringMatching(/^composite: is 0\.999, but its components give 0\.9/)]);
    const kl = { ...s.components.kl, value: 3 };
    expect(issues({ ...s, components: { ...s.components, kl } })).toEqual([
      expect.stringMatching(/^components\.kl\.value: is 3, not the mean of perPrompt/),
      expect.stringMatching(/^components\.kl\.term: is .*, not exp\(−KL\)/),
    ]);
    expect(issues({ ...s, n: 5 })).toEqual(['n: is 5 but 1 per-prompt KL values are given']);
  });
});
