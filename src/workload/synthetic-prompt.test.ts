import { describe, expect, it } from 'vitest';
import { syntheticPrompt } from './synthetic-prompt.js';

describe('synthetic prompts', () => {
  it('have exactly the requested number of words, salt first', () => {
    const p = syntheticPrompt(512, 7, 'abc-1');
    expect(p.split(' ')).toHaveLength(512);
    expect(p.startsWith('rabc-1 ')).toBe(true);
  });
  it('are deterministic for a seed and differ by salt in their first word', () => {
    expect(syntheticPrompt(50, 1, 'x')).toBe(syntheticPrompt(50, 1, 'x'));
    const [a, b] = [syntheticPrompt(50, 1, 'x'), syntheticPrompt(50, 1, 'y')];
    expect(a.split(' ')[0]).not.toBe(b.split(' ')[0]);
    expect(syntheticPrompt(50, 2, 'x')).not.toBe(a);
  });
});
