/**
 * Which run a compared run's tables and charts draw when it holds several: a
 * `goodput run --repeats` result and a repeat set of stored runs are drawn by
 * their first run, and every view of the comparison says so; a comparison of
 * single runs says nothing more than before.
 */
import { describe, expect, it } from 'vitest';
import { evidenceResult } from '../../test-support/evidence-fixture.js';
import { qualityFixture } from '../../test-support/quality-fixture.js';
import { compareRunOf, compareRuns, drawnRunTitle, num } from './index.js';

const levels = [
  { c: 1, ttftMs: 40, tpotMs: 10 },
  { c: 2, ttftMs: 45, tpotMs: 11 },
];
const tail = (first: number | string) =>
  `its differences are over all 3 (their means) where both sides measured a level validly in at least 3 runs, else over run ${first}'s requests`;

describe('the run a compared set draws', () => {
  it("is run 1 of a --repeats result, whose score is the whole set's, and the table shows its figures", () => {
    const held = { ...evidenceResult({ levels, repeats: 3, spread: 0.004 }), quality: qualityFixture() };
    const single = evidenceResult({ levels, startedAt: '2026-06-02T12:00:00.000Z' });
    const c = compareRuns([compareRunOf('single.json', single), compareRunOf('held.json', held)]);
    expect(c.drawn).toEqual([`held.json: the tables, statuses and charts show run 1, the first of its 3 runs; ${tail(1)}`]);
    expect(c.rows.map((r) => r.runs[1]?.cells[0]?.text)).toEqual(held.levels.map((l) => num(l.throughputTokS, 1)));
    expect(held.repeats?.[0]?.levels.map((l) => num(l.throughputTokS, 1))).not.toEqual(held.levels.map((l) => num(l.throughputTokS, 1)));
    expect(drawnRunTitle('held.json', compareRunOf('held.json', held))).toBe('held.json (run 1, the first of its 3 runs)');
    expect(drawnRunTitle('single.json', compareRunOf('single.json', single))).toBe('single.json');
  });

  it('is the first stored run of a set, its quality score included', () => {
    const set = { ...evidenceResult({ levels, repeats: 3, spread: 0.004 }), quality: qualityFixture() };
    const c = compareRuns([compareRunOf('run 1', evidenceResult({ levels })), compareRunOf('runs 4+5+6', set)]);
    expect(c.drawn).toEqual([`runs 4+5+6: the tables, statuses, quality score and charts show run 4, the first of its 3 runs; ${tail(4)}`]);
  });

  it('is not said when every compared run is one run', () => {
    expect(compareRuns([compareRunOf('a.json', evidenceResult({ levels })), compareRunOf('b.json', evidenceResult({ levels }))]).drawn).toEqual([]);
  });
});
