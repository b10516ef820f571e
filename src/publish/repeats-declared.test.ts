// Cherry-picked repeats: a declared set of runs with some dropped, renumbered or
// mixed from another set is refused, naming the run and the rule.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineRepeats, contractHash, contractSchema, runsOf } from '../contract/index.js';
import type { SweepResult } from '../core/index.js';
import { evidencePair, evidenceResult } from '../test-support/evidence-fixture.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { recomputeReceipt } from './receipt-file.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-repeats-'));
let n = 0;
const levels = [
  { c: 1, ttftMs: 30, tpotMs: 5 },
  { c: 2, ttftMs: 32, tpotMs: 5.5 },
  { c: 4, ttftMs: 40, tpotMs: 7 },
];
const five = () =>
  evidenceResult({ quantization: 'fp8', levels, startedAt: '2026-06-03T09:00:00.000Z', fingerprint: 'b'.repeat(64), repeats: 5, spread: 0.05 });

async function refusals(optimized: SweepResult): Promise<string[]> {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const d = packReceipt(join(dir, 'r.json'), { ...evidencePair(), optimized, quality: measuredQualityFixture({ ...evidencePair(), optimized }) });
  const r = await recomputeReceipt(d.text, dir, '2026-07-01');
  return r.ok ? [] : r.refusals.map((x) => x.message);
}

/** The runs at `keep` (0-based), recombined as a forger would. */
const keepRuns = (r: SweepResult, keep: number[]) => combineRepeats(keep.map((k) => runsOf(r)[k] as SweepResult));

describe('repeats declared up front', () => {
  it('a full declared set recomputes', async () => {
    expect(await refusals(five())).toEqual([]);
  });
  it('five runs declared, the two worst dropped', async () => {
    expect(await refusals(keepRuns(five(), [0, 1, 2]))).toContainEqual(
      'evidence.optimized: repeats: holds 3 runs, but the contract declares 5; every run of a declared set ships [rule: repeats-declared]',
    );
  });
  it('the declaration rewritten to three (contract re-hashed) over runs that say "of 5"', async () => {
    const kept = keepRuns(five(), [0, 1, 2]);
    const contract = contractSchema.parse({ ...kept.contract, repeats: 3 });
    const messages = await refusals({ ...kept, contract: contract as unknown as Record<string, unknown>, contractHash: contractHash(contract) });
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^evidence\.optimized: run 1 run\.repeat: is run 1 of 5 in set 0123456789abcdef; run 1 of 3 in one set 0123456789abcdef was expected \[rule: repeats-declared\]$/,
      ),
    );
  });
  it('a better run swapped in from another set', async () => {
    const runs = runsOf(five());
    const other = { ...(runs[4] as SweepResult), run: { ...(runs[4] as SweepResult).run, repeat: { index: 5, of: 5, set: 'fedcba9876543210' } } };
    expect(await refusals(combineRepeats([...runs.slice(0, 4), other]))).toContainEqual(
      expect.stringMatching(/run 5 run\.repeat: is run 5 of 5 in set fedcba9876543210; run 5 of 5 in one set 0123456789abcdef was expected/),
    );
  });
  it('runs renumbered after one was dropped', async () => {
    const runs = runsOf(keepRuns(five(), [0, 2, 3, 4]));
    expect(await refusals(combineRepeats(runs))).toContainEqual(expect.stringMatching(/holds 4 runs, but the contract declares 5/));
  });
  it('several runs with no declared count', async () => {
    const r = five();
    const { repeats: _r, ...undeclared } = r.contract as Record<string, unknown>;
    const c = contractSchema.parse(undeclared);
    expect(await refusals({ ...r, contract: c as unknown as Record<string, unknown>, contractHash: contractHash(c) })).toContainEqual(
      expect.stringMatching(/repeats: holds 5 runs, but the contract declares no repeat count/),
    );
  });
});
