/**
 * reproduce's table ends with one line a configuration and level for the
 * curve points (every point holds, or which do not), then the verdict line.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimCheck } from '../publish/index.js';
import { renderClaims } from './render-claims.js';

const claim = (id: string, level: number | null, holds: boolean): ClaimCheck => ({
  id,
  label: id,
  unit: 'ms',
  statistic: 'p50',
  configuration: 'optimized',
  level,
  digits: 1,
  published: 10,
  publishedRuns: null,
  low: 8,
  high: 12,
  reproduced: holds ? 10 : 20,
  reproducedRuns: null,
  holds,
  why: holds ? 'within ± 20 % of the figure' : 'beyond ± 20 % of the figure',
});

describe('renderClaims', () => {
  it('reports the curve points level by level', () => {
    const claims = [
      claim('optimized.peak', null, true),
      claim('optimized.c1.ttftP50', 1, true),
      claim('optimized.c1.tpotP50', 1, true),
      claim('optimized.c8.ttftP50', 8, false),
    ];
    expect(renderClaims('r1', claims, false).split('\n').slice(-4)).toEqual([
      'optimized at concurrency 1: every point holds (2 of 2)',
      'optimized at concurrency 8: 1 of 1 points do not hold: optimized.c8.ttftP50',
      '',
      '1 of 4 claims of r1 do not hold: optimized.c8.ttftP50',
    ]);
  });

  it('adds no level lines to a receipt without curve points', () => {
    expect(
      renderClaims('r1', [claim('optimized.peak', null, true)], false)
        .split('\n')
        .slice(-2),
    ).toEqual(['', 'every claim of r1 holds (1 of 1)']);
  });
});
