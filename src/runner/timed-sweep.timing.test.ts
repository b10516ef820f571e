/**
 * A level bounded by time on the wire: `--duration 10s --ramp-up 5` at
 * concurrency 8 against the simulator (its own process). The level sends for
 * 10 s — its last send before the end, its last end within one request of it —
 * records its request count, and has all 8 streams in flight 5 s after its
 * start, when the ramp ends. The allowance is one request's e2e plus 100 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { wallClock } from '../test-support/wall-clock.js';
import { runSweep } from './run-kinds.js';

const ALLOWANCE_MS = 100;
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '5', '--prefill-ms-per-token', '0', '--decode-step-ms', '2', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim.stop();
});

describe('--duration 10s --ramp-up 5, as sent', () => {
  it('lasts 10 s, records its requests, and reaches full concurrency as the ramp ends', async () => {
    let records: RequestRecord[] = [];
    const result = await runSweep(
      { url: sim.url, levels: [8], durationS: 10, rampUpS: 5, outputTokens: 64, promptTokens: 16, warmup: 1, serverMetrics: false },
      {
        onEvent: (e) => {
          if (e.kind === 'level-end') records = [...e.records];
        },
      },
    );
    const level = result.levels[0];
    const w = level?.window;
    if (level === undefined || w === undefined) throw new Error('no timed level');
    const measured = records.filter((r) => !r.warmup);
    expect(level.requests).toBe(measured.length);
    expect(level.requests).toBeGreaterThan(0);
    expect(w.rampRequests).toBe(records.filter((r) => r.ramp === true).length);
    expect(w.endedBy).toBe('duration');
    const longest = Math.max(...records.filter((r) => r.ramp === true || !r.warmup).map((r) => ((r.endNs ?? r.sendNs) - r.sendNs) / 1e6));
    wallClock(w.lastSendMs, 'the last send, ms after the start').toBeLessThanOrEqual(10_000 + ALLOWANCE_MS);
    wallClock(w.lastSendMs, 'the last send, ms after the start').toBeGreaterThanOrEqual(10_000 - longest - ALLOWANCE_MS);
    wallClock(w.lastEndMs, 'the level lasted, ms').toBeGreaterThanOrEqual(10_000);
    wallClock(w.lastEndMs, 'the level lasted, ms').toBeLessThanOrEqual(10_000 + longest + ALLOWANCE_MS);
    wallClock(w.fullConcurrencyMs, 'all 8 streams in flight, ms after the start').toBeGreaterThanOrEqual(5000);
    wallClock(w.fullConcurrencyMs, 'all 8 streams in flight, ms after the start').toBeLessThanOrEqual(5000 + ALLOWANCE_MS);
  });
});
