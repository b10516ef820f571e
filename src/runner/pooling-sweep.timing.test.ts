/**
 * Wall-clock accuracy of a non-streaming sweep against the simulator's encoder
 * schedule (one request at a time, `msPerInputToken` each token): the timing
 * pass only, never npm test. The simulator runs in its own process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

// 2,048 tokens take 102 ms: a closed loop's turn-around between requests (under 1 ms on loopback) stays
// well inside the allowance at concurrency 1, where the encoder idles while the next request is on its way.
const MS_PER_TOKEN = 0.05;
let sim: SimProcess;
// In its own process, as a real server is: the answers' JSON is built on another event loop than the one timing them.
beforeAll(async () => {
  sim = await spawnSimProcess(['--embedding-dimension', '384', '--pooling-ms-per-token', String(MS_PER_TOKEN)]);
});
afterAll(async () => {
  await sim.stop();
});

describe("pooling sweep against the simulator's schedule", () => {
  it('embeddings at 1,2,4,8 with 16 inputs of 128 tokens: input tokens/s within 5 % of 1000 / msPerInputToken', async () => {
    const r = await runSweep({ url: sim.url, endpoint: 'embeddings', levels: [1, 2, 4, 8], itemsPerRequest: 16, itemTokens: 128 });
    const truth = 1000 / MS_PER_TOKEN;
    for (const l of r.levels) {
      expect(l.failed).toBe(0);
      wallClock(Math.abs((l.inputTokensPerS as number) / truth - 1), `concurrency ${l.concurrency}: ${l.inputTokensPerS} tok/s`).toBeLessThan(0.05);
    }
  });

  it('rerank with 32 documents: documents/s within 5 % of the schedule', async () => {
    const q = 16;
    const d = 64;
    const r = await runSweep({ url: sim.url, endpoint: 'rerank', levels: [1, 4], itemsPerRequest: 32, itemTokens: d, queryTokens: q });
    const truth = 1000 / ((q + d) * MS_PER_TOKEN);
    for (const l of r.levels) {
      expect(l.failed).toBe(0);
      wallClock(Math.abs((l.itemsPerS as number) / truth - 1), `concurrency ${l.concurrency}: ${l.itemsPerS} documents/s`).toBeLessThan(0.05);
    }
  });

  it('embeddings at 2,4,8 over 2 client threads: the merged levels hold the same schedule within 5 %', async () => {
    const r = await runSweep({ url: sim.url, endpoint: 'embeddings', levels: [2, 4, 8], itemsPerRequest: 16, itemTokens: 128, clientThreads: 2 });
    const truth = 1000 / MS_PER_TOKEN;
    for (const l of r.levels) {
      expect(l.failed).toBe(0);
      wallClock(Math.abs((l.inputTokensPerS as number) / truth - 1), `concurrency ${l.concurrency}: ${l.inputTokensPerS} tok/s`).toBeLessThan(0.05);
    }
    wallClock(
      r.warnings.filter((w) => w.code === 'client-bound').map((w) => w.message),
      'client-bound warnings',
    ).toEqual([]);
  });
});
