// A signed repeat set cannot be cherry-picked: each lie is planted in a set
// signed with goodput's own code (re-signed with the key where the lie needs
// it, as a publisher holding the key could) and refused naming the rule and
// the run. A set without a manifest is left as it was before sets were signed.
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
import { signRunOfSet, signSetManifest } from './run-set.js';
import { newKeyPair, parseKey } from './site-signing.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-run-set-'));
let n = 0;
const keyOf = (pem: string) => {
  const k = parseKey(pem, 'private');
  if (!k.ok) throw new Error(k.problem);
  return k.key;
};
const key = keyOf(newKeyPair().privatePem);
const levels = [
  { c: 1, ttftMs: 30, tpotMs: 5 },
  { c: 2, ttftMs: 32, tpotMs: 5.5 },
  { c: 4, ttftMs: 40, tpotMs: 7 },
];
const unsigned = (repeats: number) =>
  evidenceResult({ quantization: 'fp8', levels, startedAt: '2026-06-03T09:00:00.000Z', fingerprint: 'b'.repeat(64), repeats, spread: 0.05 });

/** `runs` sealed as goodput run --repeats seals them: the manifest of `n`, then each run at its place, signed. */
function seal(runs: SweepResult[], n = runs.length, k = key): SweepResult {
  const first = runs[0] as SweepResult;
  const m = signSetManifest(n, first.contractHash ?? '', k, new Date(Date.parse(first.run.startedAt) - 1000));
  const placed = runs.map((r, i) => ({ ...r, run: { ...r.run, repeat: { index: i + 1, of: n, set: m.set } } }));
  return { ...combineRepeats(placed), runSet: { manifest: m.envelope, runs: placed.map((r, i) => signRunOfSet(m.sha256, i + 1, r, k)) } };
}
const signed = (repeats = 3) => seal(runsOf(unsigned(repeats)));
const runs = (r: SweepResult) => runsOf(r);
/** The set's runs at `keep` (0-based) with their signatures, recombined as a forger would. */
function keep(r: SweepResult, at: number[], edit: (run: SweepResult, k: number) => SweepResult = (x) => x): SweepResult {
  const all = runs(r);
  const kept = combineRepeats(at.map((i, k) => edit(all[i] as SweepResult, k)));
  return { ...kept, runSet: { manifest: r.runSet?.manifest ?? kept.runSet?.manifest ?? never(), runs: at.map((i) => r.runSet?.runs[i] ?? never()) } };
}
function never(): never {
  throw new Error('fixture has no run set');
}

async function refusals(optimized: SweepResult): Promise<string[]> {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const d = packReceipt(join(dir, 'r.json'), { ...evidencePair(), optimized, quality: measuredQualityFixture({ ...evidencePair(), optimized }) });
  const r = await recomputeReceipt(d.text, dir, '2026-07-01');
  return r.ok ? [] : r.refusals.map((x) => x.message);
}
const runSetLines = (lines: string[]) => lines.filter((l) => l.endsWith('[rule: run-set]'));

describe('a signed repeat set', () => {
  it('recomputes whole, as goodput run signs it', async () => {
    expect(await refusals(signed())).toEqual([]);
  });

  it('a set signed before sets were (no manifest) is checked as before, and gets no anti-cherry-pick rule', async () => {
    const { runSet: _dropped, ...old } = signed();
    expect(await refusals(old)).toEqual([]);
  });

  it('one run dropped with its signature', async () => {
    expect(runSetLines(await refusals(keep(signed(), [0, 1])))).toContainEqual(
      "evidence.optimized: run 3: is missing: the set's manifest signs 3 runs and no run ships with the signature of run 3 [rule: run-set]",
    );
  });

  it('a run dropped and the next renumbered into its place', async () => {
    const renumbered = keep(signed(), [0, 2], (r, k) => ({ ...r, run: { ...r.run, repeat: { ...(r.run.repeat ?? never()), index: k + 1 } } }));
    const lines = runSetLines(await refusals(renumbered));
    expect(lines).toContainEqual('evidence.optimized: run 2: ships as run 2, but is signed as run 3 of the set: the runs were renumbered [rule: run-set]');
    expect(lines).toContainEqual(expect.stringMatching(/^evidence\.optimized: run 2: is missing: /));
  });

  it('a run shipped twice in place of another', async () => {
    const lines = runSetLines(await refusals(keep(signed(), [0, 0, 2])));
    expect(lines).toContainEqual('evidence.optimized: run 1: is shipped 2 times (as runs 1, 2): a run was duplicated [rule: run-set]');
    expect(lines).toContainEqual(expect.stringMatching(/^evidence\.optimized: run 2 records: are byte-identical to run 1's \(sha256 [0-9a-f]{64}\)/));
  });

  it('the best run cloned into another place and re-signed there with the key', async () => {
    const all = runs(unsigned(3));
    const best = all[0] as SweepResult;
    const clone = { ...best, run: { ...best.run, startedAt: (all[2] as SweepResult).run.startedAt, endedAt: (all[2] as SweepResult).run.endedAt } };
    expect(runSetLines(await refusals(seal([best, all[1] as SweepResult, clone])))).toEqual([
      expect.stringMatching(
        /^evidence\.optimized: run 3 records: are byte-identical to run 1's \(sha256 [0-9a-f]{64}\): one measurement shipped as two runs \(a clone\) \[rule: run-set\]$/,
      ),
    ]);
  });

  it('runs that overlap in time, re-signed with the key', async () => {
    const all = runs(unsigned(3));
    const r2 = all[1] as SweepResult;
    const early = { ...r2, run: { ...r2.run, startedAt: '2026-06-03T08:59:30.000Z', endedAt: '2026-06-03T09:00:30.000Z' } };
    expect(runSetLines(await refusals(seal([all[0] as SweepResult, early, all[2] as SweepResult])))).toEqual([
      'evidence.optimized: run 2 run.startedAt: is 2026-06-03T08:59:30.000Z, before run 1 ended (2026-06-03T09:00:00.000Z): runs of one set are made one after another, so these overlap [rule: run-set]',
    ]);
  });

  it('five signed, the best three kept, the declared count edited to three and re-hashed', async () => {
    const five = seal(runsOf(unsigned(5)));
    const kept = keep(five, [0, 1, 2], (r, k) => ({ ...r, run: { ...r.run, repeat: { ...(r.run.repeat ?? never()), index: k + 1, of: 3 } } }));
    const contract = contractSchema.parse({ ...kept.contract, repeats: 3 });
    const lines = runSetLines(await refusals({ ...kept, contract: contract as unknown as Record<string, unknown>, contractHash: contractHash(contract) }));
    expect(lines).toContainEqual(
      'evidence.optimized: runSet.manifest.n: signs a set of 5 runs, but the contract declares 3: the declared count was changed after the set was signed [rule: run-set]',
    );
    expect(lines).toContainEqual(expect.stringMatching(/^evidence\.optimized: run 4: is missing: /));
  });

  it("a run from another set, with that set's signature", async () => {
    const [a, b] = [signed(), signed()];
    const set = (r: SweepResult) => r.runSet ?? never();
    const swapped = combineRepeats([runs(a)[0] as SweepResult, runs(a)[1] as SweepResult, runs(b)[2] as SweepResult]);
    const forged = {
      ...swapped,
      runSet: { manifest: set(a).manifest, runs: [set(a).runs[0] ?? never(), set(a).runs[1] ?? never(), set(b).runs[2] ?? never()] },
    };
    expect(runSetLines(await refusals(forged))).toContainEqual(
      expect.stringMatching(
        /^evidence\.optimized: runSet\.runs\[2\]: is signed for set manifest [0-9a-f]{64}, not this set's \([0-9a-f]{64}\): a run from another set/,
      ),
    );
  });

  it('a manifest whose statement was edited (its signature no longer verifies)', async () => {
    const r = signed();
    const m = r.runSet?.manifest ?? never();
    const statement = JSON.parse(Buffer.from(m.payload, 'base64').toString('utf8')) as { n: number };
    const edited = { ...m, payload: Buffer.from(JSON.stringify({ ...statement, n: 4 })).toString('base64') };
    expect(runSetLines(await refusals({ ...r, runSet: { ...(r.runSet ?? never()), manifest: edited } }))).toEqual([
      expect.stringMatching(/^evidence\.optimized: runSet\.manifest: the signature by ed25519:[0-9a-f]{32} does not verify/),
    ]);
  });

  it('a run signed by another key than the set', async () => {
    const r = signed();
    const set = r.runSet ?? never();
    const statement = JSON.parse(Buffer.from(set.runs[1]?.payload ?? '', 'base64').toString('utf8')) as { set: string };
    const resigned = signRunOfSet(statement.set, 2, runs(r)[1] as SweepResult, keyOf(newKeyPair().privatePem));
    const forged = { ...r, runSet: { ...set, runs: set.runs.map((x, k) => (k === 1 ? resigned : x)) } };
    expect(runSetLines(await refusals(forged))).toContainEqual(
      expect.stringMatching(/^evidence\.optimized: runSet\.runs\[1\]: names key ed25519:[0-9a-f]{32}, which is not the set's key/),
    );
  });
});
