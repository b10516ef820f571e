/**
 * The other half of client-budget.test.ts: on a quiet machine, a sweep against
 * a server with a 1 s TTFT and a 134 ms TPOT, every send held 15 ms, is not
 * client-bound at all and has its peak. That our event loop stays under its
 * 10 ms budget meanwhile is a wall-clock property, so this runs in the timing pass.
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { heldClient } from '../test-support/held-client.js';
import { runSweep } from './sweep.js';

const sim = useSimulators({ prefillBaseMs: 1000, decodeStepMs: 134, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0, port: 0 });

describe('the client budget on a slow server, unloaded', () => {
  it('15 ms of send lateness leaves every level counted and the sweep its peak', async () => {
    const s = await sim();
    const result = await runSweep({ url: s.url, outputTokens: 3, promptTokens: 16, requestsPerLevel: 2, warmup: 0, levels: [1, 2], serverMetrics: false, gpuSource: 'none' }, { client: heldClient(s.url, 15) });
    for (const l of result.levels) expect(l.clientBound).toMatchObject({ bound: false, reason: null });
    expect(result.cards.engine.peakThroughputTokS).not.toBeNull();
    expect(result.cards.engine.excluded).toEqual([]);
  });
});
