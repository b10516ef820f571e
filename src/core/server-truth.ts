/**
 * The server's own view of a level from two scrapes of its Prometheus endpoint,
 * one just before the measured requests and one after: counters and histograms
 * are cumulative since the server started, so only their deltas belong to the
 * level (mean TTFT = Δ_sum / Δ_count). Gauges (running, waiting, KV-cache usage)
 * are instants, so they come from readings taken during the level.
 */
import type { MetricCandidate, MetricRole, MetricShape } from './metric-catalog.js';
import type { MetricMap } from './metric-discovery.js';
import { seriesList, seriesValue } from './prometheus-series.js';
import type { PromScrape } from './prometheus-text.js';
import type { GaugeStats } from './telemetry-schema.js';

/** Gauge values read from one mid-level scrape, in role units. */
export interface GaugeReading {
  atMs: number;
  values: Partial<Record<MetricRole, number>>;
}

/** The server's figures for a level, before they are compared with ours. */
export interface ServerFigures {
  family: string | null;
  requests: number | null;
  ttftMeanMs: number | null;
  itlMeanMs: number | null;
  itlPer: 'chunk' | 'token' | 'request' | null;
  e2eMeanMs: number | null;
  queueMeanMs: number | null;
  generatedTokens: number | null;
  promptTokens: number | null;
  prefixCacheHitPct: number | null;
  /** How late the server wrote against its own schedule (p99 over the level), where it reports it, ms. */
  lateP99Ms: number | null;
  running: GaugeStats | null;
  waiting: GaugeStats | null;
  kvCacheUsagePct: GaugeStats | null;
  missing: MetricRole[];
  notes: string[];
}

const sum = (scrape: PromScrape, name: string) => seriesValue(scrape, name, { combine: 'sum' });

type Delta = { value: number } | { reset: true } | { empty: true } | null;

function diff(before: PromScrape, after: PromScrape, name: string): number | 'reset' | null {
  const a = sum(before, name);
  const b = sum(after, name);
  if (a === null || b === null) return null;
  return b < a ? 'reset' : b - a;
}

/** The delta of one delta-shaped candidate, in raw units (before `scale`). */
function delta(before: PromScrape, after: PromScrape, shape: MetricShape): Delta {
  const pair = (num: string, den: string): Delta => {
    const n = diff(before, after, num);
    const d = diff(before, after, den);
    if (n === 'reset' || d === 'reset') return { reset: true };
    if (n === null || d === null) return null;
    return d === 0 ? { empty: true } : { value: n / d };
  };
  const single = (name: string): Delta => {
    const d = diff(before, after, name);
    return d === 'reset' ? { reset: true } : d === null ? null : { value: d };
  };
  switch (shape.kind) {
    case 'histogram-mean':
      return pair(`${shape.name}_sum`, `${shape.name}_count`);
    case 'histogram-sum':
      return single(`${shape.name}_sum`);
    case 'histogram-count':
      return single(`${shape.name}_count`);
    case 'counter':
      return single(shape.name);
    case 'counter-ratio':
      return pair(shape.numerator, shape.denominator);
    case 'gauge':
      return null;
  }
}

/** A server that reports its own write lateness as a histogram (goodput's simulator does; no engine does yet). */
export const SERVER_LATENESS_METRIC = 'goodput_sim:write_lateness_seconds';
/** That histogram's upper bucket bounds, s: fine below a millisecond, where a healthy loopback server lives. */
export const SERVER_LATENESS_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1] as const;

/**
 * The most write lateness (p99, ms) a level whose records span `spanMs` can state. No write is later
 * than the level is long, but a level's p99 is read off the histogram as the upper bound of the
 * bucket that holds it (histogramQuantileDelta), so a lateness inside the span reads as the first
 * bound at or above the span: 120 ms of lateness in a 165 ms level is stated as 250 ms.
 */
export function latenessCeilingMs(spanMs: number): number {
  const bound = SERVER_LATENESS_BUCKETS_S.find((b) => b * 1000 >= spanMs);
  return bound === undefined ? spanMs : Math.max(spanMs, bound * 1000);
}

/**
 * The q-quantile of a histogram over the level, from its bucket deltas: the upper
 * bound of the bucket that holds it (the largest finite bound when it is past
 * them all), in the metric's unit; null without the series or observations.
 */
export function histogramQuantileDelta(before: PromScrape, after: PromScrape, name: string, q: number): number | null {
  const buckets = (scrape: PromScrape) => {
    const byLe = new Map<number, number>();
    for (const s of seriesList(scrape, `${name}_bucket`)) {
      const le = s.labels['le'] === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels['le']);
      if (!Number.isNaN(le) && Number.isFinite(s.value)) byLe.set(le, (byLe.get(le) ?? 0) + s.value);
    }
    return byLe;
  };
  const a = buckets(before);
  const b = buckets(after);
  const les = [...b.keys()].sort((x, y) => x - y);
  const total = (b.get(Number.POSITIVE_INFINITY) ?? 0) - (a.get(Number.POSITIVE_INFINITY) ?? 0);
  if (les.length === 0 || !(total > 0)) return null;
  const rank = Math.ceil(q * total);
  const finite = les.filter(Number.isFinite);
  for (const le of finite) {
    if ((b.get(le) ?? 0) - (a.get(le) ?? 0) >= rank) return le;
  }
  return finite.at(-1) ?? null;
}

/** Reads every gauge-shaped role of `map` from one scrape, scaled to role units. */
export function readGauges(scrape: PromScrape, map: MetricMap): Partial<Record<MetricRole, number>> {
  const out: Partial<Record<MetricRole, number>> = {};
  for (const c of Object.values(map.roles) as MetricCandidate[]) {
    if (c.shape.kind !== 'gauge') continue;
    const v = seriesValue(scrape, c.shape.name, { combine: c.shape.combine });
    if (v !== null) out[c.role] = v * c.scale;
  }
  return out;
}

/** Mean and max of one role over the readings; null without any. */
export function gaugeStats(readings: readonly GaugeReading[], role: MetricRole): GaugeStats | null {
  const xs = readings.map((r) => r.values[role]).filter((v): v is number => v !== undefined);
  if (xs.length === 0) return null;
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, max: Math.max(...xs), samples: xs.length };
}

/** The server's figures for a level from the scrapes around it and the gauge readings during it. */
export function serverFigures(before: PromScrape, after: PromScrape, map: MetricMap, readings: readonly GaugeReading[]): ServerFigures {
  const notes: string[] = [];
  const value = (role: MetricRole): number | null => {
    const c = map.roles[role];
    if (!c) return null;
    if (c.shape.kind === 'gauge') return gaugeStats(readings, role)?.mean ?? null;
    const d = delta(before, after, c.shape);
    if (d === null) return null;
    if ('reset' in d) {
      notes.push(
        `${c.shape.kind === 'counter-ratio' ? c.shape.numerator : c.shape.name} went backwards: the server restarted or reset its counters during the level`,
      );
      return null;
    }
    if ('empty' in d) {
      notes.push(`${c.shape.kind === 'counter-ratio' ? c.shape.denominator : c.shape.name} had no observations during the level`);
      return null;
    }
    return d.value * c.scale;
  };
  return {
    family: map.family,
    requests: value('requests'),
    ttftMeanMs: value('ttftMs'),
    itlMeanMs: value('itlMs'),
    itlPer: map.roles.itlMs?.per ?? null,
    e2eMeanMs: value('e2eMs'),
    queueMeanMs: value('queueMs'),
    generatedTokens: value('generatedTokens'),
    promptTokens: value('promptTokens'),
    prefixCacheHitPct: value('prefixCacheHitPct'),
    lateP99Ms: ((late) => (late === null ? null : late * 1000))(histogramQuantileDelta(before, after, SERVER_LATENESS_METRIC, 0.99)),
    running: gaugeStats(readings, 'running'),
    waiting: gaugeStats(readings, 'waiting'),
    kvCacheUsagePct: gaugeStats(readings, 'kvCacheUsagePct'),
    missing: map.missing,
    notes,
  };
}
