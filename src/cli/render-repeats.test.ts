/**
 * `goodput run --repeats 3` prints, per level, the median of the three runs
 * with their range in each cell: the printed figures are those of the three
 * runs stored in the result, computed here independently.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { runsOf } from '../contract/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { evidenceResult } from '../test-support/evidence-fixture.js';
import { medianRange, renderRepeats } from './render-repeats.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-repeats-'));
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0.01', '--decode-step-ms', '2', '--decode-ms-per-extra-seq', '0.2']);
});
afterAll(async () => {
  await sim?.stop();
});

/** A level whose client held its concurrency (the evidence fixture's synthetic records hold 1.5 of 2). */
const held = <L extends { concurrency: number }>(l: L): L => ({
  ...l,
  inFlight: { median: l.concurrency, min: l.concurrency, asked: l.concurrency, held: 1, samples: 8 },
});

/** The middle of three, by sorting (not the code under test). */
const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;

describe('run --repeats', () => {
  it('prints per-level medians with [min–max] that match the three stored runs', async () => {
    const contract = join(dir, 'c.yaml');
    const base = readFileSync(join(import.meta.dirname, '../../examples/baseline.yaml'), 'utf8');
    writeFileSync(
      contract,
      base
        .replace('http://127.0.0.1:8000', sim.url)
        .replace('levels: [1, 2, 4]', 'levels: [1, 2]')
        .replace('requestsPerLevel: 16', 'requestsPerLevel: 4')
        .replace('outputTokens: 128', 'outputTokens: 16'),
    );
    const json = join(dir, 'r.json');
    const r = await runGoodput(['run', contract, '--repeats', '3', '--json', json, '--no-save'], {}, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const runs = runsOf(result);
    expect(runs).toHaveLength(3);
    expect(r.stdout).toContain(
      "Median of 3 runs per level, [min–max] across them (run 1 is the result's top level; runs 2–3 are its repeats[0–1]); a level's status counts every run:",
    );
    const lines = r.stdout.split('\n');
    for (const c of [1, 2]) {
      const at = runs.map((x) => x.levels.find((l) => l.concurrency === c));
      const tput = at.map((l) => l?.throughputTokS as number);
      const ttft = at.map((l) => l?.ttftMs?.p50 as number);
      const row = lines.find((l) => new RegExp(`^\\s*${c}\\s+\\d`).test(l));
      expect(row, r.stdout).toBeDefined();
      const expectTput = `${middle(tput).toFixed(1)} [${Math.min(...tput).toFixed(1)}–${Math.max(...tput).toFixed(1)}]`;
      const expectTtft = `${middle(ttft).toFixed(1)} [${Math.min(...ttft).toFixed(1)}–${Math.max(...ttft).toFixed(1)}]`;
      expect(row).toContain(expectTput);
      expect(row).toContain(expectTtft);
      // The status counts every run: a level client-bound in any stored run (a loaded machine) says so, naming the runs.
      const which = (is: (l: (typeof at)[number]) => boolean, what: string) => {
        const runs = at.flatMap((l, i) => (l !== undefined && !l.invalid && is(l) ? [i + 1] : []));
        return runs.length === 0 ? [] : [`${what} in ${runs.length} of 3 runs (run${runs.length === 1 ? '' : 's'} ${runs.join(', ')})`];
      };
      const held = (l: (typeof at)[number]) => l?.inFlight?.held !== null && l?.inFlight?.held !== undefined && l.inFlight.held < 0.95;
      const status = [...which((l) => l?.clientBound.bound === true, 'client-bound'), ...which(held, 'not held')].join('; ') || 'ok';
      if (at.every((l) => l?.invalid === false)) expect(row?.trim().endsWith(status), row).toBe(true);
    }
  });

  it('says a repeat set is not stored when a store is configured, and stores nothing', async () => {
    const contract = join(dir, 'one.yaml');
    const base = readFileSync(join(import.meta.dirname, '../../examples/baseline.yaml'), 'utf8');
    writeFileSync(
      contract,
      base
        .replace('http://127.0.0.1:8000', sim.url)
        .replace('levels: [1, 2, 4]', 'levels: [1]')
        .replace('requestsPerLevel: 16', 'requestsPerLevel: 2')
        .replace('outputTokens: 128', 'outputTokens: 16'),
    );
    const data = join(dir, 'db');
    const r = await runGoodput(['run', contract, '--repeats', '3', '--json', join(dir, 'one.json'), '--data', data], {}, 120_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('not stored: a repeat set of 3 runs is not one run (keep its result with --json)\n');
    expect(r.stderr).not.toContain('stored as run');
  });

  it("judges a level by every run: client-bound in a later run says so, naming the runs, and the cards are said to be run 1's", () => {
    const r = evidenceResult({
      levels: [
        { c: 1, ttftMs: 40, tpotMs: 10 },
        { c: 2, ttftMs: 45, tpotMs: 11 },
      ],
      repeats: 3,
      spread: 0.01,
    });
    const bound = (l: (typeof r.levels)[number]) => (l.concurrency === 2 ? { ...l, clientBound: { ...l.clientBound, bound: true, reason: 'sends late' } } : l);
    const text =
      renderRepeats({
        ...r,
        levels: r.levels.map(held),
        repeats: (r.repeats ?? []).map((x, i) => ({ ...x, levels: x.levels.map((l) => (i === 1 ? bound(held(l)) : held(l))) })),
      }) ?? '';
    const row = (c: number) => text.split('\n').find((l) => new RegExp(`^\\s*${c}\\s+\\d`).test(l)) ?? '';
    expect(row(1).trim().endsWith('ok')).toBe(true);
    expect(row(2).trim().endsWith('client-bound in 1 of 3 runs (run 3)')).toBe(true);
    expect(text).toContain("The cards below are run 1's: their peaks leave out the levels invalid or client-bound in run 1.");
  });

  it('marks a level not held in any run, as the single table does, naming the runs', () => {
    const r = evidenceResult({
      levels: [
        { c: 1, ttftMs: 40, tpotMs: 10 },
        { c: 4, ttftMs: 45, tpotMs: 11 },
      ],
      repeats: 3,
      spread: 0.01,
    });
    const short = (l: (typeof r.levels)[number]) => (l.concurrency === 4 ? { ...l, inFlight: { median: 3, min: 2, asked: 4, held: 0.75, samples: 12 } } : l);
    const text =
      renderRepeats({
        ...r,
        levels: r.levels.map((l) => short(held(l))),
        repeats: (r.repeats ?? []).map((x, i) => ({ ...x, levels: x.levels.map((l) => (i === 0 ? short(held(l)) : held(l))) })),
      }) ?? '';
    const row = (c: number) => text.split('\n').find((l) => new RegExp(`^\\s*${c}\\s+\\d`).test(l)) ?? '';
    expect(row(1).trim().endsWith('ok')).toBe(true);
    expect(row(4).trim().endsWith('not held in 2 of 3 runs (runs 1, 2)')).toBe(true);
  });

  it('formats one figure alone and none as a dash', () => {
    expect(medianRange([3, 1, 2], 1)).toBe('2.0 [1.0–3.0]');
    expect(medianRange([5, null, undefined], 2)).toBe('5.00');
    expect(medianRange([null], 0)).toBe('—');
  });
});
