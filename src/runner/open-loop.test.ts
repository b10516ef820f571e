/**
 * Open-loop arrivals, prompt lists and goodput through runSweep, against the
 * simulator over 127.0.0.1. Schedules are checked through the records' target
 * send times (exact) rather than wall-clock rates (see the timing tests).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import type { RequestRecord } from '../core/index.js';
import { runOpenLoop } from './open-loop.js';
import { runSweep } from './run-kinds.js';

const sim = useSimulators({ prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 2, decodeMsPerExtraSeq: 0, port: 0 });
const base = { outputTokens: 8, promptTokens: 8, warmup: 1 };
function recordsOf(levels: Map<number, RequestRecord[]>) {
  return (level: number) => (levels.get(level) ?? []).filter((r) => !r.warmup).sort((a, b) => a.seq - b.seq);
}
function collect() {
  const levels = new Map<number, RequestRecord[]>();
  return {
    levels,
    onEvent: (e: { kind: string; records?: readonly RequestRecord[]; level?: { load?: { level: number } } }) => {
      if (e.kind === 'level-end' && e.records && e.level?.load) levels.set(e.level.load.level, [...e.records]);
    },
  };
}

describe('open-loop rate arrivals', () => {
  it('constant rate: each request targets start + i/rate, and the level reports offered and achieved rates', async () => {
    const s = await sim();
    const c = collect();
    const result = await runSweep(
      { ...base, url: s.url, levels: [40], arrival: { kind: 'rate', process: 'constant' }, requestsPerLevel: 10 },
      { onEvent: c.onEvent },
    );
    const rs = recordsOf(c.levels)(40);
    expect(rs).toHaveLength(10);
    const t0 = rs[0]?.targetSendNs ?? 0;
    rs.forEach((r, i) => expect(r.targetSendNs - t0).toBeCloseTo(i * 25e6, 0));
    const load = result.levels[0]?.load;
    expect(load).toMatchObject({ kind: 'rate', level: 40, label: '40 req/s constant', waitedForSlot: 0 });
    expect(load?.offeredRps).toBeCloseTo(40, 6);
    expect(load?.achievedRps).toBeGreaterThan(30);
    expect(result.levels[0]?.steadyThroughputTokS).toBeNull();
    expect(result.run.arrival).toEqual({ kind: 'rate', process: 'constant', seed: 1, maxConcurrency: null });
  });

  it('a concurrency cap holds: never more in flight, waits are counted, and send lag stays our own turnaround', async () => {
    const s = await sim({ decodeStepMs: 10 });
    const c = collect();
    const result = await runSweep(
      { ...base, url: s.url, levels: [200], arrival: { kind: 'rate', process: 'poisson', seed: 3, maxConcurrency: 2 }, requestsPerLevel: 8 },
      { onEvent: c.onEvent },
    );
    const l = result.levels[0];
    expect(l?.load?.peakInFlight).toBeLessThanOrEqual(2);
    expect(l?.load?.waitedForSlot).toBeGreaterThan(0);
    // A request that waited for a slot targets the moment the slot freed, not its schedule.
    expect(l?.load?.scheduleLagMs?.max).toBeGreaterThan(l?.clientBound.sendLagMs?.max ?? Infinity);
    expect(l?.failed).toBe(0);
  });

  it("bursts: each burst's requests target the same instant", async () => {
    const s = await sim();
    const c = collect();
    await runSweep({ ...base, url: s.url, levels: [3], arrival: { kind: 'burst', intervalMs: 50 }, requestsPerLevel: 6 }, { onEvent: c.onEvent });
    const t = recordsOf(c.levels)(3).map((r) => r.targetSendNs);
    expect(t[1]).toBe(t[0]);
    expect(t[2]).toBe(t[0]);
    expect((t[3] as number) - (t[0] as number)).toBeCloseTo(50e6, 0);
    expect(t[4]).toBe(t[3]);
  });

  it('rates are swept ascending and may be fractional', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [20, 10.5], arrival: { kind: 'rate', process: 'constant' }, requestsPerLevel: 3, warmup: 0 });
    expect(result.run.levelsOrder).toEqual([10.5, 20]);
    expect(result.levels.map((l) => l.load?.level)).toEqual([10.5, 20]);
  });

  it('refuses a level the kind cannot run, naming it', async () => {
    await expect(runSweep({ ...base, url: 'http://127.0.0.1:9', levels: [1, 2.5] })).rejects.toThrow(
      /levels\.1: 2\.5 is not a whole number of streams \(arrival concurrency\)/,
    );
    await expect(runSweep({ ...base, url: 'http://127.0.0.1:9', levels: [1], arrival: { kind: 'poisson' } as never })).rejects.toThrow(
      /arrival\.kind: kind must be one of concurrency, rate, burst/,
    );
  });
});

describe('prompt lists and goodput', () => {
  it("uses the list in order across levels, with each prompt's own output cap", async () => {
    const s = await sim();
    const c = collect();
    const items = Array.from({ length: 6 }, (_, i) => ({ text: `p${i} a b c`, outputTokens: 3 + i }));
    const result = await runSweep({ ...base, url: s.url, levels: [1, 2], requestsPerLevel: 2, prompts: { kind: 'list', items } }, { onEvent: c.onEvent });
    // In order: request n of the sweep (warm-ups included, levels ascending) takes item n. Level 2's two
    // requests leave at one instant from two client threads, so their order is their sequence number's.
    const bySeq = (level: number) => [...(c.levels.get(level) ?? [])].sort((a, b) => a.seq - b.seq);
    const all = [...bySeq(1), ...bySeq(2)];
    expect(all.map((r) => r.outputTokens)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(result.levels.every((l) => l.outputTokens.short === 0)).toBe(true);
  });

  it('reports goodput per level against the SLOs', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [1], requestsPerLevel: 4, slo: { ttftMs: { p: 95, max: 5000 }, e2eMs: { p: 50, max: 1 } } });
    const g = result.levels[0]?.goodput;
    expect(g).toMatchObject({ requests: 4, met: 0, share: 0, holds: false, missed: { e2eMs: 4, ttftMs: 0 } });
    expect(g?.checks.map((x) => [x.metric, x.holds])).toEqual([
      ['ttftMs', true],
      ['e2eMs', false],
    ]);
    expect(result.run.slo).toEqual({ ttftMs: { p: 95, max: 5000 }, e2eMs: { p: 50, max: 1 } });
  });
});

describe('the open-loop driver alone', () => {
  it('prepares a burst while it waits for its first request, and nothing beyond its look-ahead', async () => {
    const clock = () => Number(process.hrtime.bigint());
    // A quiet 200 ms, then a burst of three, then one at 1 s (beyond the 100 ms look-ahead of the burst).
    const offsetsNs = [0, 200e6, 200e6, 200e6, 1000e6];
    const events: string[] = [];
    await runOpenLoop({
      offsetsNs,
      maxInFlight: 8,
      startNs: clock(),
      clock,
      signal: new AbortController().signal,
      prepare: (i) => events.push(`prepare ${i}`),
      send: (i) => {
        events.push(`send ${i}`);
        return Promise.resolve({ endNs: clock() });
      },
    });
    expect(events.filter((e) => e.startsWith('send'))).toEqual(['send 0', 'send 1', 'send 2', 'send 3', 'send 4']);
    // 1–3 were prepared during the quiet spell, before 1 left; 4 only once the burst was sent.
    expect(events.slice(0, 5)).toEqual(['send 0', 'prepare 1', 'prepare 2', 'prepare 3', 'send 1']);
    expect(events.indexOf('prepare 4')).toBeGreaterThan(events.indexOf('send 3'));
    expect(events.filter((e) => e.startsWith('prepare'))).toEqual(['prepare 1', 'prepare 2', 'prepare 3', 'prepare 4']);
  });
});
