/**
 * Poisson arrivals on the wire: 2,000 requests at 100 req/s against the
 * simulator (its own process). The schedule itself is checked exactly in
 * workload/arrival.test.ts; here the actual send instants must keep its shape:
 * inter-arrival mean 10 ms and coefficient of variation 1, each within 5% —
 * unless our own client fell behind its schedule, which the level must then
 * say (client-bound): a stalled event loop sends late requests in a burst.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const RATE = 100;
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim.stop();
});

describe('Poisson arrivals, as sent', () => {
  it('2,000 inter-arrival gaps: mean and CV within 5% of the target', async () => {
    let records: RequestRecord[] = [];
    const result = await runSweep(
      {
        url: sim.url,
        levels: [RATE],
        arrival: { kind: 'rate', process: 'poisson', seed: 11 },
        requestsPerLevel: 2001,
        outputTokens: 4,
        promptTokens: 4,
        warmup: 1,
        serverMetrics: false,
      },
      {
        onEvent: (e) => {
          if (e.kind === 'level-end') records = [...e.records];
        },
      },
    );
    const sends = records
      .filter((r) => !r.warmup)
      .map((r) => r.sendNs)
      .sort((a, b) => a - b);
    const gaps = sends.slice(1).map((t, i) => (t - (sends[i] as number)) / 1e6);
    expect(gaps).toHaveLength(2000);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const cv = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length) / mean;
    const level = result.levels[0];
    expect(level?.failed).toBe(0);
    wallClock(Math.abs(mean - 1000 / RATE) / (1000 / RATE), `mean gap ${mean.toFixed(3)} ms`).toBeLessThan(0.05);
    if (Math.abs(cv - 1) >= 0.05) wallClock(level?.clientBound.bound, `CV ${cv.toFixed(3)} without a client-bound mark`).toBe(true);
    wallClock(result.levels[0]?.load?.waitedForSlot, 'arrivals that waited for a slot').toBe(0);
  });
});
