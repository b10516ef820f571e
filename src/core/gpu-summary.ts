/**
 * A level's GPU figures from the readings a source took while it ran: memory
 * (peak, mean), utilisation, power, and energy per output token. Energy is the
 * level's mean power × its duration; the mean power comes from the source's
 * energy counter where it has one (its delta over the sampled span), else from
 * its power readings weighted by time. A figure nobody reported is null with a
 * note, never a zero. A sweep then replaces the energy figures with its measured
 * window's, valid or not (energy-summary.ts).
 */
import type { GpuMem } from './result-schema.js';
import type { GpuLevel } from './telemetry-schema.js';

/** One reading of every GPU a source sees, combined: memory and power summed, utilisation averaged. */
export interface GpuSample {
  /** Monotonic time of the reading, ms. */
  atMs: number;
  /** e.g. "2× NVIDIA H100 80GB HBM3"; null when the source does not say. */
  name: string | null;
  usedMiB: number | null;
  totalMiB: number | null;
  utilizationPct: number | null;
  powerW: number | null;
  /** A cumulative energy counter, J (DCGM, amd-smi); null when the source has none. */
  energyJ: number | null;
}

/** What a source collected during one level. */
export interface GpuCollection {
  /** Recorded with every figure: "nvidia-smi", "dcgm-exporter", "amd-smi", "rocm-smi", "engine (…)". */
  source: string;
  samples: readonly GpuSample[];
  /** Why there are no samples, when there are none. */
  reason: string | null;
  /** Remarks on the readings (sentinels rejected, failed reads), recorded with the figures. */
  notes: readonly string[];
  /** Remarks that also become run warnings (a DCGM interval longer than the level). */
  warnings: readonly string[];
  /** How often the source reads, ms, when it says; the energy's gaps are judged against it (else the readings' median spacing). */
  intervalMs?: number;
}

function values(samples: readonly GpuSample[], f: (s: GpuSample) => number | null): Array<{ atMs: number; v: number }> {
  const out: Array<{ atMs: number; v: number }> = [];
  for (const s of samples) {
    const v = f(s);
    if (v !== null && Number.isFinite(v)) out.push({ atMs: s.atMs, v });
  }
  return out;
}

/** Time-weighted mean (trapezoids between readings); the plain mean when they span no time. */
function timeMean(xs: ReadonlyArray<{ atMs: number; v: number }>): number {
  const span = (xs[xs.length - 1]?.atMs ?? 0) - (xs[0]?.atMs ?? 0);
  if (xs.length < 2 || span <= 0) return xs.reduce((a, x) => a + x.v, 0) / xs.length;
  let area = 0;
  for (let i = 1; i < xs.length; i++) {
    const a = xs[i - 1] as { atMs: number; v: number };
    const b = xs[i] as { atMs: number; v: number };
    area += ((a.v + b.v) / 2) * (b.atMs - a.atMs);
  }
  return area / span;
}

const stats = (xs: ReadonlyArray<{ v: number }>) => ({ mean: xs.reduce((a, x) => a + x.v, 0) / xs.length, max: Math.max(...xs.map((x) => x.v)) });

/** GPU memory of the level in the shape the result has always had. */
function memory(c: GpuCollection): GpuMem {
  const used = values(c.samples, (s) => s.usedMiB);
  if (used.length === 0) return { available: false, source: 'not available', reason: c.reason ?? `${c.source} reported no memory reading` };
  const named = [...c.samples].reverse();
  const { mean, max } = stats(used);
  return {
    available: true,
    source: c.source,
    gpu: named.find((s) => s.name !== null)?.name ?? 'GPU (name not reported)',
    totalMiB: named.find((s) => s.totalMiB !== null)?.totalMiB ?? null,
    peak: max,
    mean,
    samples: used.length,
  };
}

/**
 * Memory, utilisation, power and energy of a level.
 * @param level the level's duration (ms) and the output tokens it delivered.
 */
export function summarizeGpu(c: GpuCollection, level: { durationMs: number; outputTokens: number }): { mem: GpuMem; gpu: GpuLevel } {
  const mem = memory(c);
  if (c.samples.length === 0) return { mem, gpu: { available: false, source: 'not available', reason: c.reason ?? `${c.source} took no reading` } };
  const notes = [...c.warnings, ...c.notes];
  const util = values(c.samples, (s) => s.utilizationPct);
  const power = values(c.samples, (s) => s.powerW);
  const energy = values(c.samples, (s) => s.energyJ);
  if (util.length === 0) notes.push(`${c.source} reported no utilisation`);
  if (power.length === 0) notes.push(`${c.source} reported no power`);
  let meanPowerW: number | null = null;
  let method: 'counter' | 'power' | null = null;
  const first = energy[0];
  const last = energy[energy.length - 1];
  if (first && last && last.atMs > first.atMs && last.v > first.v) {
    meanPowerW = ((last.v - first.v) / (last.atMs - first.atMs)) * 1000;
    method = 'counter';
  } else {
    if (energy.length > 0) notes.push(`${c.source}'s energy counter did not advance during the level (it updates less often than the level lasts)`);
    if (power.length > 0) {
      meanPowerW = timeMean(power);
      method = 'power';
    }
  }
  const energyJ = meanPowerW === null ? null : meanPowerW * (level.durationMs / 1000);
  if (energyJ === null) notes.push('no energy figure: the source gave neither an energy counter nor power readings');
  return {
    mem,
    gpu: {
      available: true,
      source: c.source,
      samples: c.samples.length,
      utilizationPct: util.length > 0 ? stats(util) : null,
      powerW: power.length > 0 ? stats(power) : null,
      energyJ,
      energyMethod: method,
      joulesPerOutputToken: energyJ !== null && level.outputTokens > 0 ? energyJ / level.outputTokens : null,
      notes,
    },
  };
}
