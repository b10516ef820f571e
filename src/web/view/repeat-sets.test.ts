import { describe, expect, it } from 'vitest';
import { repeatSetLabel, repeatSetsProblem } from './repeat-sets.js';

describe('repeat sets named for a comparison', () => {
  it('are labelled as the CLI labels them', () => {
    expect(repeatSetLabel([4])).toBe('run 4');
    expect(repeatSetLabel([4, 5, 6])).toBe('runs 4+5+6');
  });

  it('are refused before any run is read: a set past the limit, a run named twice', () => {
    expect(
      repeatSetsProblem([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ).toBeNull();
    expect(
      repeatSetsProblem([
        [1, 2, 3],
        [3, 4, 5],
      ]),
    ).toBe('run 3 is named twice; each run once');
    const huge = Array.from({ length: 5000 }, (_, i) => i + 10);
    expect(repeatSetsProblem([[1], huge])).toBe(
      '10+11+12+13+14+15+16+17…: a repeat set is at most 20 runs (runs of one contract in one result (goodput run --repeats)), not 5000',
    );
  });
});
