/**
 * Energy per token through runSweep, against the simulator on 127.0.0.1, from a
 * fake power source (an injected GpuSource): its readings are made at stop, on
 * the clock the records share, 1 ms apart across the telemetry window, with a
 * spike before the level's window (a warm-up reading) and after it. No wall-clock
 * threshold: the figures are checked against the records' own window.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuSample, LevelResult, RequestRecord } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import type { GpuSource } from '../telemetry/index.js';
import { levelFromRecords } from './level-result.js';
import { runSweep } from './run-kinds.js';

const FAST = { prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 2, decodeMsPerExtraSeq: 0 };
const base = { outputTokens: 32, promptTokens: 16, requestsPerLevel: 6 as const, warmup: 1, gpuSource: 'auto' as const, serverMetrics: false };
let closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closers.map((s) => s.close()));
  closers = [];
});
async function sim(): Promise<SimServer> {
  const s = await startSimulator({ ...FAST, port: 0 });
  closers.push(s);
  return s;
}

const reading = (atMs: number, powerW: number): GpuSample => ({
  atMs,
  name: 'FakeGPU',
  usedMiB: 1000,
  totalMiB: 8000,
  utilizationPct: 50,
  powerW,
  energyJ: null,
});

/**
 * A scripted power source: 300 W every 1 ms from start to stop, 5000 W just before
 * start and just after stop; `drop` leaves out the readings of the middle of the
 * window it was given (a reading process that stalled).
 */
function fakePower(drop: boolean): GpuSource & { readings: GpuSample[] } {
  let startAt = 0;
  const src = {
    kind: 'nvidia-smi' as const,
    label: 'fake-smi',
    readings: [] as GpuSample[],
    start() {
      startAt = performance.now();
    },
    async stop() {
      const stopAt = performance.now();
      const span = stopAt - startAt;
      const inside: GpuSample[] = [];
      for (let t = startAt; t <= stopAt; t += 1) inside.push(reading(t, 300));
      const kept = drop ? inside.filter((r) => r.atMs < startAt + span * 0.25 || r.atMs > startAt + span * 0.75) : inside;
      src.readings = [reading(startAt - 40, 5000), reading(startAt - 20, 5000), ...kept, reading(stopAt + 20, 5000)];
      return { source: 'fake-smi', samples: src.readings, reason: null, notes: [], warnings: [], intervalMs: 1 };
    },
    close: async () => {},
  };
  return src;
}

/** The level's measured window (ms) from its records: first measured send to last measured end. */
function measuredWindow(records: readonly RequestRecord[]): { startMs: number; endMs: number } {
  const m = records.filter((r) => !r.warmup);
  return { startMs: Math.min(...m.map((r) => r.sendNs)) / 1e6, endMs: Math.max(...m.map((r) => r.endNs ?? r.sendNs)) / 1e6 };
}

describe('energy per token through runSweep', () => {
  it('integrates only the measured window: the warm-up spike is outside and the figure is 300 W over the window', async () => {
    const s = await sim();
    const gpu = fakePower(false);
    let records: readonly RequestRecord[] = [];
    const result = await runSweep({ ...base, url: s.url, levels: [2] }, { gpu, afterLevel: async (_l, r) => void (records = r) });
    const level = result.levels[0];
    const e = level?.energy;
    if (!e) throw new Error('expected the level to carry its energy');
    const w = measuredWindow(records);
    expect(e).toMatchObject({ source: 'fake-smi', valid: true, reason: null, method: 'power', intervalMs: 1 });
    expect(e.windowMs).toBeCloseTo(w.endMs - w.startMs, 6);
    // Spikes before and after, and the readings between start() and the first send, are left out.
    expect(e.outside).toBe(gpu.readings.filter((r) => r.atMs < w.startMs || r.atMs > w.endMs).length);
    expect(e.outside).toBeGreaterThanOrEqual(3);
    expect(e.meanPowerW).toBeCloseTo(300, 6);
    expect(e.joules).toBeCloseTo((300 * e.windowMs) / 1000, 6);
    expect(e.outputTokens).toBe(level?.outputTokensTotal);
    expect(e.joulesPerOutputToken).toBeCloseTo((e.joules as number) / (level?.outputTokensTotal ?? NaN), 9);
    expect(e.inputTokens).toBeGreaterThan(0);
    expect(e.joulesPerTotalToken).toBeCloseTo((e.joules as number) / ((e.inputTokens as number) + e.outputTokens), 9);
    // The older GPU figures are the window's.
    expect(level?.gpu).toMatchObject({ energyJ: e.joules, energyMethod: 'power', joulesPerOutputToken: e.joulesPerOutputToken });
    // Rebuilt from its records (receipts, verify), the window, tokens and arithmetic come out the same.
    expect(levelFromRecords(result, level as LevelResult, records).energy).toEqual(e);
  });

  it('says "energy not valid" naming the gap when readings are missing mid-level, and shows no per-token figure', async () => {
    const s = await sim();
    const gpu = fakePower(true);
    let records: readonly RequestRecord[] = [];
    const result = await runSweep({ ...base, url: s.url, levels: [2] }, { gpu, afterLevel: async (_l, r) => void (records = r) });
    const level = result.levels[0];
    const e = level?.energy;
    if (!e) throw new Error('expected the level to carry its energy');
    const w = measuredWindow(records);
    // The gap is the one the source left: from its last reading before to its first after, into the window.
    const at = gpu.readings.map((r) => r.atMs).filter((t) => t >= w.startMs && t <= w.endMs);
    const i = at.findIndex((t, k) => k > 0 && t - (at[k - 1] as number) > 3);
    const [a, b] = [at[i - 1] as number, at[i] as number];
    const s2 = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
    expect(e.valid).toBe(false);
    expect(e.reason).toBe(`no reading from ${s2(a - w.startMs)} to ${s2(b - w.startMs)} into the window (${s2(b - a)}, more than 3 × the 1 ms interval)`);
    expect([e.joules, e.joulesPerOutputToken, e.joulesPerInputToken, e.joulesPerTotalToken]).toEqual([null, null, null, null]);
    expect(level?.gpu).toMatchObject({ energyJ: null, joulesPerOutputToken: null });
    expect(levelFromRecords(result, level as LevelResult, records).energy).toEqual(e);
  });
});
