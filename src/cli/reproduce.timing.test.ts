/**
 * `goodput reproduce`, end to end over loopback: a receipt made from two
 * simulators (three runs a side, the score measured in the optimized run) is
 * reproduced against the same two and every claim holds; against an optimized
 * simulator four times slower per decode step, the claims that do not hold
 * are named (exit 8), the optimized single-stream figures among them. The
 * verdicts rest on the wall clock of tiny loopback runs: they are strict in
 * npm run bench and logged when missed in npm test's relaxed pass, while the
 * rest (the claims, their hashes, their figures, the exit code being 0 or 8)
 * must hold everywhere.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaimCheck, type LevelVerdict, receiptSchema } from '../publish/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import type { Ran } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';
import { writeReceiptContract } from '../test-support/receipt-contracts.js';
import { wallClock } from '../test-support/wall-clock.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-reproduce-'));
const receiptPath = join(dir, 'receipts', 'receipt.json');
/** A decode step of `stepMs`, a fixed prefill, no batching slowdown: figures a loaded machine moves little. */
const profile = (stepMs: number, noise: number) => [
  ...['--prefill-base-ms', '5', '--prefill-ms-per-token', '0', '--decode-step-ms', String(stepMs), '--decode-ms-per-extra-seq', '0'],
  ...(noise > 0 ? ['--quantization-noise', String(noise)] : []),
];
const sims: Record<'baseline' | 'optimized' | 'slower', SimProcess | null> = { baseline: null, optimized: null, slower: null };
const url = (k: keyof typeof sims) => (sims[k] as SimProcess).url;

const ok = (r: Ran, what: string) => expect(r.code, `${what}:\n${r.stdout}\n${r.stderr}`).toBe(0);

beforeAll(async () => {
  [sims.baseline, sims.optimized, sims.slower] = await Promise.all([
    spawnSimProcess(profile(10, 0)),
    spawnSimProcess(profile(5, 0.2)),
    spawnSimProcess(profile(20, 0.2)),
  ]);
  // The first requests of a process are its client's cold start (a client-bound level, whose figures are not recorded).
  ok(
    await cli(['sweep', '--url', url('baseline'), '--levels', '1', '--requests-per-level', '4', '--prompt-tokens', '16', '--output-tokens', '8', '--no-save']),
    'warm-up',
  );
  const shape = { promptTokens: 16, outputTokens: 12, ttftSloMs: 500 };
  const b = join(dir, 'baseline.json');
  const o = join(dir, 'optimized.json');
  ok(await cli(['run', writeReceiptContract(dir, 'baseline', url('baseline'), 'none', shape), '--json', b, '--repeats', '3']), 'baseline run');
  ok(
    await cli([
      'run',
      writeReceiptContract(dir, 'optimized', url('optimized'), 'fp8', shape),
      '--json',
      o,
      '--repeats',
      '3',
      '--quality-baseline',
      url('baseline'),
    ]),
    'optimized run',
  );
  const made = await cli([
    'receipt',
    'create',
    '--baseline',
    b,
    '--optimized',
    o,
    '--method',
    'FP8 quantization, faster decode',
    '--out',
    receiptPath,
    '--allow-server-disagreement',
  ]);
  ok(made, 'receipt create');
}, patient(120_000));
afterAll(async () => {
  await Promise.all(Object.values(sims).map((s) => s?.stop()));
});

const reproduce = (optimized: keyof typeof sims, more: string[] = [], path = receiptPath) =>
  cli(['reproduce', path, '--baseline-url', url('baseline'), '--optimized-url', url(optimized), ...more]);
type Hashes = Record<'baseline' | 'optimized', { published: string | null; reproduced: string | null }>;
const claimsIn = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as { holds: boolean; claims: ClaimCheck[]; levels: LevelVerdict[]; contractHashes: Hashes };

describe('goodput reproduce', () => {
  it('against the two simulators that made the receipt: every claim holds, the quality score among them', async () => {
    const json = join(dir, 'same.json');
    const r = await reproduce('optimized', ['--json', json]);
    expect([EXIT.ok, EXIT.notReproduced], r.stderr).toContain(r.code);
    const doc = claimsIn(json);
    wallClock(
      doc.claims.filter((c) => !c.holds).map((c) => `${c.id}: ${c.why}`),
      'claims that do not hold on the servers that made the receipt',
    ).toEqual([]);
    wallClock(r.code, 'exit code').toBe(EXIT.ok);
    const ids = doc.claims.map((c) => c.id);
    // A figure the receipt does not record (a level our client bound on a loaded machine) claims nothing; the optimized side's are recorded.
    expect(ids).toContain('optimized.quality');
    wallClock(ids, 'claims recorded').toEqual(expect.arrayContaining(['optimized.tpotSingle', 'optimized.peakThroughput', 'optimized.costPer1M']));
    expect(doc.claims.every((c) => c.holds === (c.reproduced !== null && c.low <= c.reproduced && c.reproduced <= c.high))).toBe(true);
    // Three runs a side: the published runs are the receipt's, the reproduced runs the reader's.
    expect(doc.claims.find((c) => c.id === 'optimized.quality')?.publishedRuns).toBeNull();
    // Absent only where the receipt recorded no single-stream figure (our client bound on a loaded machine): a missed bound.
    wallClock(doc.claims.find((c) => c.id === 'optimized.tpotSingle')?.reproducedRuns?.length ?? 0, 'reproduced runs').toBe(3);
    wallClock(r.stdout.trim().split('\n').at(-1), 'last line').toMatch(/^every claim of .+ holds \((\d+) of \1\)$/);
    // Each level's curve points are claims too: their published range is rebuilt from the receipt's three runs.
    const point = doc.claims.find((c) => c.id === 'optimized.c1.throughput');
    expect(point?.level).toBe(1);
    expect(point?.publishedRuns).toHaveLength(3);
    wallClock(point?.reproducedRuns, 'reproduced runs of a curve point').toHaveLength(3);
    expect(doc.levels.map((l) => `${l.configuration} ${l.concurrency}`)).toContain('optimized 1');
    // The reruns are the receipt's experiment by its hash: the reader's addresses are not in it.
    for (const side of ['baseline', 'optimized'] as const) expect(doc.contractHashes[side].reproduced).toBe(doc.contractHashes[side].published);
  });

  it('against a slower optimized simulator: names the claims that do not hold, exit 8', async () => {
    const json = join(dir, 'slower.json');
    const r = await reproduce('slower', ['--json', json]);
    expect([EXIT.ok, EXIT.notReproduced], r.stderr).toContain(r.code);
    wallClock(r.code, 'exit code').toBe(EXIT.notReproduced);
    const failing = claimsIn(json)
      .claims.filter((c) => !c.holds)
      .map((c) => c.id);
    wallClock(failing, 'claims that do not hold').toEqual(
      expect.arrayContaining(['optimized.tpotSingle', 'optimized.e2eSingle', 'optimized.singleStream', 'optimized.c1.throughput']),
    );
    wallClock(r.stdout, 'level lines').toMatch(/^optimized at concurrency 1: \d+ of \d+ points do not hold: .*optimized\.c1\.throughput/m);
    // The baseline ran on the server that made it: only the optimized configuration's claims fail.
    wallClock(
      failing.filter((id) => !id.startsWith('optimized.')),
      'baseline claims that do not hold',
    ).toEqual([]);
    const tpot = claimsIn(json).claims.find((c) => c.id === 'optimized.tpotSingle');
    // No claim where the receipt recorded no single-stream figure (a loaded machine): a missed bound, as a slow figure is.
    wallClock(tpot === undefined ? 'no claim' : 'claimed', 'a single-stream TPOT claim').toBe('claimed');
    if (tpot !== undefined) wallClock(tpot.reproduced, 'reproduced optimized TPOT').toBeGreaterThan(tpot.high);
    wallClock(r.stdout, 'table').toMatch(/^optimized\.tpotSingle .* does not hold: beyond /m);
    wallClock(r.stdout.trim().split('\n').at(-1), 'last line').toMatch(
      new RegExp(`^${failing.length} of \\d+ claims of .+ do not hold: .*optimized\\.tpotSingle`),
    );
  });

  it('keeps the receipt it read: the published figures are the recomputed ones', () => {
    const receipt = receiptSchema.parse(JSON.parse(readFileSync(receiptPath, 'utf8')));
    const published = claimsIn(join(dir, 'same.json')).claims.find((c) => c.id === 'optimized.quality');
    expect(published?.published).toBe(receipt.facts.find((f) => f.id === 'optimized.quality')?.value);
  });
});
