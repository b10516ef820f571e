/**
 * The Messages API is measured by the chat endpoint's rules: on the same simulator schedule (in its own
 * process, 100 ms prefill, 10 ms per token, no batching slowdown, 32-token answers, the length not forced since
 * the Messages API cannot force it), --endpoint messages gives TTFT p50 and
 * TPOT p50 within 5 % of --endpoint chat, and counts the same output tokens from its usage events. The
 * figures rest on the wall clock, so the bounds are wall-clock verdicts (strict in npm run bench).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const PREFILL_MS = 100;
const STEP_MS = 10;
let sim: SimProcess;

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    String(PREFILL_MS),
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    String(STEP_MS),
    '--decode-ms-per-extra-seq',
    '0',
    '--no-prefix-caching',
    '--natural-min',
    '32',
    '--natural-max',
    '32',
  ]);
});
afterAll(async () => {
  await sim.stop();
});

describe('--endpoint messages against chat on the same schedule', () => {
  it('TTFT p50 and TPOT p50 within 5 %, the same output tokens', async () => {
    const spec = {
      url: sim.url,
      levels: [1, 4],
      outputTokens: 32,
      forceLength: false,
      promptTokens: 16,
      requestsPerLevel: 8 as const,
      warmup: 1,
      serverMetrics: false,
    };
    const chat = await runSweep({ ...spec, endpoint: 'chat' });
    const messages = await runSweep({ ...spec, endpoint: 'messages' });
    expect(messages.run.endpoint).toBe('messages');
    for (const [i, m] of messages.levels.entries()) {
      const c = chat.levels[i];
      expect(m.failed, `failures at c=${m.concurrency}`).toBe(0);
      expect(m.outputTokensTotal).toBe(c?.outputTokensTotal);
      const [ttftM, ttftC] = [m.ttftMs?.p50 ?? NaN, c?.ttftMs?.p50 ?? NaN];
      const [tpotM, tpotC] = [m.tpotMs?.p50 ?? NaN, c?.tpotMs?.p50 ?? NaN];
      wallClock(Math.abs(ttftM - ttftC) / ttftC, `TTFT p50 ${ttftM} vs ${ttftC} ms at c=${m.concurrency}`).toBeLessThan(0.05);
      wallClock(Math.abs(tpotM - tpotC) / tpotC, `TPOT p50 ${tpotM} vs ${tpotC} ms at c=${m.concurrency}`).toBeLessThan(0.05);
    }
  });
});
