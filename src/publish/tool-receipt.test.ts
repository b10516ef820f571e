/**
 * Receipts of runs sent with tools, end to end: two contract runs with tools
 * against two simulators whose calls fail validation at different rates. A
 * receipt made now states fact set 2, each level's tool facts and the two
 * tool-call charts, and verifies; a receipt of the same runs made before the
 * set existed (set 1: no version field, no tool facts) still verifies; an
 * edited tool fact and a fact set goodput does not know are refused, each
 * naming what is wrong.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { patient } from '../test-support/patience.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { buildReceipt } from './build-receipt.js';
import { packEvidence } from './evidence-files.js';
import { receiptFile, recomputeReceipt } from './receipt-file.js';
import { publicResult } from './receipt-kinds.js';
import { verifySite } from './verify-site.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-tool-receipt-'));
const today = new Date().toISOString().slice(0, 10);
let sims: SimProcess[] = [];
const runs: Record<'baseline' | 'optimized', string> = { baseline: '', optimized: '' };

beforeAll(async () => {
  const profile = (stepMs: number, invalid: number) => ['--prefill-base-ms', '2', '--decode-step-ms', String(stepMs), '--tool-call-invalid', String(invalid)];
  sims = await Promise.all([spawnSimProcess(profile(4, 0.4)), spawnSimProcess(profile(2, 0.1))]);
  for (const [k, sim] of [
    ['baseline', sims[0]],
    ['optimized', sims[1]],
  ] as const) {
    const contract = join(dir, `${k}.yaml`);
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: sim?.url, endpoint: 'chat' },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: {
          prompts: { kind: 'synthetic', tokens: 24 },
          outputTokens: 64,
          requestsPerLevel: 8,
          warmup: 1,
          tools: { kind: 'builtin', count: 8, choice: 'required' },
        },
        decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: false },
        load: { pattern: { kind: 'concurrency' }, levels: [1, 2] },
        slo: { ttftMs: { p: 95, max: 5000 }, toolCallValid: true },
        hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: '2026-11-01' },
      }),
    );
    runs[k] = join(dir, `${k}.json`);
    const r = await cli(['run', contract, '--json', runs[k]]);
    expect(r.code, r.stderr).toBe(0);
  }
}, patient(120_000));
afterAll(async () => {
  await Promise.all(sims.map((p) => p.stop()));
});

const read = (k: 'baseline' | 'optimized'): SweepResult => sweepResultSchema.parse(JSON.parse(readFileSync(runs[k], 'utf8')));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;
const TOOL_FACT = /^(baseline|optimized)\.c\d+\.tool(Valid|TtftP50|TtftP95)$/;

/** Publishes the receipt files and verifies the site as a reader would. */
async function publishAndVerify(name: string, receipts: string[]): Promise<string> {
  const site = join(dir, name);
  const r = await cli(['publish', '--receipts', ...receipts, '--out', site]);
  expect(r.code, r.stderr).toBe(0);
  const verified = await verifySite(site, { today });
  expect(verified.receipts).toBe(receipts.length);
  return site;
}

describe('a receipt of runs sent with tools', () => {
  it('made now states fact set 3 (set 2 and the run signatures), each level’s tool facts and the two tool-call charts, and verifies', async () => {
    const out = join(dir, 'new', 'receipt.json');
    const r = await cli(['receipt', 'create', '--baseline', runs.baseline, '--optimized', runs.optimized, '--method', 'a faster decoder', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const receipt = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    expect(Object.keys(receipt).slice(0, 2)).toEqual(['receiptVersion', 'factSetVersion']);
    expect(receipt.factSetVersion).toBe(3);
    const tools = (receipt.facts as Doc[]).filter((f) => TOOL_FACT.test(f.id));
    expect(tools.map((f) => f.id).sort()).toEqual(
      ['baseline', 'optimized'].flatMap((cfg) => [1, 2].flatMap((c) => ['toolTtftP50', 'toolTtftP95', 'toolValid'].map((m) => `${cfg}.c${c}.${m}`))),
    );
    // The facts are the levels' own tool-call summaries.
    const level = (k: 'baseline' | 'optimized', c: number) => read(k).levels.find((l) => l.concurrency === c)?.toolCalls;
    for (const f of tools) {
      const [cfg, c, metric] = f.id.split('.') as ['baseline' | 'optimized', string, string];
      const t = level(cfg, Number(c.slice(1)));
      const expected = metric === 'toolValid' ? t?.validRate : metric === 'toolTtftP50' ? t?.ttftToolMs?.p50 : t?.ttftToolMs?.p95;
      expect(f.value, f.id).toBe(expected);
    }
    const site = await publishAndVerify('site-new', [out]);
    const page = readFileSync(join(site, `${receipt.id}.html`), 'utf8');
    expect(page).toContain('id="chart-tool-valid"');
    expect(page).toContain('id="chart-tool-ttft"');
    for (const f of tools) expect(page, f.id).toContain(`data-fact="${receipt.id}/${f.id}"`);
  });

  it('made before fact set 2 (no version, no tool facts) still verifies, and states none of the tool charts', async () => {
    // What goodput wrote before the set existed: the same builder asked for set 1.
    const built = buildReceipt({
      baseline: read('baseline'),
      optimized: read('optimized'),
      quality: null,
      method: 'a faster decoder',
      generator: '0.1.0',
      factSet: 1,
    });
    if (!built.ok) throw new Error(built.problems.join('; '));
    expect('factSetVersion' in built.receipt).toBe(false);
    expect(built.receipt.facts.filter((f) => TOOL_FACT.test(f.id))).toEqual([]);
    const packed = { baseline: packEvidence(publicResult(read('baseline'))), optimized: packEvidence(publicResult(read('optimized'))) };
    const old = join(dir, 'old');
    mkdirSync(join(old, 'evidence'), { recursive: true });
    for (const p of Object.values(packed)) writeFileSync(join(old, p.path), p.gz);
    const text =
      JSON.stringify(receiptFile(built.receipt, { baseline: packed.baseline.sha256, optimized: packed.optimized.sha256, quality: null }), null, 2) + '\n';
    writeFileSync(join(old, 'receipt.json'), text);
    const again = await recomputeReceipt(text, old, today);
    expect(again.ok ? again.receipt : again.refusals).toEqual(built.receipt);
    const site = await publishAndVerify('site-old', [join(old, 'receipt.json')]);
    expect(readFileSync(join(site, `${built.receipt.id}.html`), 'utf8')).not.toContain('chart-tool-');
  });

  it('refuses an edited tool fact, naming it', async () => {
    const out = join(dir, 'edited', 'receipt.json');
    expect(
      (await cli(['receipt', 'create', '--baseline', runs.baseline, '--optimized', runs.optimized, '--method', 'a faster decoder', '--out', out])).code,
    ).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    const fact = (doc.facts as Doc[]).find((f) => f.id === 'optimized.c2.toolValid') as Doc;
    fact.value = 0.123;
    const again = await recomputeReceipt(JSON.stringify(doc), join(dir, 'edited'), today);
    expect(again.ok).toBe(false);
    const named = again.ok ? [] : again.refusals.map((x) => x.message);
    expect(named.join('\n')).toMatch(/facts\[optimized\.c2\.toolValid\]\.value: states 0\.123.*\[rule: stated-equals-recomputed\]/);
  });

  it('refuses a fact set goodput does not know, and set 2 stated of runs without tools, naming the field', async () => {
    const out = join(dir, 'versions', 'receipt.json');
    expect(
      (await cli(['receipt', 'create', '--baseline', runs.baseline, '--optimized', runs.optimized, '--method', 'a faster decoder', '--out', out])).code,
    ).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    const later = await recomputeReceipt(JSON.stringify({ ...doc, factSetVersion: 6 }), join(dir, 'versions'), today);
    expect(later.ok ? [] : later.refusals.map((x) => [x.field, x.rule])).toEqual([['factSetVersion', 'schema']]);
    if (!later.ok) expect(later.refusals[0]?.message).toMatch(/must be 2, 3, 4, 5 or absent \(1\)/);
    // The receipt as goodput made it before set 3 (set 2, no signatures) still recomputes to exactly what it states.
    const { signatures: _signatures, ...set2 } = doc;
    const older = await recomputeReceipt(JSON.stringify({ ...set2, factSetVersion: 2 }), join(dir, 'versions'), today);
    expect(older.ok ? [] : older.refusals.map((x) => x.message)).toEqual([]);
    if (older.ok) expect([older.receipt.factSetVersion, 'signatures' in older.receipt]).toEqual([2, false]);
    // Runs without tools have no set-2 facts: a receipt of them claiming the set is refused as a statement the evidence does not give.
    const plain = packReceipt(join(dir, 'plain', 'receipt.json'), { ...evidencePair(), quality: null });
    expect(plain.receipt.factSetVersion).toBe(3);
    const { signatures: _s, ...set3 } = JSON.parse(plain.text) as Doc;
    const claimed = await recomputeReceipt(JSON.stringify({ ...set3, factSetVersion: 2 }), join(dir, 'plain'), today);
    expect(claimed.ok ? [] : claimed.refusals.map((x) => [x.field, x.rule])).toEqual([['factSetVersion', 'stated-equals-recomputed']]);
  });
});
