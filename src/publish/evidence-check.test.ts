/**
 * Evidence integrity: an untouched result recomputes; an edited summary, an
 * edited record, a forged records hash and an edited contract are each refused
 * naming the field.
 */
import { describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { evidenceResult } from '../test-support/evidence-fixture.js';
import { checkEvidence } from './evidence-check.js';
import type { Refusal } from './refusal.js';

const fresh = () =>
  evidenceResult({
    levels: [
      { c: 1, ttftMs: 40, tpotMs: 10 },
      { c: 2, ttftMs: 45, tpotMs: 11 },
    ],
    repeats: 3,
    spread: 0.05,
  });
const check = (r: SweepResult) => {
  const out: Refusal[] = [];
  const side = checkEvidence('baseline', JSON.parse(JSON.stringify(r)) as SweepResult, out);
  return { side, out: out.map((x) => x.message) };
};

describe('checkEvidence', () => {
  it('accepts an untouched result, every run rebuilt from its records', () => {
    const { side, out } = check(fresh());
    expect(out).toEqual([]);
    expect(side?.runs).toHaveLength(3);
    expect(side?.runs[0]?.levels[0]?.ttftMs?.p50).toBeCloseTo(40, 6);
    expect(side?.runs[2]?.levels[0]?.ttftMs?.p50).toBeCloseTo(44, 6);
  });
  it('refuses a level summary its records do not give', () => {
    const r = fresh();
    (r.levels[1] as { throughputTokS: number }).throughputTokS = 900;
    expect(check(r).out).toEqual([
      expect.stringMatching(/^evidence\.baseline: run 1 levels\[c=2\]\.throughputTokS: states 900, its records give [\d.]+ \[rule: records-reproduce\]$/),
    ]);
  });
  it('refuses in-flight figures edited to claim more load than the records held', () => {
    const r = fresh();
    // Sent in rounds of two, each round's second send seeing the first: 1.5 at the median of 2 asked.
    expect(r.levels[1]?.inFlight).toEqual({ median: 1.5, min: 1, asked: 2, held: 0.75, samples: 6 });
    (r.levels[1]?.inFlight as { median: number; held: number }).median = 2;
    (r.levels[1]?.inFlight as { median: number; held: number }).held = 1;
    expect(check(r).out).toEqual([
      'evidence.baseline: run 1 levels[c=2].inFlight.median: states 2, its records give 1.5 [rule: records-reproduce]',
      'evidence.baseline: run 1 levels[c=2].inFlight.held: states 1, its records give 0.75 [rule: records-reproduce]',
    ]);
  });
  it('accepts a result of an earlier version, whose levels state no in-flight figures', () => {
    const r = fresh();
    for (const run of [r, ...(r.repeats ?? [])]) for (const l of run.levels) delete (l as { inFlight?: unknown }).inFlight;
    const { side, out } = check(r);
    expect(out).toEqual([]);
    expect(side?.runs[0]?.levels[1]?.inFlight).toBeUndefined();
  });
  it('refuses edited records under their old hash, and a recomputed hash does not help the summaries', () => {
    const r = fresh();
    const rec = r.repeats?.[0]?.records?.[3] as { chunkNs: number[] };
    rec.chunkNs[0] = (rec.chunkNs[0] as number) + 5e6;
    expect(check(r).out[0]).toMatch(
      /^evidence\.baseline: run 2 recordsSha256: states [0-9a-f]{64}, its records hash to [0-9a-f]{64}; the records were edited \[rule: records-hash\]$/,
    );
  });
  it('refuses an edited contract under its old hash', () => {
    const r = fresh();
    (r.contract as { model: { revision: string } }).model.revision = 'r2';
    expect(check(r).out).toEqual([
      expect.stringMatching(
        /^evidence\.baseline: contractHash: states [0-9a-f]{64}, its contract hashes to [0-9a-f]{64}; the contract was edited \[rule: contract-hash\]$/,
      ),
    ]);
  });
});
