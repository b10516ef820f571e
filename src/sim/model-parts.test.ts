/** Pure parts of the model: tokenizer, prefix-cache keys and LRU, request planning, fault picking, lateness. */
import { describe, expect, it } from 'vitest';
import { emissionCount } from './sequence.js';
import { FaultPicker } from './faults.js';
import { planGeneration, type PlanInput } from './generation-plan.js';
import { LatenessRecorder } from './lateness.js';
import { PrefixCache, prefixBlockKeys } from './prefix-cache.js';
import { simProfileSchema } from './profile-schema.js';
import { outputText, tokenId, tokenize } from './tokenizer.js';

describe('tokenizer', () => {
  it('counts one whitespace-separated word per token', () => {
    expect(tokenize('  the quick\tbrown\n\nfox ')).toEqual(['the', 'quick', 'brown', 'fox']);
    expect(tokenize('')).toEqual([]);
    expect(tokenId('fox')).toBe(tokenId('fox'));
    expect(tokenId('fox')).not.toBe(tokenId('dog'));
  });

  it('writes deterministic pseudo-words with a leading space, one per token', () => {
    const all = outputText(1, 4, 0, 10);
    expect(all).toMatch(/^( [a-z]+){10}$/);
    expect(outputText(1, 4, 0, 4) + outputText(1, 4, 4, 10)).toBe(all);
    expect(outputText(2, 4, 0, 10)).not.toBe(all);
  });
});

describe('prefix cache', () => {
  const words = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i}`);

  it('keys full blocks by the cumulative prefix, never the whole prompt, salted', () => {
    expect(prefixBlockKeys(words(32), 16, null)).toHaveLength(1); // 31 tokens before the last: one full block
    expect(prefixBlockKeys(words(33), 16, null)).toHaveLength(2);
    const a = prefixBlockKeys(words(40), 16, null);
    const b = prefixBlockKeys([...words(16), ...words(24, 'z')], 16, null);
    expect(b[0]).toBe(a[0]);
    expect(b[1]).not.toBe(a[1]);
    expect(prefixBlockKeys(words(40), 16, 'salt')[0]).not.toBe(a[0]);
  });

  it('counts leading hits only and evicts the least recently used block', () => {
    const cache = new PrefixCache(3);
    cache.insert([1, 2, 3]);
    expect(cache.lookup([1, 2, 9, 3])).toBe(2); // 3 was not reached, so it is now the least recently used
    cache.insert([4]);
    expect(cache.size).toBe(3);
    expect(cache.lookup([3])).toBe(0);
    expect(cache.lookup([1, 2, 4])).toBe(3);
  });
});

describe('planGeneration', () => {
  const profile = simProfileSchema.parse({ naturalOutputTokens: { min: 10, max: 20 }, maxModelLen: 100 });
  const input = (body: PlanInput['body'], extra: Partial<PlanInput> = {}): PlanInput => ({
    body,
    promptWords: ['a', 'b', 'c'],
    promptField: 'messages',
    reasoningTokens: 0,
    requestIndex: 0,
    ...extra,
  });
  const plan = (body: PlanInput['body'], extra: Partial<PlanInput> = {}) => {
    const r = planGeneration(profile, input(body, extra));
    if (!r.ok) throw new Error(r.message);
    return r.plan;
  };

  it('stops naturally in range, honours min_tokens and the cap, and forces the cap with ignore_eos', () => {
    const lengths = Array.from({ length: 50 }, (_, i) => plan({ max_tokens: 90 }, { requestIndex: i }).outputTokens);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(20);
    expect(new Set(lengths).size).toBeGreaterThan(3);
    expect(plan({ max_tokens: 90, min_tokens: 40 })).toMatchObject({ outputTokens: 40, finishReason: 'stop' });
    expect(plan({ max_tokens: 5 })).toMatchObject({ outputTokens: 5, finishReason: 'length', capTokens: 5 });
    expect(plan({ max_tokens: 90, max_completion_tokens: 60, ignore_eos: true })).toMatchObject({ outputTokens: 60, finishReason: 'length' });
    expect(plan({})).toMatchObject({ capTokens: 97 }); // the rest of the context
  });

  it('puts reasoning first and counts it inside the output', () => {
    const p = plan({ max_tokens: 90 }, { reasoningTokens: 30 });
    expect(p.reasoningTokens).toBe(30);
    expect(p.outputTokens).toBeGreaterThanOrEqual(40);
    expect(plan({ max_tokens: 8 }, { reasoningTokens: 30 })).toMatchObject({ outputTokens: 8, reasoningTokens: 8 });
  });

  it('rejects what could never be served, naming the field', () => {
    const fail = (body: PlanInput['body'], words = 3) => {
      const r = planGeneration(profile, input(body, { promptWords: Array.from({ length: words }, () => 'x') }));
      return r.ok ? null : r.param;
    };
    expect(fail({ max_tokens: 98 })).toBe('max_tokens');
    expect(fail({ max_tokens: 5, max_completion_tokens: 98 })).toBe('max_completion_tokens');
    expect(fail({}, 100)).toBe('messages');
    expect(fail({ max_tokens: 5, min_tokens: 6 })).toBe('min_tokens');
    expect(fail({ stream: false, stream_options: { include_usage: true } })).toBe('stream_options');
  });

  it('counts emissions: one prefill token, then tokensPerChunk per step', () => {
    expect(emissionCount(1, 4)).toBe(1);
    expect(emissionCount(21, 4)).toBe(6);
    expect(emissionCount(22, 4)).toBe(7);
    expect(emissionCount(10, 1)).toBe(10);
  });
});

describe('FaultPicker', () => {
  it('draws faults by share, the same way for the same seed', () => {
    const faults = simProfileSchema.parse({ faults: { http500: 0.2, stall: 0.3 } }).faults;
    const draw = (seed: number) => {
      const picker = new FaultPicker(faults, seed);
      return Array.from({ length: 2000 }, () => picker.next());
    };
    const a = draw(5);
    expect(draw(5)).toEqual(a);
    expect(draw(6)).not.toEqual(a);
    const share = (k: string | null) => a.filter((x) => x === k).length / a.length;
    expect(share('http500')).toBeCloseTo(0.2, 1);
    expect(share('stall')).toBeCloseTo(0.3, 1);
    expect(share(null)).toBeCloseTo(0.5, 1);
    expect(share('dropStream')).toBe(0);
  });
});

describe('LatenessRecorder', () => {
  it('summarises lateness to one 0.05 ms bucket', () => {
    const r = new LatenessRecorder();
    expect(r.summary()).toEqual({ count: 0, meanMs: null, p50Ms: null, p99Ms: null, maxMs: null });
    for (let i = 0; i < 99; i++) r.record(0.01);
    r.record(250);
    const s = r.summary();
    expect(s).toMatchObject({ count: 100, p50Ms: 0.05, p99Ms: 0.05, maxMs: 250 });
    expect(s.meanMs).toBeCloseTo((99 * 0.01 + 250) / 100, 9);
  });
});
