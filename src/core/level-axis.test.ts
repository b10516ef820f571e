/** Each arrival kind's axis: a replay's speeds, a session rate and a rate are named as such, and a level's place is its own value. */
import { describe, expect, it } from 'vitest';
import { levelAxis, levelValue } from './level-axis.js';

const load = (kind: string, level: number) => ({ kind, level });

describe('level axis', () => {
  it('names the axis from the levels and places each level on its own value, never its peak in flight', () => {
    expect(levelAxis([{ concurrency: 2, load: load('trace', 4) }]).name).toBe('Speed');
    expect(levelAxis([{ concurrency: 2, load: load('trace', 4) }]).format(4)).toBe('4×');
    expect(levelAxis([{ concurrency: 3, load: load('rate', 0.5), sessions: {} }]).name).toBe('Sessions/s');
    expect(levelAxis([{ concurrency: 3, load: load('rate', 2) }]).name).toBe('Rate (req/s)');
    expect(levelAxis([{ concurrency: 8, load: load('burst', 8) }]).name).toBe('Burst size');
    expect(levelAxis([{ concurrency: 4, load: load('concurrency', 4), sessions: {} }]).name).toBe('Sessions at once');
    expect(levelAxis([{ concurrency: 4 }])).toMatchObject({ name: 'Concurrency', open: false });
    expect(levelValue({ concurrency: 2, load: load('trace', 4) })).toBe(4);
    expect(levelValue({ concurrency: 4, load: load('concurrency', 4) })).toBe(4);
    expect(levelValue({ concurrency: 4 })).toBe(4);
  });
});
