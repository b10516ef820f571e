/** The pooling progress line names what a split level is sent by: client threads here, or goodput workers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { poolingProgress } from './pooling-view.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pooling progress', () => {
  it('says workers when the level is split over goodput workers, client threads otherwise, nothing for one share', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => lines.push(String(s)) > 0);
    const start = { kind: 'level-start', concurrency: 4, index: 0, total: 2, requests: 16 } as const;
    poolingProgress({ ...start, threads: 2, over: 'workers' });
    poolingProgress({ ...start, threads: 2 });
    poolingProgress({ ...start, threads: 1 });
    expect(lines).toEqual([
      'level 1/2: concurrency 4, 16 requests over 2 workers\n',
      'level 1/2: concurrency 4, 16 requests over 2 client threads\n',
      'level 1/2: concurrency 4, 16 requests\n',
    ]);
  });
});
