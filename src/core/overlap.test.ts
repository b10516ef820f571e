import { describe, expect, it } from 'vitest';
import { peakOverlap } from './overlap.js';

describe('peakOverlap', () => {
  it('counts the most intervals open at once; touching ends do not overlap', () => {
    expect(peakOverlap([])).toBe(0);
    expect(
      peakOverlap([
        [0, 10],
        [10, 20],
        [20, 30],
      ]),
    ).toBe(1);
    expect(
      peakOverlap([
        [0, 10],
        [5, 15],
        [6, 7],
        [14, 20],
      ]),
    ).toBe(3);
  });
});
