/**
 * goodput utilisation as a user runs it: a sweep measures a simulator of known
 * capacity (4 sequences at 10 ms per token: 400 tok/s), a trace at half the
 * measured peak is replayed against it, and the utilisation comes out 0.5 ± 0.05
 * with the cost per successful 1M tokens matching the formula to the cent. A
 * capacity file whose figures were edited, or that comes without its records,
 * is refused before anything is sent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-utilisation-'));
const cap = join(dir, 'capacity.json');
const capRaw = join(dir, 'capacity.jsonl');
const OUTPUT = 50;

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--max-batch',
    '4',
    '--decode-step-ms',
    '10',
    '--decode-ms-per-extra-seq',
    '0',
    '--prefill-base-ms',
    '5',
    '--prefill-ms-per-token',
    '0',
  ]);
  const sweep = await runGoodput(
    [
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '2,4,8',
      '--output-tokens',
      String(OUTPUT),
      '--prompt-tokens',
      '16',
      '--requests-per-level',
      '24',
      '--json',
      cap,
      '--raw',
      capRaw,
      '--no-save',
    ],
    {},
    120_000,
  );
  expect(sweep.code).toBe(0);
}, patient(150_000));
afterAll(async () => {
  await sim?.stop();
});

describe('goodput utilisation', () => {
  it(
    'measures 0.5 ± 0.05 for a trace at half the measured capacity, and costs it to the cent',
    async () => {
      // The measured capacity is the peak over levels that count (valid and not client-bound), as the Engine card's is:
      // on a busy machine the fastest level can be client-bound, and then it is not the capacity.
      const peak = sweepResultSchema.parse(JSON.parse(readFileSync(cap, 'utf8'))).cards.engine.peakThroughputTokS as number;
      expect(peak).toBeGreaterThan(0);
      const rate = peak / 2 / OUTPUT;
      const trace = join(dir, 'half.jsonl');
      writeFileSync(
        trace,
        Array.from({ length: Math.round(rate * 15) }, (_, i) => JSON.stringify({ t: i / rate, promptTokens: 16, outputTokens: OUTPUT })).join('\n') + '\n',
      );
      const report = join(dir, 'report.json');
      const r = await runGoodput(
        ['utilisation', trace, '--capacity', cap, '--capacity-raw', capRaw, '--url', sim.url, '--hourly-cost', '6.50', '--report', report, '--no-save'],
        {},
        120_000,
      );
      expect(r.code).toBe(0);
      const rep = JSON.parse(readFileSync(report, 'utf8')) as {
        utilisation: number;
        provenance: string;
        servedTokS: number;
        successShare: number;
        capacity: { tokS: number; file: string; level: string };
        trace: { sha256: string };
        cost: { costPer1MSuccessfulUsd: number };
        series: unknown[];
      };
      expect(rep.provenance).toBe('measured');
      expect(rep.utilisation).toBeGreaterThan(0.45);
      expect(rep.utilisation).toBeLessThan(0.55);
      expect(rep.capacity).toMatchObject({ file: 'capacity.json' });
      expect(rep.capacity.tokS).toBeCloseTo(peak, 6);
      expect(rep.utilisation).toBeCloseTo(rep.servedTokS / rep.capacity.tokS, 12);
      const formula = (6.5 / (rep.capacity.tokS * rep.utilisation * rep.successShare * 3600)) * 1e6;
      expect(rep.cost.costPer1MSuccessfulUsd.toFixed(2)).toBe(formula.toFixed(2));
      expect(r.stdout).toContain(`Cost per successful 1M output tokens: $${formula.toFixed(2)} = $6.50/h / (`);
      expect(r.stdout).toMatch(/Utilisation 0\.\d{3} \(measured\): served [\d,.]+ tok\/s over the replay of half\.jsonl \(sha256 [0-9a-f]{12}…\)/);
      expect(r.stdout).toMatch(/\n {2}tok\/s {6}[▁▂▃▄▅▆▇█]{60} {2}peak/);
      expect(rep.series).toHaveLength(60);
    },
    patient(150_000),
  );

  it(
    'refuses a capacity file whose throughput was edited, naming the level and field',
    async () => {
      const forged = JSON.parse(readFileSync(cap, 'utf8')) as { levels: Array<{ throughputTokS: number }> };
      (forged.levels[1] as { throughputTokS: number }).throughputTokS *= 2;
      const path = join(dir, 'forged.json');
      writeFileSync(path, JSON.stringify(forged));
      const r = await runGoodput(['utilisation', join(dir, 'half.jsonl'), '--capacity', path, '--capacity-raw', capRaw, '--url', sim.url, '--no-save']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/forged\.json: levels\[c=4\]\.throughputTokS states [\d.]+, its records give [\d.]+/);
      expect(r.stderr).not.toMatch(/trace /);
    },
    patient(60_000),
  );

  it(
    'refuses raw records past the record bounds (1e9 tokens per chunk) naming the line, before computing on them',
    async () => {
      const lines = readFileSync(capRaw, 'utf8').trim().split('\n');
      const forged = join(dir, 'forged-raw.jsonl');
      writeFileSync(
        forged,
        lines.map((l, i) => (i === 5 ? JSON.stringify({ ...JSON.parse(l), chunkTokens: [1e9, 1e9], chunkNs: [1, 2] }) : l)).join('\n') + '\n',
      );
      const r = await runGoodput(['utilisation', join(dir, 'half.jsonl'), '--capacity', cap, '--capacity-raw', forged, '--url', sim.url, '--no-save']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/forged-raw\.jsonl:6: not a request record: chunkTokens\.0: must be at most 66561/);
    },
    patient(60_000),
  );

  it(
    'refuses a capacity file without its records',
    async () => {
      const r = await runGoodput(['utilisation', join(dir, 'half.jsonl'), '--capacity', cap, '--url', sim.url, '--no-save']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--capacity: ${cap} carries no raw records; give them with --capacity-raw (the sweep's --raw file)`);
    },
    patient(60_000),
  );

  it(
    "takes the hourly cost from a contract run's priced hardware, with the measured utilisation in place of the declared one",
    async () => {
      const contract = join(dir, 'capacity.yaml');
      writeFileSync(
        contract,
        [
          'version: 1',
          `server: { url: "${sim.url}" }`,
          'model: { name: goodput-sim-1, revision: sim-1, tokenizer: { kind: server }, precision: bf16, quantization: none }',
          `workload: { prompts: { kind: synthetic, tokens: 16 }, outputTokens: ${OUTPUT}, requestsPerLevel: 16, warmup: 1 }`,
          'load: { levels: [2, 4] }',
          'slo: { ttftMs: { p: 95, max: 5000 } }',
          'hardware: { label: SimGPU, gpuHourlyUsd: 6.5, priceAsOf: "2026-11-01", utilisation: 0.9, utilisationAsOf: "2026-10-01", overheads: [{ name: CPU, usdPerHour: 0.3, asOf: "2026-11-02" }] }',
        ].join('\n'),
      );
      const capJson = join(dir, 'contract-capacity.json');
      const run = await runGoodput(['run', contract, '--json', capJson, '--no-save'], {}, 120_000);
      expect(run.code).toBe(0);
      // The plumbing of prices, not the accuracy (above): a few seconds of the same trace.
      const short = join(dir, 'short.jsonl');
      writeFileSync(short, Array.from({ length: 12 }, (_, i) => JSON.stringify({ t: i / 4, promptTokens: 16, outputTokens: OUTPUT })).join('\n'));
      const report = join(dir, 'contract-report.json');
      const r = await runGoodput(['utilisation', short, '--capacity', capJson, '--url', sim.url, '--report', report, '--no-save'], {}, 120_000);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("hourly cost from the capacity run's contract: GPU: SimGPU $6.50/h (2026-11-01) + overhead: CPU $0.30/h (2026-11-02)");
      expect(r.stdout).toContain('the contract declares utilisation 0.9 (2026-10-01); the measured one is used here');
      const rep = JSON.parse(readFileSync(report, 'utf8')) as {
        utilisation: number;
        successShare: number;
        capacity: { tokS: number };
        cost: { costPer1MSuccessfulUsd: number; inputs: Array<{ name: string; value: number; asOf: string }> };
      };
      const u = rep.cost.inputs.find((i) => i.name === 'utilisation (measured)');
      expect(u?.value).toBeCloseTo(Math.min(1, rep.utilisation), 12);
      expect(u?.asOf).toMatch(/^replay of short\.jsonl \(sha256 [0-9a-f]{12}…\) against contract-capacity\.json, \d{4}-\d{2}-\d{2}$/);
      expect(rep.cost.costPer1MSuccessfulUsd.toFixed(2)).toBe(
        ((6.8 / (rep.capacity.tokS * Math.min(1, rep.utilisation) * rep.successShare * 3600)) * 1e6).toFixed(2),
      );
      // The contract inside the capacity file is checked against its hash: an edited price is refused.
      const forged = JSON.parse(readFileSync(capJson, 'utf8')) as { contract: { hardware: { gpuHourlyUsd: number } } };
      forged.contract.hardware.gpuHourlyUsd = 0.5;
      const forgedPath = join(dir, 'contract-forged.json');
      writeFileSync(forgedPath, JSON.stringify(forged));
      const refused = await runGoodput(['utilisation', short, '--capacity', forgedPath, '--url', sim.url, '--no-save']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/contract-forged\.json: contractHash states [0-9a-f]{64}, its contract hashes to [0-9a-f]{64}; the contract was edited/);
    },
    patient(240_000),
  );
});
