// Trap 2: reasoning inside content, as <think>…</think> or a lone </think>, tags split across chunks.
import { describe, expect, it } from 'vitest';
import { InlineThink, type ThinkVerdict } from './inline-think.js';

const run = (chunks: string[]): ThinkVerdict[] => {
  const t = new InlineThink();
  return chunks.map((c) => t.classify(c));
};
const v = (reasoning: boolean, answer: boolean, reclassified = 0): ThinkVerdict => ({ reasoning, answer, reclassified });

describe('InlineThink', () => {
  it('reads paired <think>…</think> at the start of the answer', () => {
    expect(run(['<think>', 'Let me', ' think', '</think>', '\n\nThe', ' answer'])).toEqual([
      v(true, false),
      v(true, false),
      v(true, false),
      v(true, false),
      v(false, true),
      v(false, true),
    ]);
  });

  it('turns earlier chunks into reasoning at a lone </think> (R1 templates put <think> in the prompt)', () => {
    expect(run(['Okay', ', so', '</think>', 'Two'])).toEqual([v(false, true), v(false, true), v(true, false, 2), v(false, true)]);
    expect(run(['Hmm', ' right.</think>\n\nTwo'])).toEqual([v(false, true), v(true, true, 1)]);
  });

  it('finds tags split across chunks', () => {
    expect(run(['<th', 'ink>Hm', 'm</thi', 'nk>Yes'])).toEqual([v(false, true), v(true, false, 1), v(true, false), v(false, true)]);
    expect(run(['Hmm </', 'think>', 'Yes'])).toEqual([v(false, true), v(true, false, 1), v(false, true)]);
  });

  it('counts a chunk of only the closing tag and the answer as answer, not reasoning', () => {
    expect(run(['<think>a', '</think>The answer'])).toEqual([v(true, false), v(false, true)]);
  });

  it('leaves a plain answer alone, and ignores <think> once answer text came first', () => {
    expect(run(['Hello', ' world'])).toEqual([v(false, true), v(false, true)]);
    expect(run(['Write ', '<think> tags like this'])).toEqual([v(false, true), v(false, true)]);
  });
});
