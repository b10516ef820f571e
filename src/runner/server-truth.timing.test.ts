/**
 * Acceptance for server-side ground truth: against the simulator in its own
 * process (its /metrics carries its true timings), our TTFT and inter-token means
 * agree with the server's within 5% at low load, and the queue warning fires when
 * the simulator is told to queue (`--max-batch 2` at concurrency 8). The schedule
 * is slow (100 ms prefill, 20 ms steps) so loopback and wake-up latency (~1 ms)
 * stay well inside 5%.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const SCHEDULE = ['--prefill-base-ms', '100', '--prefill-ms-per-token', '0', '--decode-step-ms', '20', '--decode-ms-per-extra-seq', '0', '--no-prefix-caching'];
let free: SimProcess;
let tight: SimProcess;

beforeAll(async () => {
  [free, tight] = await Promise.all([spawnSimProcess(SCHEDULE), spawnSimProcess([...SCHEDULE, '--max-batch', '2'])]);
});
afterAll(async () => {
  await Promise.all([free?.stop(), tight?.stop()]);
});

describe('client vs server (simulator in its own process)', () => {
  it('TTFT and inter-token means agree within 5% at concurrency 1 and 2, and so do tokens and requests', async () => {
    const result = await runSweep({ url: free.url, levels: [1, 2], outputTokens: 24, promptTokens: 16, requestsPerLevel: 8, warmup: 1, gpuSource: 'none' });
    wallClock(
      result.warnings.map((w) => w.code),
      'warnings',
    ).not.toContain('server-disagrees');
    for (const l of result.levels) {
      const rows = l.serverTruth?.comparison ?? [];
      expect(rows).toHaveLength(4);
      for (const row of rows) {
        wallClock(row.agrees, `${row.metric} at ${l.concurrency}: ${JSON.stringify(row)}`).toBe(true);
        wallClock(Math.abs(row.diffPct ?? Infinity), `${row.metric} at ${l.concurrency}`).toBeLessThan(5);
      }
      wallClock(l.serverTruth?.queued, `server queued at ${l.concurrency}`).toBe(false);
    }
  });

  it('the queue warning fires with --max-batch 2 at concurrency 8, and TTFT still agrees (the queue is inside both)', async () => {
    const result = await runSweep({ url: tight.url, levels: [8], outputTokens: 24, promptTokens: 16, requestsPerLevel: 16, warmup: 1, gpuSource: 'none' });
    const t = result.levels[0]?.serverTruth;
    expect(t?.queued).toBe(true);
    expect(t?.waiting?.max).toBeGreaterThanOrEqual(1);
    expect(result.warnings.some((w) => w.code === 'server-queued' && /^concurrency 8: the server queued requests/.test(w.message))).toBe(true);
    wallClock(t?.comparison.find((r) => r.metric === 'ttft-mean-ms')?.agrees, 'TTFT mean agrees while queued').toBe(true);
  });
});
