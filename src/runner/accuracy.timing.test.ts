/**
 * Accuracy with tolerances, not a timing race: against the simulator in its own
 * process with a fixed schedule (200 ms prefill, 20 ms per token, no batching
 * slowdown), measured TTFT p50 and TPOT p50 stay within 2% of the schedule from
 * 1 to 256 concurrent streams. The schedule is slow on purpose so that a loaded
 * 2-core machine's loopback and wake-up latency (~1 ms) stays well inside 2%.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const PREFILL_MS = 200;
const STEP_MS = 20;
let sim: SimProcess;

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    String(PREFILL_MS),
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    String(STEP_MS),
    '--decode-ms-per-extra-seq',
    '0',
    '--max-batch',
    '1024',
    '--no-prefix-caching',
    '--natural-min',
    '24',
    '--natural-max',
    '48',
  ]);
});
afterAll(async () => {
  await sim.stop();
});

describe('client accuracy against a known schedule', () => {
  it('TTFT p50 and TPOT p50 within 2% at concurrency 1, 16, 64 and 256', async () => {
    // Natural (unforced) lengths: streams end at different moments, so arrivals are not synchronized waves.
    const result = await runSweep({
      url: sim.url,
      levels: [1, 16, 64, 256],
      outputTokens: 48,
      forceLength: false,
      promptTokens: 16,
      requestsPerLevel: 'auto',
      warmup: 1,
    });
    expect(result.levels.map((l) => l.concurrency)).toEqual([1, 16, 64, 256]);
    for (const l of result.levels) {
      expect(l.failed, `failures at c=${l.concurrency}`).toBe(0);
      const ttft = l.ttftMs?.p50 ?? NaN;
      const tpot = l.tpotMs?.p50 ?? NaN;
      wallClock(Math.abs(ttft - PREFILL_MS) / PREFILL_MS, `TTFT p50 ${ttft} ms at c=${l.concurrency}`).toBeLessThan(0.02);
      wallClock(Math.abs(tpot - STEP_MS) / STEP_MS, `TPOT p50 ${tpot} ms at c=${l.concurrency}`).toBeLessThan(0.02);
      // ITL per token matches TPOT here (one token per chunk).
      wallClock(Math.abs((l.itlMs?.p50 ?? NaN) - STEP_MS) / STEP_MS, `ITL p50 at c=${l.concurrency}`).toBeLessThan(0.02);
    }
  });
});
