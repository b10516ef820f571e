/**
 * Wall-clock half of workers-pooling.test.ts: an embeddings sweep over two
 * `goodput worker` processes gives the requests per second one process does,
 * within 5 % at every level, against the simulator's encoder schedule (one
 * request at a time, `msPerInputToken` each token: the server, not the client,
 * sets the rate). The figures are printed for the record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolingResult } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { useWorkerFleet } from '../test-support/worker-fleet.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

// 16 inputs of 128 tokens take 102 ms on the encoder: a level's rate is the server's, ~9.8 requests/s.
const MS_PER_TOKEN = 0.05;
const fleet = useWorkerFleet(['t1', 't2']);
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--embedding-dimension', '384', '--pooling-ms-per-token', String(MS_PER_TOKEN)]);
}, patient(60_000));
afterAll(async () => {
  await sim?.stop();
});

const SWEEP = [
  '--endpoint',
  'embeddings',
  '--batch-size',
  '16',
  '--prompt-tokens',
  '128',
  '--levels',
  '2,4,8',
  '--client-budget-ms',
  '1000',
  '--json',
  '-',
  '--no-save',
];

async function sweep(extra: readonly string[]): Promise<PoolingResult> {
  const r = await runGoodput(['sweep', '--url', sim.url, ...SWEEP, ...extra], {}, 180_000);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as PoolingResult;
}

describe('pooling over workers, timing', () => {
  it(
    'embeddings at 2, 4, 8 over two workers: requests/s within 5 % of one process at every level',
    async () => {
      const one = await sweep([]);
      const two = await sweep(['--workers', '2', '--database-url', fleet.db(), '--workers-wait', '30']);
      expect(two.levels.map((l) => [l.concurrency, l.failed])).toEqual([
        [2, 0],
        [4, 0],
        [8, 0],
      ]);
      for (const [i, l] of two.levels.entries()) {
        const single = one.levels[i];
        expect(l.requests).toBe(single?.requests);
        const ratio = (l.requestsPerS as number) / (single?.requestsPerS as number);
        process.stderr.write(
          `embeddings at ${l.concurrency}: one process ${single?.requestsPerS?.toFixed(3)} requests/s, 2 workers ${l.requestsPerS?.toFixed(3)} (ratio ${ratio.toFixed(4)})\n`,
        );
        wallClock(Math.abs(ratio - 1), `requests/s at ${l.concurrency}: 2 workers vs one process, ratio ${ratio}`).toBeLessThan(0.05);
      }
    },
    patient(300_000),
  );
});
