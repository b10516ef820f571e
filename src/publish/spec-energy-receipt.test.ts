/**
 * Receipts of runs whose levels carry speculative decoding and energy, end to
 * end: two contract runs against simulators with draft models that accept at
 * different rates (the server's counters scraped by `goodput run`), with energy
 * planted in their levels as a GPU source states it (no GPU here). A receipt
 * made now states fact set 4, each level's acceptance length and rate, our
 * tokens per chunk and joules per token with their notes and standing, and
 * verifies on a published site; an edited figure the records recompute is
 * refused naming it; a receipt of the same runs made before set 4 still
 * verifies, and set 4 stated of runs without these figures is refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type EnergyLevel, type SweepResult, energyFromRecords, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { patient } from '../test-support/patience.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { buildReceipt } from './build-receipt.js';
import { packEvidence } from './evidence-files.js';
import { receiptFile, recomputeReceipt } from './receipt-file.js';
import { publicResult } from './receipt-kinds.js';
import { verifySite } from './verify-site.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-spec-energy-receipt-'));
const today = new Date().toISOString().slice(0, 10);
let sims: SimProcess[] = [];
type Side = 'baseline' | 'optimized';
const runs: Record<Side, string> = { baseline: '', optimized: '' };
const GAP = 'no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)';

/** Energy as a GPU source states it: 300 W (baseline) or 200 W over concurrency 1's measured window, and not valid at concurrency 2. */
function withEnergy(r: SweepResult, watts: number): SweepResult {
  const levels = r.levels.map((l) => {
    const records = (r.records ?? []).filter((x) => x.concurrency === l.concurrency);
    const valid = l.concurrency === 1;
    const stated: EnergyLevel = {
      source: 'nvidia-smi',
      valid,
      reason: valid ? null : GAP,
      windowMs: 0,
      samples: 12,
      outside: 3,
      intervalMs: 200,
      coverage: valid ? 0.97 : 0.4,
      method: 'power',
      joules: null,
      meanPowerW: valid ? watts : null,
      outputTokens: 0,
      inputTokens: null,
      joulesPerOutputToken: null,
      joulesPerInputToken: null,
      joulesPerTotalToken: null,
    };
    return { ...l, energy: energyFromRecords(stated, records) };
  });
  return { ...r, levels };
}

beforeAll(async () => {
  const profile = (accept: number) => [
    '--prefill-base-ms',
    '2',
    '--decode-step-ms',
    '2',
    '--dialect',
    'vllm',
    '--seed',
    '7',
    '--spec-decode-positions',
    '4',
    '--spec-accept',
    String(accept),
  ];
  sims = await Promise.all([spawnSimProcess(profile(0.5)), spawnSimProcess(profile(0.8))]);
  for (const [k, sim, watts] of [
    ['baseline', sims[0], 300],
    ['optimized', sims[1], 200],
  ] as const) {
    const contract = join(dir, `${k}.yaml`);
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: sim?.url, endpoint: 'chat' },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 96, requestsPerLevel: 8, warmup: 1 },
        decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true },
        load: { pattern: { kind: 'concurrency' }, levels: [1, 2] },
        slo: { ttftMs: { p: 95, max: 5000 } },
        hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: '2026-11-01' },
      }),
    );
    const plain = join(dir, `${k}-plain.json`);
    const r = await cli(['run', contract, '--json', plain]);
    expect(r.code, r.stderr).toBe(0);
    runs[k] = join(dir, `${k}.json`);
    writeFileSync(runs[k], JSON.stringify(withEnergy(sweepResultSchema.parse(JSON.parse(readFileSync(plain, 'utf8'))), watts)));
  }
}, patient(120_000));
afterAll(async () => {
  await Promise.all(sims.map((p) => p.stop()));
});

const read = (k: Side): SweepResult => sweepResultSchema.parse(JSON.parse(readFileSync(runs[k], 'utf8')));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;
const NEW_FACT = /^(baseline|optimized)\.c\d+\.(acceptanceLength|acceptanceRate|chunkTokens|joulesPer(Output|Input|Total)Token)$/;
const create = (out: string, files = runs) =>
  cli(['receipt', 'create', '--baseline', files.baseline, '--optimized', files.optimized, '--method', 'a better drafter', '--out', out]);

describe('a receipt of runs with speculative decoding and energy', () => {
  it("made now states fact set 4: each level's figures with their notes, a page table and their standing, and verifies", async () => {
    const out = join(dir, 'new', 'receipt.json');
    const r = await create(out);
    expect(r.code, r.stderr).toBe(0);
    const receipt = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    expect(receipt.factSetVersion).toBe(4);
    const facts = (receipt.facts as Doc[]).filter((f) => NEW_FACT.test(f.id));
    expect(facts).toHaveLength(2 * 2 * 6);
    for (const f of facts) {
      const [cfg, c, metric] = f.id.split('.') as [Side, string, string];
      const l = read(cfg).levels.find((x) => x.concurrency === Number(c.slice(1)));
      const s = l?.specDecode;
      const e = l?.energy;
      if (s === undefined || e === undefined) throw new Error(`${f.id}: the level carries no figures`);
      const expected: Record<string, number | null | undefined> = {
        acceptanceLength: s.acceptanceLength,
        acceptanceRate: s.acceptanceRate,
        chunkTokens: s.client?.tokensPerChunk,
        joulesPerOutputToken: e.joulesPerOutputToken,
        joulesPerInputToken: e.joulesPerInputToken,
        joulesPerTotalToken: e.joulesPerTotalToken,
      };
      expect(f.value, f.id).toBe(expected[metric]);
    }
    const fact = (id: string) => facts.find((f) => f.id === id) as Doc;
    const counters = read('optimized').levels[0]?.specDecode?.counters;
    expect(fact('optimized.c1.acceptanceLength').note).toMatch(
      new RegExp(
        `(^|; )vLLM's counters over the level: 1 \\+ ${counters?.acceptedTokens} accepted ÷ ${counters?.drafts} drafts; our \\d\\.\\d\\d tokens per chunk agree within ±5 %$`,
      ),
    );
    // The draft model that accepts more states the longer acceptance length, and less energy per token.
    expect(fact('optimized.c1.acceptanceLength').value).toBeGreaterThan(fact('baseline.c1.acceptanceLength').value);
    expect(fact('baseline.c1.joulesPerOutputToken').value).toBeGreaterThan(0);
    expect(fact('baseline.c1.joulesPerOutputToken').note).toMatch(
      /(^|; )nvidia-smi over the measured window \(\d+\.\d\d s\): 12 readings every 200 ms, 3 left out, coverage 97 %, by trapezoids over its power readings$/,
    );
    // A busy machine may make a level client-bound: its state comes first in every note.
    expect(fact('baseline.c2.joulesPerOutputToken')).toMatchObject({
      value: null,
      provenance: 'not recorded',
      note: expect.stringMatching(new RegExp(`(^|; )energy not valid: ${GAP.replace(/[()]/g, '\\$&')}$`)),
    });
    const site = join(dir, 'site-new');
    const published = await cli(['publish', '--receipts', out, '--out', site]);
    expect(published.code, published.stderr).toBe(0);
    expect((await verifySite(site, { today })).receipts).toBe(1);
    const page = readFileSync(join(site, `${receipt.id}.html`), 'utf8');
    expect(page).toContain('id="speculative-energy"');
    expect(page).toContain(`<li>baseline at concurrency 2: energy not valid: ${GAP}</li>`);
    for (const f of facts) expect(page, f.id).toContain(`data-fact="${receipt.id}/${f.id}"`);
    const dataset = JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as Doc;
    const numbers = new Map((dataset.receipts[0].numbers as Doc[]).map((n) => [n.id.slice(receipt.id.length + 1), n]));
    // The server's counters and the GPU readings are the result's word; our chunks are the records'.
    expect(numbers.get('optimized.c1.acceptanceLength')?.standing).toMatchObject({ by: 'declared' });
    expect(numbers.get('optimized.c1.acceptanceLength')?.standing.what).toMatch(
      /states the server's speculative-decoding counters or gauge, which its records cannot recompute/,
    );
    expect(numbers.get('baseline.c1.joulesPerOutputToken')?.standing.what).toMatch(/states the GPU source's power or energy readings/);
    expect(numbers.get('optimized.c1.chunkTokens')?.standing).toMatchObject({ by: 'recomputed' });
  });

  it('refuses a figure the records recompute, edited in the evidence or in the receipt, naming it', async () => {
    const edit = (k: Side, change: (r: Doc) => void): string => {
      const doc = JSON.parse(readFileSync(runs[k], 'utf8')) as Doc;
      change(doc);
      const file = join(dir, `${k}-edited-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(doc));
      return file;
    };
    const chunks = edit('optimized', (d) => (d.levels[0].specDecode.client.tokensPerChunk += 1));
    const a = await create(join(dir, 'edited-a', 'receipt.json'), { ...runs, optimized: chunks });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/evidence\.optimized: run 1 levels\[c=1\]\.specDecode\.client\.tokensPerChunk: states [\d.]+, its records give [\d.]+/);
    const joules = edit('baseline', (d) => (d.levels[0].energy.joulesPerOutputToken /= 2));
    const b = await create(join(dir, 'edited-b', 'receipt.json'), { ...runs, baseline: joules });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/evidence\.baseline: run 1 levels\[c=1\]\.energy\.joulesPerOutputToken: states [\d.e-]+, its records give [\d.e-]+/);
    const out = join(dir, 'edited-c', 'receipt.json');
    expect((await create(out)).code).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    ((doc.facts as Doc[]).find((f) => f.id === 'optimized.c2.acceptanceLength') as Doc).value = 4.9;
    const again = await recomputeReceipt(JSON.stringify(doc), join(dir, 'edited-c'), today);
    expect(again.ok ? [] : again.refusals.map((x) => [x.field, x.rule])).toEqual([['facts[optimized.c2.acceptanceLength].value', 'stated-equals-recomputed']]);
  });

  it('made before fact set 4 (set 3) still verifies, with none of these figures; set 4 stated of runs without them is refused', async () => {
    const built = buildReceipt({
      baseline: read('baseline'),
      optimized: read('optimized'),
      quality: null,
      method: 'a better drafter',
      generator: '0.1.0',
      factSet: 3,
    });
    if (!built.ok) throw new Error(built.problems.join('; '));
    expect(built.receipt.factSetVersion).toBe(3);
    expect(built.receipt.facts.filter((f) => NEW_FACT.test(f.id))).toEqual([]);
    const packed = { baseline: packEvidence(publicResult(read('baseline'))), optimized: packEvidence(publicResult(read('optimized'))) };
    const old = join(dir, 'old');
    mkdirSync(join(old, 'evidence'), { recursive: true });
    for (const p of Object.values(packed)) writeFileSync(join(old, p.path), p.gz);
    const text =
      JSON.stringify(receiptFile(built.receipt, { baseline: packed.baseline.sha256, optimized: packed.optimized.sha256, quality: null }), null, 2) + '\n';
    writeFileSync(join(old, 'receipt.json'), text);
    const again = await recomputeReceipt(text, old, today);
    expect(again.ok ? again.receipt : again.refusals).toEqual(built.receipt);
    const site = join(dir, 'site-old');
    expect((await cli(['publish', '--receipts', join(old, 'receipt.json'), '--out', site])).code).toBe(0);
    expect((await verifySite(site, { today })).receipts).toBe(1);
    expect(readFileSync(join(site, `${built.receipt.id}.html`), 'utf8')).not.toContain('speculative-energy');
    // Runs without speculative decoding or energy state set 3; a receipt of them claiming set 4 states what the evidence does not give.
    const plain = packReceipt(join(dir, 'plain', 'receipt.json'), { ...evidencePair(), quality: null });
    expect(plain.receipt.factSetVersion).toBe(3);
    const claimed = await recomputeReceipt(JSON.stringify({ ...(JSON.parse(plain.text) as Doc), factSetVersion: 4 }), join(dir, 'plain'), today);
    expect(claimed.ok ? [] : claimed.refusals.map((x) => [x.field, x.rule])).toEqual([['factSetVersion', 'stated-equals-recomputed']]);
  });
});
