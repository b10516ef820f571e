/**
 * The other half of the burst check (burst-check.test.ts): the same level,
 * unloaded, is not flagged. A burst of 8 sends is written within a few ms on a
 * quiet machine, against a 25 ms budget; on a loaded one it need not be, so this
 * runs in the timing pass, not in npm test.
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const sim = useSimulators({ prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, port: 0 });
const spec = {
  outputTokens: 8,
  promptTokens: 16,
  requestsPerLevel: 16,
  warmup: 1,
  levels: [8],
  clientBudgetMs: 25,
  serverMetrics: false,
  gpuSource: 'none' as const,
};

describe('the burst check, unloaded', () => {
  it('does not flag a burst of 8 that nothing held up', async () => {
    const s = await sim();
    const calm = (await runSweep({ ...spec, url: s.url, clientThreads: 1 })).levels[0]?.clientBound;
    expect(calm?.sendLatenessMs).not.toBeNull();
    wallClock(calm?.sendLatenessMs?.p99, 'unloaded burst send lateness p99 (ms)').toBeLessThan(25);
    wallClock(calm?.reason ?? '', 'unloaded burst verdict').not.toMatch(/fully written/);
  });
});
