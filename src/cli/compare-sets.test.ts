/**
 * Repeat sets of stored runs: `goodput compare 1+2+3 4+5+6` compares two sets
 * of stored runs of one contract over the runs, as `goodput run --repeats`
 * results are compared; a set whose runs ran different contracts is refused
 * naming the run. Runs are stored with `goodput runs import` into an embedded
 * store under a temporary folder.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LevelResult, SweepResult } from '../core/index.js';
import { num } from '../web/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { evidenceResult } from '../test-support/evidence-fixture.js';
import { recordsText } from './files.js';
import { repeatSetProblem } from './compare-inputs.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-sets-'));
const data = join(dir, 'db');
const levels = [
  { c: 1, ttftMs: 40, tpotMs: 10 },
  { c: 2, ttftMs: 45, tpotMs: 11 },
];

/** The runs of `goodput run --repeats 3` as separate stored results. */
function runsOf(r: SweepResult): SweepResult[] {
  const { repeats, ...first } = r;
  return [first, ...(repeats ?? []).map((x) => ({ ...first, ...x }))];
}

async function store(r: SweepResult, name: string): Promise<void> {
  const { records, ...result } = r;
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(result));
  writeFileSync(join(dir, `${name}.jsonl`), recordsText(records ?? []));
  const out = await cli(['runs', 'import', join(dir, `${name}.json`), '--raw', join(dir, `${name}.jsonl`), '--data', data]);
  expect(out.code, out.stderr).toBe(0);
}

beforeAll(async () => {
  // Runs 1–3: the baseline; 4–6: the same contract 5 % faster per token; 7: another contract (fp8); 8–10: the baseline again.
  const slow = runsOf(evidenceResult({ levels, repeats: 3, spread: 0.004 }));
  const fast = runsOf(
    evidenceResult({ levels: levels.map((l) => ({ ...l, tpotMs: l.tpotMs * 0.95 })), repeats: 3, spread: 0.004, startedAt: '2026-06-02T12:00:00.000Z' }),
  );
  const other = evidenceResult({ levels, quantization: 'fp8' });
  const again = runsOf(evidenceResult({ levels, repeats: 3, spread: 0.004, startedAt: '2026-06-03T12:00:00.000Z' }));
  for (const [i, r] of [...slow, ...fast, other, ...again].entries()) await store(r, `run-${i + 1}`);
}, patient(120_000));

describe('goodput compare over repeat sets of stored runs', () => {
  it('two sets of three, one faster per token: better over the runs, with an interval excluding zero', async () => {
    const out = await cli(['compare', '1+2+3', '4+5+6', '--data', data]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^Comparing runs 1\+2\+3 \(baseline\), runs 4\+5\+6/);
    const tpot = out.stdout
      .replace(/\n {4}(?=\S)/g, ' ')
      .split('\n')
      .filter((l) => /^ {2}concurrency \d, TPOT/.test(l));
    expect(tpot).toHaveLength(2);
    for (const l of tpot)
      expect(l).toMatch(/\(−5\.0 %\) in the means of all runs, 95 % interval −[\d.]+ to −[\d.]+ \(−[\d.]+ % to −[\d.]+ %\) over 3\+ runs a side: better$/);
  });

  it('two sets of the same configuration: no difference established; a run in two sets is refused', async () => {
    const out = await cli(['compare', '1+2+3', '8+9+10', '--data', data]);
    expect(out.code, out.stderr).toBe(0);
    // A line past 120 columns wraps with a hanging indent (two past its own): read each whole.
    const rows = out.stdout
      .replace(/\n {4}(?=\S)/g, ' ')
      .split('\n')
      .filter((l) => /^ {2}concurrency \d, /.test(l));
    expect(rows.length).toBeGreaterThan(4);
    for (const l of rows) expect(l).toMatch(/no difference established/);
    const same = await cli(['compare', '1+2+3', '1+2+3', '--data', data]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('1 is named twice');
    const twice = await cli(['compare', '1+2', '3+1', '--data', data]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('1 is named twice');
  });

  it("says which run each set's tables and charts draw, and they are that stored run's figures", async () => {
    const stored = async (id: number) =>
      (JSON.parse((await cli(['runs', 'show', String(id), '--json', '--data', data])).stdout) as { levels: LevelResult[] }).levels;
    const [one, two, four] = [await stored(1), await stored(2), await stored(4)];
    const note = (set: string, first: number) =>
      `runs ${set}: the tables, statuses and charts show run ${first}, the first of its 3 runs; ` +
      `its differences are over all 3 (their means) where both sides measured a level validly in at least 3 runs, else over run ${first}'s requests`;
    const out = await cli(['compare', '1+2+3', '4+5+6', '--data', data, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const c = JSON.parse(out.stdout) as { drawn: string[]; rows: Array<{ runs: Array<{ cells: Array<{ text: string }> }> }> };
    expect(c.drawn).toEqual([note('1+2+3', 1), note('4+5+6', 4)]);
    // The side-by-side throughput is runs 1 and 4 as stored, not a figure of their sets (run 2 measured another).
    expect(c.rows.map((r) => r.runs.map((x) => x.cells[0]?.text))).toEqual(one.map((l, i) => [num(l.throughputTokS, 1), num(four[i]?.throughputTokS, 1)]));
    expect(two.map((l) => num(l.throughputTokS, 1))).not.toEqual(one.map((l) => num(l.throughputTokS, 1)));
    const text = await cli(['compare', '1+2+3', '4+5+6', '--data', data]);
    const lines = text.stdout.replace(/\n {4}(?=\S)/g, ' ').split('\n');
    expect(lines).toContain(`  ${note('1+2+3', 1)}.`);
    expect(lines).toContain(`  ${note('4+5+6', 4)}.`);
    const md = await cli(['report', '1+2+3', '4+5+6', '--format', 'md', '--data', data]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`### Side by side\n\n${note('1+2+3', 1)}.\n\n${note('4+5+6', 4)}.\n\n`);
    expect(md.stdout).toMatch(/^## runs 1\+2\+3.* \(run 1, the first of its 3 runs\)$/m);
    expect(md.stdout).toMatch(/^## runs 4\+5\+6.* \(run 4, the first of its 3 runs\)$/m);
  });

  it('refuses a set past the repeats limit before reading any run', async () => {
    const huge = Array.from({ length: 5000 }, (_, i) => i + 1).join('+');
    const out = await cli(['compare', huge, '9999', '--data', join(dir, 'no-such-db')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/: a repeat set is at most 20 runs/);
  });

  it('refuses a set whose runs ran different contracts, naming the run', async () => {
    const out = await cli(['compare', '1+2+7', '4+5+6', '--data', data]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      /1\+2\+7: run 7 ran another contract \(sha256 [0-9a-f]{12}…\) than run 1 \(sha256 [0-9a-f]{12}…\); a repeat set is runs of one contract/,
    );
  });
});

describe('repeatSetProblem', () => {
  const r = evidenceResult({ levels });
  it('needs a recorded contract and at most the repeats limit', () => {
    expect(
      repeatSetProblem('1+2', [
        { id: '1', result: r },
        { id: '2', result: r },
      ]),
    ).toBeNull();
    expect(
      repeatSetProblem('1+2', [
        { id: '1', result: { ...r, contractHash: null } },
        { id: '2', result: r },
      ]),
    ).toMatch(/run 1 records no contract/);
    expect(
      repeatSetProblem('1+2', [
        { id: '1', result: r },
        { id: '2', result: { ...r, contractHash: undefined } },
      ]),
    ).toMatch(/run 2 ran without a contract than run 1/);
    const many = Array.from({ length: 21 }, (_, i) => ({ id: String(i + 1), result: r }));
    expect(repeatSetProblem('1+…+21', many)).toMatch(/at most 20 runs/);
  });
});
