/**
 * The self-check sees bursts: a level whose sends are held up on purpose (the
 * sending thread blocked 50 ms in the middle of its initial burst) is marked
 * client-bound by its send lateness, the lateness named in the reason. The
 * block alone puts the late sends at 50 ms or more, a lower bound no machine
 * can break; that the same level unloaded is not flagged is a wall-clock
 * property, checked in the timing pass (burst-check.timing.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { type StreamingClient, createStreamingClient } from '../client/index.js';
import { runSweep } from './run-kinds.js';

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

/** Blocks this thread for `ms` (a busy wait: nothing else runs meanwhile). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* held on purpose */
  }
}

describe('the burst check', () => {
  it('flags a level whose thread was blocked 50 ms during the burst, with the lateness', async () => {
    const s = await sim();
    let measured = 0;
    const result = await runSweep(
      { ...spec, url: s.url },
      {
        client: (_spec, connections, dialect) => {
          const real = createStreamingClient({ baseUrl: s.url }, { connections, dialect });
          const held: StreamingClient = {
            ...real,
            send: (req, meta, signal) => {
              // The third send of the burst: the rest of the burst waits behind this thread.
              if (!meta.warmup && ++measured === 3) block(50);
              return real.send(req, meta, signal);
            },
          };
          return held;
        },
      },
    );
    const held = result.levels[0]?.clientBound;
    expect(held?.bound).toBe(true);
    expect(held?.sendLatenessMs?.p99).toBeGreaterThanOrEqual(50);
    expect(held?.reason).toMatch(/requests were fully written (\d+\.\d) ms \(p99, max \d+\.\d ms\) after their slot freed or their scheduled instant/);
    expect(Number(/fully written (\d+\.\d) ms/.exec(held?.reason ?? '')?.[1])).toBeGreaterThanOrEqual(50);
  });
});
