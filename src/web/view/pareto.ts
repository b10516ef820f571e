/**
 * The Pareto view: each level of each run as a point, output tok/s per GPU
 * (y) against tok/s per user (x, the mean per-request rate), and each run's
 * frontier — the valid, trusted points no other point of that run beats on
 * both axes. Invalid and client-bound levels stay on the chart, apart and
 * labelled, never on a frontier. Beside it, the capacity answer at a target
 * tok/s per user: linear between two measured frontier points, said to be
 * interpolated, never extrapolated past the levels tested.
 */
import type { LevelResult, RunInfo } from '../../core/index.js';
import { num, usd } from './format.js';

export interface ParetoRun {
  label: string;
  run: RunInfo;
  levels: readonly LevelResult[];
}

export interface ParetoPoint {
  level: number;
  /** tok/s per user: the level's mean per-request rate. */
  x: number;
  /** Output tok/s per GPU (or per server when the GPU count is not known). */
  y: number;
  state: 'valid' | 'invalid' | 'client-bound';
}

export interface ParetoSeries {
  label: string;
  gpus: number | null;
  hourlyCostUsd: number | null;
  points: ParetoPoint[];
  frontier: ParetoPoint[];
}

export interface ParetoModel {
  series: ParetoSeries[];
  /** "per GPU" when every run's GPU count is known, else "per server" (said in the axis label). */
  per: 'GPU' | 'server';
  yLabel: string;
  xLabel: string;
}

/** The GPU count a run's hardware label gives ("8× H100", "2 x A100"); null when it names none. */
export function gpuCount(run: Pick<RunInfo, 'gpuLabel'>): number | null {
  const m = /^\s*(\d{1,4})\s*[x×]\s*\S/i.exec(run.gpuLabel ?? '');
  const n = m ? Number(m[1]) : null;
  return n !== null && n >= 1 ? n : null;
}

/** The points no other valid point beats on both axes, by ascending x. */
export function frontier(points: readonly ParetoPoint[]): ParetoPoint[] {
  const ok = points.filter((p) => p.state === 'valid');
  const out = ok.filter((p) => !ok.some((q) => q !== p && q.x >= p.x && q.y >= p.y && (q.x > p.x || q.y > p.y)));
  return out.sort((a, b) => a.x - b.x);
}

/** A configuration's levels as the Pareto view reads them (a run's, or a receipt's published curve). */
export interface ParetoInput {
  label: string;
  /** GPUs serving it; null when not recorded (then every configuration is drawn per server). */
  gpus: number | null;
  hourlyCostUsd: number | null;
  levels: ReadonlyArray<{ level: number; perRequestTokS: number | null; throughputTokS: number; invalid: boolean; clientBound: boolean }>;
}

export function paretoOf(inputs: readonly ParetoInput[]): ParetoModel {
  const perGpu = inputs.length > 0 && inputs.every((r) => r.gpus !== null);
  const series = inputs.map((r) => {
    const divide = perGpu ? (r.gpus as number) : 1;
    const points = r.levels.flatMap((l): ParetoPoint[] => {
      const x = l.perRequestTokS;
      if (x === null || !Number.isFinite(x) || !Number.isFinite(l.throughputTokS)) return [];
      return [{ level: l.level, x, y: l.throughputTokS / divide, state: l.invalid ? 'invalid' : l.clientBound ? 'client-bound' : 'valid' }];
    });
    return { label: r.label, gpus: perGpu ? divide : null, hourlyCostUsd: r.hourlyCostUsd, points, frontier: frontier(points) };
  });
  return {
    series,
    per: perGpu ? 'GPU' : 'server',
    yLabel: perGpu ? 'Output tok/s per GPU' : 'Output tok/s per server (GPU count not recorded)',
    xLabel: 'tok/s per user (mean per-request rate)',
  };
}

/** The Pareto view of runs: GPU count from each run's hardware label. */
export function paretoModel(runs: readonly ParetoRun[]): ParetoModel {
  return paretoOf(
    runs.map((r) => ({
      label: r.label,
      gpus: gpuCount(r.run),
      hourlyCostUsd: r.run.hourlyCostUsd,
      levels: r.levels.map((l) => ({
        level: l.load?.level ?? l.concurrency,
        perRequestTokS: l.perRequestTokS?.mean ?? null,
        throughputTokS: l.throughputTokS,
        invalid: l.invalid,
        clientBound: l.clientBound.bound,
      })),
    })),
  );
}

export interface CapacityEntry {
  label: string;
  /** Output tok/s per GPU (or server) at the target; null when the target lies outside this run's measured range. */
  y: number | null;
  /** How y was found: at a measured level, or linearly between two. */
  how: string;
  /** USD per 1M output tokens at that throughput, from the run's hourly cost (the whole server); null without a cost. */
  costPer1M: number | null;
  /** The frontier levels y was read from (one when measured there, two when interpolated); empty when not measured. */
  from: number[];
}

export interface CapacityAnswer {
  target: number;
  entries: CapacityEntry[];
  best: CapacityEntry | null;
  sentence: string;
}

function at(s: ParetoSeries, target: number): { y: number; how: string; from: number[] } | null {
  const f = s.frontier;
  for (let i = 0; i < f.length; i++) {
    const p = f[i] as ParetoPoint;
    if (p.x === target) return { y: p.y, how: `measured at level ${p.level}`, from: [p.level] };
    const q = f[i + 1];
    if (q && p.x < target && target < q.x) {
      const t = (target - p.x) / (q.x - p.x);
      const [l1, l2] = [p.level, q.level].sort((u, v) => u - v);
      return { y: p.y + t * (q.y - p.y), how: `interpolated between levels ${l1} and ${l2}`, from: [l1 as number, l2 as number] };
    }
  }
  return null;
}

/** The range of tok/s per user a run's frontier covers, "12.0–48.5". */
const range = (s: ParetoSeries) =>
  s.frontier.length === 0 ? 'no valid level' : `${num(s.frontier[0]?.x)}–${num(s.frontier[s.frontier.length - 1]?.x)} tok/s per user tested`;

/** At `target` tok/s per user: each run's throughput there, the one serving the most, and its cost per 1M output tokens. */
export function capacityAt(m: ParetoModel, target: number): CapacityAnswer {
  const entries = m.series.map((s): CapacityEntry => {
    const hit = at(s, target);
    if (!hit) return { label: s.label, y: null, how: `not measured at this speed (${range(s)}; never extrapolated)`, costPer1M: null, from: [] };
    const serverTokS = hit.y * (s.gpus ?? 1);
    const costPer1M = s.hourlyCostUsd === null || serverTokS <= 0 ? null : (s.hourlyCostUsd / (serverTokS * 3600)) * 1e6;
    return { label: s.label, y: hit.y, how: hit.how, costPer1M, from: hit.from };
  });
  const best = entries.filter((e) => e.y !== null).reduce<CapacityEntry | null>((a, e) => (a === null || (e.y as number) > (a.y as number) ? e : a), null);
  const sentence =
    best === null
      ? `At ${num(target)} tok/s per user no configuration was measured: the target is outside every run's tested range, and goodput does not extrapolate.`
      : `At ${num(target)} tok/s per user, ${best.label} serves the most: ${num(best.y)} output tok/s per ${m.per} (${best.how})` +
        `${best.costPer1M === null ? ', no hourly cost recorded' : `, ${usd(best.costPer1M)} per 1M output tokens at the run's hourly cost`}.`;
  return { target, entries, best, sentence };
}

/** A target every run can answer when there is one: the middle of the tok/s-per-user range all frontiers cover, else of the widest. */
export function defaultTarget(m: ParetoModel): number | null {
  const spans = m.series.filter((s) => s.frontier.length > 0).map((s) => [s.frontier[0]?.x as number, s.frontier[s.frontier.length - 1]?.x as number] as const);
  if (spans.length === 0) return null;
  const lo = Math.max(...spans.map((s) => s[0]));
  const hi = Math.min(...spans.map((s) => s[1]));
  const [a, b] = lo <= hi ? [lo, hi] : spans.reduce((w, s) => (s[1] - s[0] > w[1] - w[0] ? s : w));
  return Number(((a + b) / 2).toPrecision(3));
}
