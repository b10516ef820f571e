import { describe, expect, it } from 'vitest';
import { parseRoute } from './route.js';

describe('parseRoute', () => {
  it('takes stored runs and repeat sets of stored runs to compare, 2 to 8 of them', () => {
    expect(parseRoute('#/compare/1/2/3')).toEqual({ kind: 'compare', sets: [[1], [2], [3]] });
    expect(parseRoute('#/compare/1+2+3/4+5+6')).toEqual({
      kind: 'compare',
      sets: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    });
    expect(parseRoute('#/compare/1+2+3/7')).toEqual({ kind: 'compare', sets: [[1, 2, 3], [7]] });
    // The history's links name each run once; a repeat inside sets is kept for the view to refuse by name.
    expect(parseRoute('#/compare/1/2/2')).toEqual({ kind: 'compare', sets: [[1], [2]] });
    expect(parseRoute('#/compare/1+2/2+3')).toEqual({
      kind: 'compare',
      sets: [
        [1, 2],
        [2, 3],
      ],
    });
  });

  it('sends anything else home', () => {
    for (const hash of [
      '#/compare/1',
      '#/compare/1+2+3',
      '#/compare/1/2/3/4/5/6/7/8/9',
      '#/compare/1++2/3',
      '#/compare/1+/2',
      '#/compare/+1/2',
      '#/compare/a/b',
    ]) {
      expect(parseRoute(hash), hash).toEqual({ kind: 'home' });
    }
    expect(parseRoute('#/runs/4')).toEqual({ kind: 'run', id: 4 });
  });
});
