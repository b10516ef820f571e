/**
 * The client budget scales with what a lateness distorts, end to end: every
 * send is held 15 ms on purpose (an async wait, so the event loop stays free).
 * Against a slow server (TTFT about 1 s, TPOT 134 ms) that lateness is 1.5 % of
 * the TTFT, under its 5 % send budget, so it binds no level; against a fast one
 * (TTFT about 40 ms) the same lateness passes the 10 ms floor and does. The
 * hold is a lower bound no machine can break; the loop delay's own verdict on a
 * loaded machine is left to the timing pass (client-budget.timing.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { heldClient } from '../test-support/held-client.js';
import { runSweep } from './run-kinds.js';

const sim = useSimulators({ prefillMsPerToken: 0, decodeMsPerExtraSeq: 0, port: 0 });
const spec = { outputTokens: 3, promptTokens: 16, requestsPerLevel: 2, warmup: 0, levels: [1, 2], serverMetrics: false, gpuSource: 'none' as const };
const HOLD_MS = 15;

describe("the client budget, relative to the level's own timings", () => {
  it('15 ms of send lateness binds no level of a server with a 1 s TTFT', async () => {
    const s = await sim({ prefillBaseMs: 1000, decodeStepMs: 134 });
    const result = await runSweep({ ...spec, url: s.url }, { client: heldClient(s.url, HOLD_MS) });
    for (const l of result.levels) {
      const cb = l.clientBound;
      // The hold is a timer: libuv's millisecond clock may fire it up to 1 ms early (seen: 14.73 ms for 15).
      expect(cb.sendLatenessMs?.p99).toBeGreaterThanOrEqual(HOLD_MS - 1);
      expect(l.ttftMs?.p50).toBeGreaterThanOrEqual(1000);
      expect(cb.budgets?.sendMs).toBeGreaterThanOrEqual(50);
      expect(cb.reason ?? '').not.toMatch(/fully written|replacement requests/);
    }
  });

  it('the same lateness binds a server with a 40 ms TTFT, the reason stating the floor', async () => {
    const s = await sim({ prefillBaseMs: 40, decodeStepMs: 8 });
    const result = await runSweep({ ...spec, url: s.url }, { client: heldClient(s.url, HOLD_MS) });
    for (const l of result.levels) {
      expect(l.clientBound.bound).toBe(true);
      expect(l.clientBound.reason).toMatch(/fully written \d+\.\d ms .*; budget for sends 10 ms \(the floor\)/);
    }
    expect(result.cards.engine.peakThroughputTokS).toBeNull();
  });
});
