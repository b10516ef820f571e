/**
 * Capacity at SLO against a simulator with a known knee: 6 sequences run at
 * once (maxBatch 6), so from 7 streams on a request queues for a whole request
 * (~210 ms) before its prefill. TTFT is 50 ms up to the knee; the SLO asks
 * TTFT p95 ≤ 130 ms. The coarse sweep 2, 4, 8, 16 brackets the knee between 4
 * and 8; bisection must end within one step of 6, with the evidence measured
 * on both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { findCapacity } from './capacity.js';
import { wallClock } from '../test-support/wall-clock.js';

const KNEE = 6;
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess([
    '--max-batch',
    String(KNEE),
    '--prefill-base-ms',
    '50',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '10',
    '--decode-ms-per-extra-seq',
    '0',
    '--no-prefix-caching',
  ]);
});
afterAll(async () => {
  await sim.stop();
});

describe('capacity at SLO', () => {
  it('finds the knee within one bisection step and reports the evidence on both sides', async () => {
    const slo = { ttftMs: { p: 95, max: 130 } };
    const report = await findCapacity({
      coarse: [2, 4, 8, 16],
      specFor: async (level) => ({ url: sim.url, levels: [level], outputTokens: 16, promptTokens: 8, warmup: 1, slo }),
    });
    // Which levels hold depends on measured TTFT; that the search probes the coarse list in order and its evidence is its own does not.
    expect(report.probes.slice(0, 2).map((p) => [p.phase, p.level])).toEqual([
      ['coarse', 2],
      ['coarse', 4],
    ]);
    expect(report.evidence.below?.concurrency).toBe(report.capacity ?? undefined);
    wallClock(report.verdict, 'verdict').toBe('found');
    wallClock(report.stepSize, 'step size').toBe(1);
    wallClock(Math.abs((report.capacity ?? 0) - KNEE), 'distance of the capacity from the knee').toBeLessThanOrEqual(report.stepSize ?? 0);
    wallClock(
      report.probes.map((p) => [p.phase, p.level, p.holds]),
      'probes',
    ).toEqual([
      ['coarse', 2, true],
      ['coarse', 4, true],
      ['coarse', 8, false],
      ['bisect', 6, true],
      ['bisect', 7, false],
    ]);
    wallClock(report.evidence.below?.goodput?.holds, 'SLO holds below').toBe(true);
    wallClock(report.evidence.above?.goodput?.checks[0]?.holds, 'SLO misses above').toBe(false);
    wallClock(report.statement, 'statement').toMatch(/^capacity at SLO \(TTFT p95 ≤ 130 ms\): 6 streams; 7 streams misses \(ttftMs p95 \d+/);
  });
});
