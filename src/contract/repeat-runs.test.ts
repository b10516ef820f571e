// Runs of one contract stacked as one result, for the text kind and the pooling kind alike.
import { describe, expect, it } from 'vitest';
import type { PoolingResult, SweepResult } from '../core/index.js';
import { combineRepeats } from './repeat-runs.js';
import { combinePoolingRuns } from './run-pooling-contract.js';

const text = (n: number, hash = 'h', records = true) =>
  ({
    schemaVersion: 1,
    run: { n },
    warnings: [],
    levels: [],
    cards: { n },
    ...(records ? { records: [n], recordsSha256: `s${n}` } : {}),
    contractHash: hash,
  }) as unknown as SweepResult;
const pooling = (n: number) =>
  ({
    schemaVersion: 1,
    run: { n },
    warnings: [],
    levels: [],
    peak: null,
    capacity: null,
    contractHash: 'h',
    records: [n],
    recordsSha256: `s${n}`,
  }) as unknown as PoolingResult;

describe('stacking runs of one contract', () => {
  it('keeps the first on top and each other run, its evidence included, in repeats in its own fields and order', () => {
    const r = combineRepeats([text(1), text(2), text(3, 'h', false)]);
    expect(r.run).toEqual({ n: 1 });
    expect(JSON.stringify(r.repeats)).toBe(
      '[{"run":{"n":2},"warnings":[],"levels":[],"cards":{"n":2},"records":[2],"recordsSha256":"s2"},{"run":{"n":3},"warnings":[],"levels":[],"cards":{"n":3}}]',
    );
    const p = combinePoolingRuns([pooling(1), pooling(2)]);
    expect(JSON.stringify(p.repeats)).toBe('[{"run":{"n":2},"warnings":[],"levels":[],"peak":null,"capacity":null,"records":[2],"recordsSha256":"s2"}]');
  });

  it('gives one run back as it is, and refuses none, or text runs of different contracts', () => {
    const one = text(1);
    expect(combineRepeats([one])).toBe(one);
    expect(() => combineRepeats([])).toThrow('combineRepeats needs at least one run');
    expect(() => combinePoolingRuns([])).toThrow('combinePoolingRuns needs at least one run');
    expect(() => combineRepeats([text(1), text(2, 'other')])).toThrow('repeats must be runs of one contract');
  });
});
