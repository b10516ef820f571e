import { describe, expect, it } from 'vitest';
import { contextAfter, distributionAt, logprobOf, nextContext, startContext } from './logprobs-model.js';
import { OUTPUT_WORDS } from './tokenizer.js';

const clean = { seed: 7, noiseSd: 0 };
const ctx = contextAfter(7, ['Explain', 'why', 'the', 'sky', 'is', 'blue']);
const mass = (lps: number[]) => lps.reduce((s, lp) => s + Math.exp(lp), 0);

describe('logprobs model', () => {
  it('is a normalised distribution over the vocabulary, most likely first', () => {
    const d = distributionAt(clean, ctx);
    expect(d.tokens).toHaveLength(OUTPUT_WORDS.length);
    expect(mass(d.logprobs)).toBeCloseTo(1, 12);
    expect(d.logprobs.every((lp, i) => i === 0 || lp <= (d.logprobs[i - 1] as number))).toBe(true);
    expect(d.tokens.every((t) => t.startsWith(' '))).toBe(true);
  });

  it('is deterministic per (seed, context) and differs with either', () => {
    expect(distributionAt(clean, ctx)).toEqual(distributionAt(clean, ctx));
    expect(distributionAt(clean, nextContext(ctx, ' lorem')).tokens).not.toEqual(distributionAt(clean, ctx).tokens);
    expect(distributionAt({ seed: 8, noiseSd: 0 }, contextAfter(8, ['Explain'])).logprobs).not.toEqual(
      distributionAt(clean, contextAfter(7, ['Explain'])).logprobs,
    );
  });

  it('rolls the context over words, ignoring the leading space', () => {
    expect(contextAfter(7, ['a', 'b'])).toBe(nextContext(nextContext(startContext(7), 'a'), ' b'));
  });

  it('adds a token outside the vocabulary (a prompt word) and still sums to 1', () => {
    const d = distributionAt(clean, ctx, ' cerulean');
    expect(d.tokens).toContain(' cerulean');
    expect(mass(d.logprobs)).toBeCloseTo(1, 12);
    expect(logprobOf(d, ' cerulean')).toBeLessThan(0);
    expect(distributionAt(clean, ctx, ' lorem').tokens).toHaveLength(OUTPUT_WORDS.length); // in the vocabulary already
  });

  it('quantization noise 0 is the base model; more noise moves further from it', () => {
    const base = distributionAt(clean, ctx);
    expect(distributionAt({ seed: 7, noiseSd: 0 }, ctx)).toEqual(base);
    const p = new Map(base.tokens.map((t, i) => [t, Math.exp(base.logprobs[i] as number)]));
    const kl = (sd: number): number => {
      const q = distributionAt({ seed: 7, noiseSd: sd }, ctx);
      return q.tokens.reduce((s, t, i) => s + (p.get(t) as number) * (Math.log(p.get(t) as number) - (q.logprobs[i] as number)), 0);
    };
    const values = [0.05, 0.1, 0.2, 0.5, 1].map(kl);
    expect(values[0]).toBeGreaterThan(0);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1] as number);
  });
});
