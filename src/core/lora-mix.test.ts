/**
 * The --lora mix: read from its text with every refusal in its own words, and
 * the adapter each request names, drawn from the seed, the level and the
 * request's number: the same for the same inputs, near each weight's share
 * over any run of requests, different for another seed or level.
 */
import { describe, expect, it } from 'vitest';
import { adapterAt, loraMixSchema, parseLoraMix } from './lora-mix.js';

const MIX = [
  { name: 'sql-lora', weight: 3 },
  { name: 'chat-lora', weight: 1 },
];

describe('parseLoraMix', () => {
  it('reads names and weights in order, decimals too', () => {
    expect(parseLoraMix('sql-lora=3, chat-lora=1')).toEqual({ ok: true, mix: MIX });
    expect(parseLoraMix('org/adapter:v2=0.5')).toEqual({ ok: true, mix: [{ name: 'org/adapter:v2', weight: 0.5 }] });
  });

  it.each([
    ['sql-lora', 'adapter 1 is not name=weight (e.g. sql-lora=3,chat-lora=1)'],
    ['a=1,b', 'adapter 2 is not name=weight (e.g. sql-lora=3,chat-lora=1)'],
    ['a=x', 'adapter 1: its weight is not a number above 0 (e.g. sql-lora=3)'],
    ['a=-1', 'adapter 1: its weight is not a number above 0 (e.g. sql-lora=3)'],
    ['a=', 'adapter 1: its weight is not a number above 0 (e.g. sql-lora=3)'],
    ['a=0', 'adapter a: an adapter weight must be above 0'],
    ['a=2000000', 'adapter a: adapter weight 2000000 is above the limit of 1000000 weight of one LoRA adapter in --lora'],
    ['=1', 'adapter 1: an adapter name must not be empty'],
    ['a b=1', 'adapter 1: an adapter name is visible ASCII without spaces, commas or ='],
    ['a\u001b[31m=1', 'adapter 1: an adapter name is visible ASCII without spaces, commas or ='],
    [`${'x'.repeat(257)}=1`, 'adapter 1: adapter name length 257 is above the limit of 256 characters in the name of one LoRA adapter (--lora)'],
    ['a=1,b=1,a=2', 'adapter 3: a is named twice; name each adapter once'],
  ])('refuses %j: %s', (text, message) => {
    expect(parseLoraMix(text)).toEqual({ ok: false, message });
  });

  it('refuses more adapters than the limit before reading them', () => {
    const text = Array.from({ length: 65 }, (_, i) => `a${i}=1`).join(',');
    expect(parseLoraMix(text)).toEqual({ ok: false, message: 'adapters 65 is above the limit of 64 LoRA adapters one run sends to (--lora)' });
  });

  it('is the schema a result file is read with', () => {
    expect(loraMixSchema.safeParse([{ name: 'a', weight: 1, extra: 1 }]).success).toBe(false);
    expect(loraMixSchema.safeParse([]).success).toBe(false);
    expect(loraMixSchema.parse(MIX)).toEqual(MIX);
  });
});

describe('adapterAt', () => {
  const draw = (seed: number, level: number, n: number) => Array.from({ length: n }, (_, seq) => adapterAt(MIX, seed, level, seq));
  const count = (names: string[], name: string) => names.filter((n) => n === name).length;

  it('draws the same adapter for the same seed, level and request', () => {
    expect(draw(7, 4, 200)).toEqual(draw(7, 4, 200));
    expect(draw(8, 4, 200)).not.toEqual(draw(7, 4, 200));
    expect(draw(7, 8, 200)).not.toEqual(draw(7, 4, 200));
  });

  it("keeps every run of requests within a few of each weight's share", () => {
    for (const seed of [1, 7, 42, 1234]) {
      for (const [from, n] of [
        [0, 40],
        [5, 100],
        [0, 1000],
        [333, 4000],
      ] as const) {
        const names = Array.from({ length: n }, (_, i) => adapterAt(MIX, seed, 2, from + i));
        expect(Math.abs(count(names, 'sql-lora') - 0.75 * n)).toBeLessThanOrEqual(3);
      }
    }
  });

  it('follows unequal weights of several adapters', () => {
    const mix = [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 2 },
      { name: 'c', weight: 7 },
    ];
    const names = Array.from({ length: 1000 }, (_, seq) => adapterAt(mix, 3, 1, seq));
    expect([count(names, 'a'), count(names, 'b'), count(names, 'c')].map((c) => Math.round(c / 10))).toEqual([10, 20, 70]);
  });

  it('always names the one adapter of a mix of one', () => {
    expect(new Set(Array.from({ length: 50 }, (_, seq) => adapterAt([{ name: 'only', weight: 0.1 }], 9, 3, seq)))).toEqual(new Set(['only']));
  });
});
