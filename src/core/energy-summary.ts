/**
 * A level's energy over its measured window only: from the first measured send to
 * the last measured end, so the warm-up (and anything after the level) stays out,
 * as InferenceX and MLPerf Power measure. Readings outside the window are left
 * out, never interpolated in. The joules come from the source's energy counter
 * (its difference between the first and last readings inside the window, scaled
 * to the window) where it has one that advanced, else from the power readings
 * (trapezoids between readings: their time-weighted mean × the window). A level
 * whose readings leave a gap longer than ENERGY_GAP_FACTOR × the sample interval,
 * or that has fewer than ENERGY_MIN_SAMPLES readings inside its window, is "not
 * valid", says why, and carries no joules and no joules-per-token figure.
 */
import type { GpuCollection, GpuSample } from './gpu-summary.js';
import { type RequestRecord, isOk } from './record.js';
import type { EnergyLevel, GpuLevel } from './telemetry-schema.js';

/** A gap between readings (or between a window edge and the nearest reading) longer than this many intervals makes the level's energy not valid. */
export const ENERGY_GAP_FACTOR = 3;
/** Fewer readings than this inside the window make the level's energy not valid. */
export const ENERGY_MIN_SAMPLES = 3;

/** The measured window (ms, on the readings' clock) and the tokens of its requests. */
export interface EnergyWindow {
  startMs: number;
  endMs: number;
  outputTokens: number;
  /** Prompt tokens of the measured requests; null when the server did not report them for every request. */
  inputTokens: number | null;
}

/**
 * A level's measured window from its records: the first measured send to the last
 * measured end (ns of the client clock, which GPU readings share, as ms), with the
 * output tokens of its successful measured requests and their prompt tokens.
 */
export function measuredWindow(records: readonly RequestRecord[]): EnergyWindow {
  const measured = records.filter((r) => !r.warmup);
  const ok = measured.filter(isOk);
  const startNs = Math.min(...measured.map((r) => r.sendNs));
  const endNs = Math.max(...measured.map((r) => r.endNs ?? r.headersNs ?? r.sendNs));
  const prompts = ok.map((r) => r.promptTokens);
  return {
    startMs: measured.length === 0 ? 0 : startNs / 1e6,
    endMs: measured.length === 0 ? 0 : endNs / 1e6,
    outputTokens: ok.reduce((a, r) => a + r.outputTokens, 0),
    inputTokens: prompts.some((p) => p === null) ? null : (prompts as number[]).reduce((a, p) => a + p, 0),
  };
}

const NO_WINDOW = 'the level has no measured window (no measured request was sent)';

/** The joules over the window (mean power × window) and per output, input and total token. */
function energyFigures(
  meanPowerW: number,
  windowMs: number,
  w: Pick<EnergyWindow, 'outputTokens' | 'inputTokens'>,
): Pick<EnergyLevel, 'joules' | 'joulesPerOutputToken' | 'joulesPerInputToken' | 'joulesPerTotalToken'> {
  const joules = meanPowerW * (windowMs / 1000);
  const per = (tokens: number | null) => (tokens !== null && tokens > 0 ? joules / tokens : null);
  return {
    joules,
    joulesPerOutputToken: per(w.outputTokens),
    joulesPerInputToken: per(w.inputTokens),
    joulesPerTotalToken: w.inputTokens === null ? null : per(w.inputTokens + w.outputTokens),
  };
}

const NO_FIGURES = { joules: null, meanPowerW: null, joulesPerOutputToken: null, joulesPerInputToken: null, joulesPerTotalToken: null } as const;

type Point = { atMs: number; v: number };

function readings(samples: readonly GpuSample[], f: (s: GpuSample) => number | null): Point[] {
  return samples.flatMap((s) => {
    const v = f(s);
    // A negative power or energy reading is no reading (the schema keeps joules non-negative).
    return v !== null && Number.isFinite(v) && v >= 0 ? [{ atMs: s.atMs, v }] : [];
  });
}

/** Median spacing of the readings, ms; null with fewer than two. */
function medianSpacing(xs: readonly Point[]): number | null {
  const d = xs.slice(1).map((x, i) => x.atMs - (xs[i] as Point).atMs);
  if (d.length === 0) return null;
  d.sort((a, b) => a - b);
  return d[Math.floor((d.length - 1) / 2)] as number;
}

/** "1.20 s" from a second up, "400 ms" below it. */
const secs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** The first gap longer than the allowance among `edges` (window start, readings, window end), named from when to when into the window. */
function firstGap(edges: readonly number[], w: EnergyWindow, intervalMs: number): string | null {
  const allowed = ENERGY_GAP_FACTOR * intervalMs;
  for (let i = 1; i < edges.length; i++) {
    const a = edges[i - 1] as number;
    const b = edges[i] as number;
    if (b - a > allowed) {
      return `no reading from ${secs(a - w.startMs)} to ${secs(b - w.startMs)} into the window (${secs(b - a)}, more than ${ENERGY_GAP_FACTOR} × the ${secs(intervalMs)} interval)`;
    }
  }
  return null;
}

/** Trapezoids between readings over their span, J (ms × W / 1000). */
function trapezoidJ(xs: readonly Point[]): number {
  let area = 0;
  for (let i = 1; i < xs.length; i++) {
    const a = xs[i - 1] as Point;
    const b = xs[i] as Point;
    area += ((a.v + b.v) / 2) * (b.atMs - a.atMs);
  }
  return area / 1000;
}

/**
 * The level's energy over its measured window, valid or not and why.
 * @param c what the GPU source collected around the level (readings outside the window are counted and left out).
 */
export function summarizeEnergy(c: GpuCollection, w: EnergyWindow): EnergyLevel {
  const windowMs = Math.max(0, w.endMs - w.startMs);
  const inside = c.samples.filter((s) => s.atMs >= w.startMs && s.atMs <= w.endMs);
  const power = readings(inside, (s) => s.powerW);
  const counter = readings(inside, (s) => s.energyJ);
  const cFirst = counter[0];
  const cLast = counter[counter.length - 1];
  const byCounter = cFirst !== undefined && cLast !== undefined && cLast.atMs > cFirst.atMs && cLast.v > cFirst.v;
  const used = byCounter ? counter : power;
  const stated = c.intervalMs ?? medianSpacing(used);
  const intervalMs = stated !== null && stated > 0 ? stated : null;
  const first = used[0];
  const last = used[used.length - 1];
  const coverage = first && last && windowMs > 0 ? Math.min(1, (last.atMs - first.atMs) / windowMs) : null;
  const base = {
    source: c.source,
    windowMs,
    samples: used.length,
    outside: c.samples.length - inside.length,
    intervalMs,
    coverage,
    method: used.length === 0 ? null : byCounter ? ('counter' as const) : ('power' as const),
    outputTokens: w.outputTokens,
    inputTokens: w.inputTokens,
  };
  const invalid = (reason: string): EnergyLevel => ({ ...base, valid: false, reason, ...NO_FIGURES });
  if (windowMs <= 0) return invalid(NO_WINDOW);
  if (used.length < ENERGY_MIN_SAMPLES) {
    const what =
      c.samples.length === 0
        ? (c.reason ?? `${c.source} took no reading`)
        : `${c.source} gave ${used.length} power or energy reading${used.length === 1 ? '' : 's'} inside the ${secs(windowMs)} window`;
    return invalid(`${what}; at least ${ENERGY_MIN_SAMPLES} are needed`);
  }
  const spanMs = (last as Point).atMs - (first as Point).atMs;
  if (spanMs <= 0 || intervalMs === null)
    return invalid(`${c.source}'s ${used.length} readings inside the window give no sample interval (stamped at one instant)`);
  // A counter's difference is exact between its readings, so only the window's edges can hide energy; power readings can miss it anywhere.
  const gap = byCounter
    ? (firstGap([w.startMs, (first as Point).atMs], w, intervalMs) ?? firstGap([(last as Point).atMs, w.endMs], w, intervalMs))
    : firstGap([w.startMs, ...used.map((p) => p.atMs), w.endMs], w, intervalMs);
  if (gap !== null) return invalid(gap);
  const meanPowerW = byCounter ? (((last as Point).v - (first as Point).v) / spanMs) * 1000 : trapezoidJ(used) / (spanMs / 1000);
  const { joules, ...perToken } = energyFigures(meanPowerW, windowMs, w);
  return { ...base, valid: true, reason: null, joules, meanPowerW, ...perToken };
}

/**
 * A stated level's energy as its records give it: the window and its token counts
 * recomputed from the records, and the joules and per-token figures from the stated
 * mean power over that window. The readings are not in the records, so the mean
 * power, the readings counted, the interval, the coverage and the verdict are the
 * result's word.
 */
export function energyFromRecords(stated: EnergyLevel, records: readonly RequestRecord[]): EnergyLevel {
  const w = measuredWindow(records);
  const windowMs = Math.max(0, w.endMs - w.startMs);
  const base = { ...stated, windowMs, outputTokens: w.outputTokens, inputTokens: w.inputTokens };
  if (!stated.valid || stated.meanPowerW === null) return { ...base, ...NO_FIGURES, meanPowerW: stated.meanPowerW };
  if (windowMs <= 0) return { ...base, valid: false, reason: NO_WINDOW, ...NO_FIGURES };
  return { ...base, ...energyFigures(stated.meanPowerW, windowMs, w) };
}

/**
 * The level's GPU figures made to agree with its energy: the older `energyJ` and
 * `joulesPerOutputToken` are the measured window's, and null with the reason
 * when the energy is not valid.
 */
export function gpuWithEnergy(gpu: GpuLevel, e: EnergyLevel): GpuLevel {
  if (!gpu.available) return gpu;
  if (!e.valid) return { ...gpu, energyJ: null, energyMethod: null, joulesPerOutputToken: null, notes: [...gpu.notes, `energy not valid: ${e.reason}`] };
  return { ...gpu, energyJ: e.joules, energyMethod: e.method, joulesPerOutputToken: e.joulesPerOutputToken };
}
