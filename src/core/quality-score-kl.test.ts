import { describe, expect, it } from 'vitest';
import { completeDistribution, firstTokenKl, meanFirstTokenKl, TAIL_EPSILON, type TokenLogprob } from './quality-score-kl.js';

/** {token: probability} → returned top logprobs. */
const top = (probs: Record<string, number>): TokenLogprob[] => Object.entries(probs).map(([token, p]) => ({ token, logprob: Math.log(p) }));

describe('firstTokenKl (hand-computed vectors, nats)', () => {
  it('is exactly 0 for identical returned lists', () => {
    const same = top({ ' the': 0.6, ' a': 0.25, ' an': 0.05 });
    expect(firstTokenKl(same, same)).toBe(0);
  });

  it('same tokens, different probabilities: .7 ln(7/6) + .2 ln(2/3) + .1 ln(.1/.1) = 0.0268125', () => {
    expect(firstTokenKl(top({ a: 0.7, b: 0.2 }), top({ a: 0.6, b: 0.3 }))).toBeCloseTo(0.0268124543, 9);
  });

  it("a token returned by one side only gets an even share of the other side's tail: 0.3025260", () => {
    // P: tail .2, c missing → c = .2/2 = .1, tail bucket .1 → [a .5, b .3, c .1, tail .1]
    // Q: tail .2, b missing → b = .1, tail bucket .1 → [a .4, b .1, c .4, tail .1]
    // KL = .5 ln(.5/.4) + .3 ln(.3/.1) + .1 ln(.1/.4) + .1 ln(.1/.1)
    expect(firstTokenKl(top({ a: 0.5, b: 0.3 }), top({ a: 0.4, c: 0.4 }))).toBeCloseTo(0.3025260261, 9);
  });

  it("caps the share at the side's smallest returned probability: 0.5596555", () => {
    // P: tail .39, c missing → share min(.39/2, .01) = .01, tail bucket .38 → [a .6, b .01, c .01, tail .38]
    // Q: tail .2, b missing → share .1, tail bucket .1 → [a .5, b .1, c .3, tail .1]
    expect(firstTokenKl(top({ a: 0.6, b: 0.01 }), top({ a: 0.5, c: 0.3 }))).toBeCloseTo(0.5596555147, 9);
  });

  it('floors probabilities at ε so KL stays finite when a side returned all of its mass', () => {
    // P: [a 1, b ε, tail ε] renormalised; Q: [a .5, b .5, tail ε] → ≈ ln 2
    expect(firstTokenKl(top({ a: 1 }), top({ a: 0.5, b: 0.5 }))).toBeCloseTo(0.6931471781, 9);
    const reverse = firstTokenKl(top({ a: 0.5, b: 0.5 }), top({ a: 1 }));
    expect(Number.isFinite(reverse)).toBe(true);
    expect(reverse).toBeCloseTo(0.5 * Math.log(0.5) + 0.5 * Math.log(0.5 / TAIL_EPSILON), 6);
  });

  it('accepts a -Infinity logprob (probability 0, floored at ε)', () => {
    const kl = firstTokenKl(
      [
        { token: 'a', logprob: 0 },
        { token: 'b', logprob: Number.NEGATIVE_INFINITY },
      ],
      top({ a: 1 }),
    );
    expect(kl).toBeCloseTo(0, 8);
  });

  it('sums duplicate tokens on one side (two ids with the same text)', () => {
    const dup = [
      { token: 'a', logprob: Math.log(0.3) },
      { token: 'a', logprob: Math.log(0.2) },
      { token: 'b', logprob: Math.log(0.3) },
    ];
    expect(firstTokenKl(dup, top({ a: 0.5, b: 0.3 }))).toBeCloseTo(0, 12);
  });

  it('treats returned mass above 1 (rounding) as a tail of ε', () => {
    const d = completeDistribution(
      new Map([
        ['a', 0.6],
        ['b', 0.400001],
      ]),
      ['a', 'b'],
    );
    expect(d.at(-1)).toBeLessThan(1e-9);
    expect(d.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
  });

  it('refuses bad input with a message naming the side and token', () => {
    expect(() => firstTokenKl([], top({ a: 1 }))).toThrow(/baseline: no top logprobs were returned/);
    expect(() => firstTokenKl(top({ a: 1 }), [])).toThrow(/candidate: no top logprobs were returned/);
    expect(() => firstTokenKl([{ token: 'x', logprob: Number.NaN }], top({ a: 1 }))).toThrow(/baseline: token "x" has logprob NaN/);
    expect(() => firstTokenKl(top({ a: 1 }), [{ token: 'y', logprob: 0.5 }])).toThrow(/candidate: token "y" has logprob 0.5; a logprob is a number ≤ 0/);
  });
});

describe('meanFirstTokenKl', () => {
  it('is the arithmetic mean of the per-prompt values', () => {
    const r = meanFirstTokenKl([
      { baseline: top({ a: 0.7, b: 0.2 }), candidate: top({ a: 0.6, b: 0.3 }) },
      { baseline: top({ a: 0.5, b: 0.3 }), candidate: top({ a: 0.4, c: 0.4 }) },
    ]);
    expect(r.perPrompt[0]).toBeCloseTo(0.0268124543, 9);
    expect(r.perPrompt[1]).toBeCloseTo(0.3025260261, 9);
    expect(r.mean).toBeCloseTo((0.0268124543 + 0.3025260261) / 2, 9);
  });

  it('refuses an empty prompt set and names the prompt at fault', () => {
    expect(() => meanFirstTokenKl([])).toThrow(/at least one prompt/);
    expect(() =>
      meanFirstTokenKl([
        { baseline: top({ a: 1 }), candidate: top({ a: 1 }) },
        { baseline: [], candidate: top({ a: 1 }) },
      ]),
    ).toThrow(/prompt 1: baseline: no top logprobs/);
  });
});
