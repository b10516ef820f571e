/**
 * The recorder over a writer whose level commit fails: the run must not end
 * as a result (its cards would count a level the store lacks).
 */
import { describe, expect, it } from 'vitest';
import type { LevelResult, SweepResult } from '../core/index.js';
import type { RunWriter } from './catalog.js';
import { recordSweep } from './run-recorder.js';

function writer(failLevel: number) {
  const calls: string[] = [];
  const w: RunWriter = {
    runId: 7,
    setModel: async () => {
      calls.push('model');
    },
    addWarning: async () => {
      calls.push('warning');
    },
    saveLevel: async (level) => {
      if (level.concurrency === failLevel) throw new Error('disk full');
      calls.push(`level ${level.concurrency}`);
    },
    heartbeat: async () => {},
    finish: async () => {
      calls.push('finish');
    },
    discard: async () => {
      calls.push('discard');
    },
    abandon: async (reason) => {
      calls.push(`abandon: ${reason}`);
    },
  };
  return { w, calls };
}

const level = (concurrency: number) => ({ concurrency }) as LevelResult;
const result = { run: { status: 'complete' } } as SweepResult;

describe('recordSweep', () => {
  it('stores every level, then the result, when every commit succeeds', async () => {
    const { w, calls } = writer(0);
    const r = recordSweep(w);
    await r.afterLevel(level(1), []);
    await r.afterLevel(level(2), []);
    await r.finish(result);
    expect(calls).toEqual(['level 1', 'level 2', 'finish']);
  });

  it('keeps a run whose level could not be stored as interrupted, naming the level, and never finishes it', async () => {
    const { w, calls } = writer(2);
    const r = recordSweep(w);
    await r.afterLevel(level(1), []);
    await r.afterLevel(level(2), []);
    await expect(r.finish(result)).rejects.toThrow(/run 7 is kept as interrupted: part of it could not be stored: level 2: disk full/);
    expect(calls).toEqual(['level 1', 'abandon: part of it could not be stored: level 2: disk full']);
  });
});
