/**
 * Energy over the measured window from scripted readings on an injected clock (ms
 * are the readings' stamps): a warm-up spike is outside the window and leaves the
 * figure unchanged; a gap mid-level or too few readings make it "not valid", named.
 */
import { describe, expect, it } from 'vitest';
import { type EnergyWindow, energyFromRecords, gpuWithEnergy, measuredWindow, summarizeEnergy } from './energy-summary.js';
import { rec } from '../test-support/records.js';
import type { GpuCollection, GpuSample } from './gpu-summary.js';
import { type GpuLevel, energyLevelSchema } from './telemetry-schema.js';

const reading = (atMs: number, powerW: number | null, energyJ: number | null = null): GpuSample => ({
  atMs,
  name: 'FakeGPU',
  usedMiB: 1000,
  totalMiB: 8000,
  utilizationPct: 50,
  powerW,
  energyJ,
});
const collection = (samples: GpuSample[], intervalMs: number | null = 200): GpuCollection => ({
  source: 'nvidia-smi',
  samples,
  reason: null,
  notes: [],
  warnings: [],
  ...(intervalMs === null ? {} : { intervalMs }),
});
/** Every 200 ms from `from` to `to` (both included) at `w` watts. */
const steady = (from: number, to: number, w: number) => Array.from({ length: (to - from) / 200 + 1 }, (_, i) => reading(from + i * 200, w));

// The measured window: 1 s to 3 s on the readings' clock; 100 output and 400 input tokens.
const window: EnergyWindow = { startMs: 1000, endMs: 3000, outputTokens: 100, inputTokens: 400 };

describe('summarizeEnergy', () => {
  it('integrates trapezoids over the readings inside the window and gives joules per output, input and total token', () => {
    const e = summarizeEnergy(collection(steady(1000, 3000, 300)), window);
    expect(e).toEqual({
      source: 'nvidia-smi',
      valid: true,
      reason: null,
      windowMs: 2000,
      samples: 11,
      outside: 0,
      intervalMs: 200,
      coverage: 1,
      method: 'power',
      joules: 600,
      meanPowerW: 300,
      outputTokens: 100,
      inputTokens: 400,
      joulesPerOutputToken: 6,
      joulesPerInputToken: 1.5,
      joulesPerTotalToken: 1.2,
    });
  });

  it('leaves a warm-up spike (and readings after the last end) outside the window: the figure does not change', () => {
    const clean = summarizeEnergy(collection(steady(1000, 3000, 300)), window);
    // 900 W while the warm-up ran, just before the first measured send, and after the level.
    const spiked = [...steady(0, 800, 900), ...steady(1000, 3000, 300), reading(3100, 900), reading(3300, 900)];
    const e = summarizeEnergy(collection(spiked), window);
    expect(e.outside).toBe(7);
    expect(e).toEqual({ ...clean, outside: 7 });
    expect(e.joulesPerOutputToken).toBe(6);
  });

  it('says "not valid" and names the gap when readings are missing mid-level, with no joules or per-token figure', () => {
    const missing = steady(1000, 3000, 300).filter((r) => r.atMs < 1600 || r.atMs > 2400);
    const e = summarizeEnergy(collection(missing), window);
    expect(e).toMatchObject({ valid: false, samples: 6, coverage: 1, joules: null, meanPowerW: null });
    expect(e.reason).toBe('no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)');
    expect([e.joulesPerOutputToken, e.joulesPerInputToken, e.joulesPerTotalToken]).toEqual([null, null, null]);
  });

  it('counts a gap at the window edges: readings that start late leave its beginning unmeasured', () => {
    const e = summarizeEnergy(collection(steady(2000, 3000, 300)), window);
    expect(e.valid).toBe(false);
    expect(e.reason).toBe('no reading from 0 ms to 1.00 s into the window (1.00 s, more than 3 × the 200 ms interval)');
    expect(e.coverage).toBe(0.5);
  });

  it('allows a gap up to 3 intervals, and judges by the median spacing of the readings when the source states no interval', () => {
    const withGap = steady(1000, 3000, 300).filter((r) => r.atMs !== 1600 && r.atMs !== 1800);
    expect(summarizeEnergy(collection(withGap), window).valid).toBe(true);
    const e = summarizeEnergy(
      collection(
        steady(1000, 3000, 300).filter((r) => r.atMs < 1600 || r.atMs > 2400),
        null,
      ),
      window,
    );
    expect(e.intervalMs).toBe(200);
    expect(e.valid).toBe(false);
  });

  it('says "not valid" with too few readings, naming how many', () => {
    const e = summarizeEnergy(collection([reading(1500, 300), reading(2000, 300), reading(500, 900)], 500), window);
    expect(e).toMatchObject({ valid: false, samples: 2, outside: 1, joulesPerOutputToken: null });
    expect(e.reason).toBe('nvidia-smi gave 2 power or energy readings inside the 2.00 s window; at least 3 are needed');
  });

  it("takes the energy counter's difference where it advanced, scaled to the window; a gap between its readings hides nothing", () => {
    // 0.3 J/ms = 300 W, readings only near the edges and one in the middle.
    const counter = [1000, 1200, 2000, 2800, 3000].map((t) => reading(t, null, 5000 + 0.3 * t));
    const e = summarizeEnergy(collection(counter, 500), window);
    expect(e).toMatchObject({ valid: true, method: 'counter', samples: 5, coverage: 1 });
    expect(e.joules).toBeCloseTo(600, 9);
    expect(e.joulesPerTotalToken).toBeCloseTo(1.2, 9);
  });

  it('leaves per-input and per-total figures out when the server did not report prompt tokens', () => {
    const e = summarizeEnergy(collection(steady(1000, 3000, 300)), { ...window, inputTokens: null });
    expect([e.joulesPerOutputToken, e.joulesPerInputToken, e.joulesPerTotalToken]).toEqual([6, null, null]);
  });

  it('takes a negative power reading for no reading, and readings stamped at one instant for no interval', () => {
    const negative = steady(1000, 3000, 300).map((r) => (r.atMs === 2000 ? { ...r, powerW: -5 } : r));
    expect(summarizeEnergy(collection(negative), window)).toMatchObject({ valid: true, samples: 10, meanPowerW: 300 });
    const stuck = [reading(2000, 300), reading(2000, 300), reading(2000, 300)];
    const e = summarizeEnergy(collection(stuck, null), window);
    expect(e).toMatchObject({ valid: false, intervalMs: null, coverage: 0 });
    expect(e.reason).toBe("nvidia-smi's 3 readings inside the window give no sample interval (stamped at one instant)");
  });

  it('writes what the result schema reads back, valid or not', () => {
    for (const samples of [steady(1000, 3000, 300), steady(2000, 3000, 300), []]) {
      const e = summarizeEnergy(collection(samples), window);
      expect(energyLevelSchema.parse(e)).toEqual(e);
    }
  });

  it('has no window when no measured request was sent', () => {
    const e = summarizeEnergy(collection(steady(1000, 3000, 300)), { startMs: 0, endMs: 0, outputTokens: 0, inputTokens: null });
    expect(e.reason).toBe('the level has no measured window (no measured request was sent)');
  });
});

describe('gpuWithEnergy', () => {
  const gpu: GpuLevel = {
    available: true,
    source: 'nvidia-smi',
    samples: 20,
    utilizationPct: { mean: 50, max: 50 },
    powerW: { mean: 400, max: 900 },
    energyJ: 900,
    energyMethod: 'power',
    joulesPerOutputToken: 9,
    notes: [],
  };
  it("makes the level's older energy fields the measured window's", () => {
    const e = summarizeEnergy(collection(steady(1000, 3000, 300)), window);
    expect(gpuWithEnergy(gpu, e)).toMatchObject({ energyJ: 600, energyMethod: 'power', joulesPerOutputToken: 6 });
  });
  it('empties them, with the reason in the notes, when the energy is not valid', () => {
    const e = summarizeEnergy(collection(steady(2000, 3000, 300)), window);
    expect(gpuWithEnergy(gpu, e)).toMatchObject({
      energyJ: null,
      energyMethod: null,
      joulesPerOutputToken: null,
      notes: ['energy not valid: no reading from 0 ms to 1.00 s into the window (1.00 s, more than 3 × the 200 ms interval)'],
    });
  });
});

describe('energyFromRecords', () => {
  // Two measured requests from 1000 ms to 3000 ms (a warm-up before them), 50 and 50 output tokens, 200 prompt tokens each.
  const records = [
    rec({ sendMs: 100, chunksMs: [200, 300], endMs: 400, outputTokens: 7, warmup: true }),
    rec({ sendMs: 1000, chunksMs: [1100, 2000], endMs: 2500, outputTokens: 50, promptTokens: 200 }),
    rec({ sendMs: 1500, chunksMs: [1600, 2900], endMs: 3000, outputTokens: 50, promptTokens: 200 }),
  ];

  it("takes the window and its tokens from the records, as the level's energy was measured", () => {
    expect(measuredWindow(records)).toEqual(window);
  });

  it('gives back what summarizeEnergy stated, and recomputes an edited window, token count or per-token figure from the records and the mean power', () => {
    const stated = summarizeEnergy(collection(steady(1000, 3000, 300)), measuredWindow(records));
    expect(stated.valid).toBe(true);
    expect(energyFromRecords(stated, records)).toEqual(stated);
    const edited = { ...stated, windowMs: 1000, outputTokens: 1000, joules: 1, joulesPerOutputToken: 0.001 };
    expect(energyFromRecords(edited, records)).toEqual(stated);
    // The mean power is the readings' word: the joules follow it over the records' window.
    const doubled = energyFromRecords({ ...stated, meanPowerW: 600 }, records);
    expect([doubled.joules, doubled.joulesPerOutputToken]).toEqual([1200, 12]);
  });

  it('keeps a level that is not valid without figures, with its reason, and has no window without measured requests', () => {
    const gap = summarizeEnergy(collection([...steady(1000, 1400, 300), ...steady(2600, 3000, 300)]), measuredWindow(records));
    expect(gap.valid).toBe(false);
    expect(energyFromRecords({ ...gap, joulesPerOutputToken: 5 }, records)).toEqual(gap);
    const ok = summarizeEnergy(collection(steady(1000, 3000, 300)), measuredWindow(records));
    expect(energyFromRecords(ok, records.slice(0, 1))).toMatchObject({
      valid: false,
      reason: 'the level has no measured window (no measured request was sent)',
      windowMs: 0,
      joules: null,
      joulesPerOutputToken: null,
    });
  });
});
