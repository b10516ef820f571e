/** The capacity search's verdicts at the edges of its range (the knee itself: capacity.timing.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import type { RatePacing } from '../core/index.js';
import { findCapacity } from './capacity.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
});
afterAll(async () => {
  await sim.close();
});
const spec = (slo: object) => async (level: number) => ({
  url: sim.url,
  levels: [level],
  outputTokens: 4,
  promptTokens: 4,
  requestsPerLevel: 4,
  warmup: 0,
  slo,
});

describe('capacity verdicts', () => {
  it('above-range: every level holds, so the capacity is at least the last one', async () => {
    const r = await findCapacity({ coarse: [1, 2], specFor: spec({ e2eMs: { p: 50, max: 60_000 } }) });
    expect(r).toMatchObject({ verdict: 'above-range', capacity: 2, stepSize: null });
    expect(r.evidence.above).toBeNull();
    expect(r.statement).toMatch(/every level holds .* up to 2 streams: the capacity is higher/);
  });
  it('below-range: the first level already misses; no capacity, and the evidence says why', async () => {
    const r = await findCapacity({ coarse: [2, 1], specFor: spec({ e2eMs: { p: 50, max: 0.001 } }) });
    expect(r).toMatchObject({ verdict: 'below-range', capacity: null });
    expect(r.probes).toHaveLength(1);
    expect(r.probes[0]).toMatchObject({ level: 1, holds: false, reason: expect.stringMatching(/^e2eMs p50 [\d.]+ ms > 0\.001 ms/) });
  });
  it('refuses a spec without SLOs', async () => {
    await expect(findCapacity({ coarse: [1], specFor: async () => ({ url: sim.url, levels: [1] }) })).rejects.toThrow(/capacity needs SLOs/);
  });
  it('stops at the probe budget', async () => {
    const r = await findCapacity({ coarse: [1, 2, 4], maxProbes: 1, specFor: spec({ e2eMs: { p: 50, max: 60_000 } }) });
    expect(r.probes).toHaveLength(1);
    // Level 1 held, 2 and 4 were never measured: that is a lower bound, not a capacity.
    expect(r).toMatchObject({ verdict: 'budget-exhausted', capacity: null });
    expect(r.statement).toMatch(/the probe budget \(1\) ran out .* at least 1 stream \(holds\); nothing above it was measured; raise --max-probes/);
  });
  it("stops at a level the provider's rate limit paced: its limit is not the server's capacity", async () => {
    const provider = await startSimulator({
      port: 0,
      prefillBaseMs: 2,
      prefillMsPerToken: 0,
      decodeStepMs: 1,
      decodeMsPerExtraSeq: 0,
      rateLimit: { rpm: 600_000 },
    });
    try {
      const on = (rateLimit: RatePacing | null) => async (level: number) => ({
        ...(await spec({ e2eMs: { p: 50, max: 60_000 } })(level)),
        url: provider.url,
        rateLimit,
      });
      const paced = await findCapacity({ coarse: [1, 2], specFor: on({ kind: 'budget', rpm: 600_000, tpm: null }) });
      expect(paced).toMatchObject({ verdict: 'stopped', capacity: null });
      expect(paced.probes).toHaveLength(1);
      expect(paced.statement).toBe(
        "the search stopped: at 1 stream, limited by the provider's rate limit (600000 requests/min): a provider's limit is not the server's capacity, so the search reads no saturation from it",
      );
      // Headers alone (no pacing, no 429) are recorded and read as no limit.
      const unpaced = await findCapacity({ coarse: [1, 2], specFor: on(null) });
      expect(unpaced).toMatchObject({ verdict: 'above-range', capacity: 2 });
      expect(unpaced.evidence.below?.rateLimit).toMatchObject({ limited: false, headers: { limitRequests: 600000 } });
    } finally {
      await provider.close();
    }
  });
});
