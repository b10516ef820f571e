/**
 * End to end, as a user does it, over loopback only: two simulators (the
 * baseline, and an "optimized" one that decodes twice as fast with some
 * quantization noise) → `goodput run` of one contract against each → `goodput
 * quality` of the two runs → `goodput receipt create` → `goodput publish`. The quality score
 * must sit below 1 and above a floor, and the measured speedup (TPOT p50 at
 * concurrency 1) must match the simulators' profiles. Every process and wait
 * is bounded; timing-sensitive, so it runs in the sequential timing pass.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGoodput } from '../test-support/goodput-process.js';
import { expectOk, useSimulatorPair, writeReceiptContract } from '../test-support/receipt-contracts.js';
import { receiptSchema } from './receipt-schema.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

/** Decode step of each simulator, ms: the optimized one is twice as fast. */
const BASELINE_STEP_MS = 8;
const OPTIMIZED_STEP_MS = 4;
const NOISE = 0.2;
/** Noise 0.1 scores about 0.995 and 0.5 about 0.91; 0.2 must land between 0.95 and 1. */
const QUALITY_FLOOR = 0.95;
const SPEEDUP_TOLERANCE = 0.15;

const dir = mkdtempSync(join(tmpdir(), 'goodput-receipt-e2e-'));

const contractFile = (name: string, url: string, quantization: string) =>
  writeReceiptContract(dir, name, url, quantization, { promptTokens: 32, outputTokens: 32, ttftSloMs: 500 });

const sims = useSimulatorPair(BASELINE_STEP_MS, OPTIMIZED_STEP_MS, NOISE);

describe('two runs → quality → receipt → publish', () => {
  it(
    'publishes a receipt whose quality and speedup match the simulators',
    async () => {
      const b = join(dir, 'baseline.json');
      const o = join(dir, 'optimized.json');
      expectOk(await runGoodput(['run', contractFile('baseline', sims.baseline().url, 'none'), '--json', b], {}, 90_000), 'baseline run');
      expectOk(await runGoodput(['run', contractFile('optimized', sims.optimized().url, 'fp8'), '--json', o], {}, 90_000), 'optimized run');
      const q = join(dir, 'quality.json');
      // A receipt takes a score only with the runs it belongs to: named by their result files.
      expectOk(
        await runGoodput(
          ['quality', '--baseline', sims.baseline().url, '--candidate', sims.optimized().url, '--baseline-run', b, '--candidate-run', o, '--json', q],
          {},
          90_000,
        ),
        'quality',
      );
      const r = join(dir, 'receipts', 'receipt.json');
      expectOk(
        await runGoodput(['receipt', 'create', '--baseline', b, '--optimized', o, '--quality', q, '--method', 'FP8 quantization, faster decode', '--out', r]),
        'receipt',
      );
      const prices = join(dir, 'prices.yaml');
      writeFileSync(
        prices,
        'tokenPrices:\n  - { provider: Example Cloud, model: example-model, inputUsdPer1M: 0.2, outputUsdPer1M: 0.6, sourceUrl: "https://example.com/pricing", asOf: 2026-06-01 }\n',
      );
      const site = join(dir, 'site');
      expectOk(await runGoodput(['publish', '--receipts', join(dir, 'receipts'), '--prices', prices, '--out', site]), 'publish');

      const receipt = receiptSchema.parse(JSON.parse(readFileSync(r, 'utf8')));
      const value = (id: string) => receipt.facts.find((f) => f.id === id)?.value ?? null;
      const quality = value('optimized.quality');
      expect(quality).toBeLessThan(1);
      expect(quality).toBeGreaterThan(QUALITY_FLOOR);

      const expected = BASELINE_STEP_MS / OPTIMIZED_STEP_MS;
      // A concurrency-1 level our client bound on (a loaded machine) is not recorded, and the receipt says so: the
      // wall clock's doing, a missed bound here (strict in the bench), never a number made up.
      for (const id of ['baseline.tpotSingle', 'optimized.tpotSingle']) {
        const fact = receipt.facts.find((f) => f.id === id);
        if (fact?.value === null) expect(fact.note, id).toMatch(/client-bound/);
        wallClock(fact?.value === null ? 'not recorded: client-bound' : 'recorded', `${id} recorded`).toBe('recorded');
      }
      const measured = (value('baseline.tpotSingle') ?? NaN) / (value('optimized.tpotSingle') ?? NaN);
      console.log(
        `e2e: quality ${quality}; TPOT p50 speedup measured ${measured.toFixed(3)} vs expected ${expected}; peak ${value('baseline.peakThroughput')} → ${value('optimized.peakThroughput')} tok/s`,
      );
      if (!Number.isNaN(measured))
        wallClock(Math.abs(measured / expected - 1), `TPOT p50 speedup ${measured.toFixed(3)} against ${expected}`).toBeLessThan(SPEEDUP_TOLERANCE);
      wallClock(
        (value('optimized.peakThroughput') as number) / (value('baseline.peakThroughput') as number),
        'optimized over baseline peak throughput',
      ).toBeGreaterThan(1.3);

      expect(receipt.limitations.some((l) => /goodput simulator, not a real GPU/.test(l))).toBe(true);
      expect(existsSync(join(site, `${receipt.id}.html`)) && existsSync(join(site, `${receipt.id}.png`))).toBe(true);
      const dataset = readFileSync(join(site, 'dataset.json'), 'utf8');
      expect(dataset).not.toMatch(/127\.0\.0\.1|localhost/);
      expect(dataset).toContain(`"id": "${receipt.id}/optimized.quality"`);
    },
    patient(300_000),
  );
});
