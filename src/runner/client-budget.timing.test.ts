/**
 * The other half of client-budget.test.ts: on a quiet machine, a sweep against
 * a server with a 1 s TTFT and a 134 ms TPOT, every send held 15 ms, is not
 * client-bound at all and has its peak. That our event loop stays under its
 * 10 ms budget meanwhile is a wall-clock property, so this runs in the timing pass.
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { heldClient } from '../test-support/held-client.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const sim = useSimulators({ prefillBaseMs: 1000, decodeStepMs: 134, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0, port: 0 });

describe('the client budget on a slow server, unloaded', () => {
  it('15 ms of send lateness leaves every level counted and the sweep its peak', async () => {
    const s = await sim();
    const result = await runSweep(
      { url: s.url, outputTokens: 3, promptTokens: 16, requestsPerLevel: 2, warmup: 0, levels: [1, 2], serverMetrics: false, gpuSource: 'none' },
      { client: heldClient(s.url, 15) },
    );
    expect(result.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([
      [1, 2, 0],
      [2, 2, 0],
    ]);
    // Held sends never bind these levels (the send budget is 5 % of a 1 s TTFT); the event loop's delay is the machine's.
    for (const l of result.levels) expect(l.clientBound.reason ?? '').not.toMatch(/fully written|after the slot freed/);
    for (const l of result.levels) wallClock(l.clientBound.bound, `level ${l.concurrency} client-bound: ${l.clientBound.reason}`).toBe(false);
    wallClock(result.cards.engine.peakThroughputTokS !== null, 'the sweep has a peak').toBe(true);
    wallClock(result.cards.engine.excluded, 'levels left out of the peak').toEqual([]);
  });
});
