/**
 * End to end, over loopback only: `goodput keys create`, a signed `goodput run
 * --repeats 3` on each side against two simulators, `receipt create`, a signed
 * `publish` and `verify --key`. Then the optimized set with one run dropped,
 * one renumbered, and one cloned, each result re-signed with goodput's own
 * code and the key as a publisher holding it could: `receipt create` refuses
 * each naming the rule and the run, and `publish` refuses the clone shipped
 * in a receipt whose evidence was swapped and re-hashed. Runs are tiny.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsOf } from '../contract/index.js';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { expectOk, useSimulatorPair, writeReceiptContract } from '../test-support/receipt-contracts.js';
import { evidencePath, packEvidence, signaturePath } from './evidence-files.js';
import { publicResult } from './receipt-kinds.js';
import { manifestSha256, signRunOfSet } from './run-set.js';
import { parseKey, signedResult } from './site-signing.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-run-set-e2e-'));
const keys = join(dir, 'keys');
const sims = useSimulatorPair(8, 2, 0.1);
const contract = (name: string, url: string, quantization: string) =>
  writeReceiptContract(dir, name, url, quantization, { promptTokens: 16, outputTokens: 8, ttftSloMs: 2000 });

/** `result` written as `goodput run --json` writes it, and signed again over its new bytes with the key, as its holder could. */
function resign(file: string, result: SweepResult): void {
  const key = parseKey(readFileSync(join(keys, 'publisher.key'), 'utf8'), 'private');
  if (!key.ok) throw new Error(key.problem);
  const json = JSON.stringify(result, null, 2) + '\n';
  writeFileSync(file, json);
  const published = packEvidence(publicResult(sweepResultSchema.parse(JSON.parse(json)))).sha256;
  writeFileSync(`${file}.dsse.json`, signedResult(Buffer.from(json), key.key, published));
}

const read = (file: string) => sweepResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
function setOf(r: SweepResult): NonNullable<SweepResult['runSet']> {
  if (r.runSet === undefined) throw new Error('the result carries no signed set');
  return r.runSet;
}
/** Runs recombined as a forger would: the first on top, the others as repeats, with the set's signatures `sigs`. */
function recombined(r: SweepResult, runs: SweepResult[], sigs: NonNullable<SweepResult['runSet']>['runs']): SweepResult {
  const [first, ...rest] = runs.map((x) => ({ ...x, runSet: undefined }));
  const repeats = rest.map((x) => ({ run: x.run, warnings: x.warnings, levels: x.levels, cards: x.cards, records: x.records, recordsSha256: x.recordsSha256 }));
  return { ...(first as SweepResult), repeats, runSet: { manifest: setOf(r).manifest, runs: sigs } };
}

async function receiptCreate(optimized: string, out: string) {
  return runGoodput([
    'receipt',
    'create',
    '--baseline',
    join(dir, 'b.json'),
    '--optimized',
    optimized,
    '--method',
    'FP8',
    '--out',
    out,
    '--allow-server-disagreement',
  ]);
}

describe('signed repeat sets, end to end', () => {
  it('a whole signed set publishes and verifies; a dropped, renumbered or cloned run is refused, naming it', async () => {
    expectOk(await runGoodput(['keys', 'create', '--dir', keys]), 'keys');
    const key = join(keys, 'publisher.key');
    for (const [side, url, q] of [
      ['b', sims.baseline().url, 'none'],
      ['o', sims.optimized().url, 'fp8'],
    ] as const)
      expectOk(
        await runGoodput(['run', contract(side, url, q), '--repeats', '3', '--json', join(dir, `${side}.json`), '--key', key], {}, 120_000),
        `run ${side}`,
      );
    const o = read(join(dir, 'o.json'));
    expect(setOf(o).runs).toHaveLength(3);
    expect(o.run.repeat?.set).toBe(manifestSha256(setOf(o).manifest).slice(0, 16));
    const receipts = join(dir, 'receipts');
    expectOk(await receiptCreate(join(dir, 'o.json'), join(receipts, 'r.json')), 'receipt');
    const site = join(dir, 'site');
    expectOk(await runGoodput(['publish', '--receipts', receipts, '--key', key, '--out', site]), 'publish');
    expectOk(await runGoodput(['verify', site, '--key', join(keys, 'publisher.pub')]), 'verify');

    const runs = runsOf(o);
    const sigs = setOf(o).runs;
    const [r1, r2, r3] = runs as [SweepResult, SweepResult, SweepResult];
    const renumbered = { ...r3, run: { ...r3.run, repeat: { ...(r3.run.repeat as NonNullable<SweepResult['run']['repeat']>), index: 2 } } };
    const pk = parseKey(readFileSync(key, 'utf8'), 'private');
    if (!pk.ok) throw new Error(pk.problem);
    const clone = { ...r1, run: { ...r1.run, startedAt: r3.run.startedAt, endedAt: r3.run.endedAt, repeat: r3.run.repeat } };
    const cloneSig = signRunOfSet(manifestSha256(setOf(o).manifest), 3, clone, pk.key);
    const forgeries: Array<[string, SweepResult, RegExp]> = [
      ['dropped', recombined(o, [r1, r2], sigs.slice(0, 2)), /evidence\.optimized: run 3: is missing: .*\[rule: run-set\]/],
      [
        'renumbered',
        recombined(
          o,
          [r1, renumbered],
          [0, 2].map((k) => setOf(o).runs[k] as NonNullable<SweepResult['runSet']>['runs'][number]),
        ),
        /evidence\.optimized: run 2: ships as run 2, but is signed as run 3 of the set: the runs were renumbered \[rule: run-set\]/,
      ],
      [
        'cloned',
        recombined(o, [r1, r2, clone], [...sigs.slice(0, 2), cloneSig]),
        /evidence\.optimized: run 3 records: are byte-identical to run 1's \(sha256 [0-9a-f]{64}\): one measurement shipped as two runs \(a clone\) \[rule: run-set\]/,
      ],
    ];
    for (const [what, forged, why] of forgeries) {
      const file = join(dir, `${what}.json`);
      resign(file, forged);
      const out = join(dir, `receipts-${what}`, 'r.json');
      const refused = await receiptCreate(file, out);
      expect(refused.code, `${what}:\n${refused.stderr}`).toBe(2);
      expect(refused.stderr, what).toMatch(why);
      expect(() => readFileSync(out), what).toThrow();
    }

    // The clone swapped into the published receipt's evidence, re-hashed: publish refuses it too.
    const stated = JSON.parse(readFileSync(join(receipts, 'r.json'), 'utf8')) as { evidence: { optimized: string } };
    const packed = packEvidence(publicResult(sweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'cloned.json'), 'utf8')))));
    rmSync(join(receipts, evidencePath(stated.evidence.optimized)), { force: true });
    rmSync(join(receipts, signaturePath(stated.evidence.optimized)), { force: true });
    writeFileSync(join(receipts, packed.path), packed.gz);
    writeFileSync(join(receipts, signaturePath(packed.sha256)), readFileSync(join(dir, 'cloned.json.dsse.json')));
    writeFileSync(join(receipts, 'r.json'), readFileSync(join(receipts, 'r.json'), 'utf8').replaceAll(stated.evidence.optimized, packed.sha256));
    const published = await runGoodput(['publish', '--receipts', receipts, '--key', key, '--out', join(dir, 'site-cloned')]);
    expect(published.code, published.stderr).toBe(2);
    expect(published.stderr).toMatch(/run 3 records: are byte-identical to run 1's .*\[rule: run-set\]/);
  }, 600_000);
});
