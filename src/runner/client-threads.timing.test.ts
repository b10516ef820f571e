/**
 * Wall-clock half of client-threads.test.ts: a level split over two threads
 * measures what one thread measures, its TTFT and TPOT p50 within 10 % on a
 * schedule whose 10 % is several ms, and an open loop split over two threads
 * leaves on its schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { type SweepSpecInput, runSweep } from './index.js';
import { wallClock } from '../test-support/wall-clock.js';

const SCHEDULE = ['--prefill-base-ms', '80', '--prefill-ms-per-token', '0', '--decode-step-ms', '20', '--decode-ms-per-extra-seq', '0'];
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(SCHEDULE);
});
afterAll(async () => {
  await sim.stop();
});

const base = (): SweepSpecInput => ({
  url: sim.url,
  levels: [4, 8],
  outputTokens: 16,
  promptTokens: 64,
  requestsPerLevel: 24,
  serverMetrics: false,
  gpuSource: 'none',
});
const within10 = (a: number | undefined, b: number | undefined, what: string) =>
  wallClock(Math.abs((a as number) - (b as number)) / (b as number), `${what}: ${a} vs ${b}`).toBeLessThan(0.1);

describe('client threads timing', () => {
  it('two threads measure what one does: TTFT/TPOT p50 within 10 %', async () => {
    const one = await runSweep({ ...base(), clientThreads: 1 });
    const two = await runSweep({ ...base(), clientThreads: 2 });
    expect(two.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([
      [4, 24, 0],
      [8, 24, 0],
    ]);
    expect(two.levels.map((l) => l.outputTokensTotal)).toEqual(one.levels.map((l) => l.outputTokensTotal));
    for (const [i, l] of two.levels.entries()) {
      within10(l.ttftMs?.p50, one.levels[i]?.ttftMs?.p50, `TTFT p50 at ${l.concurrency}`);
      within10(l.tpotMs?.p50, one.levels[i]?.tpotMs?.p50, `TPOT p50 at ${l.concurrency}`);
    }
  });

  it('an open loop over two threads leaves on its schedule', async () => {
    const r = await runSweep({ ...base(), levels: [40], arrival: { kind: 'rate', process: 'constant' }, requestsPerLevel: 40, clientThreads: 2 });
    expect([r.levels[0]?.requests, r.levels[0]?.failed]).toEqual([40, 0]);
    wallClock(r.levels[0]?.load?.scheduleLagMs?.p50, 'schedule lag p50 (ms)').toBeLessThan(50);
  });
});
