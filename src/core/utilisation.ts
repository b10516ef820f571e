/**
 * Utilisation measured rather than typed: a replay of representative traffic
 * against a server whose capacity was measured at the same SLOs.
 *
 *   capacity tok/s  = the highest output throughput of a level that held every SLO
 *                     (valid, not client-bound) in the capacity run
 *   served tok/s    = output tokens of the replay's requests ÷ the replay's duration
 *                     (first send to last end, as every level's throughput)
 *   utilisation     = served tok/s ÷ capacity tok/s
 *
 * and the time series a person reads it by: arrivals, requests in flight,
 * output throughput and SLO attainment per time bucket of the replay.
 */
import { judgeRequest, type Slo } from './slo.js';
import type { RequestRecord } from './record.js';
import type { LevelResult } from './result-schema.js';
import type { SeriesPoint } from './replay-series-schema.js';

export interface CapacitySource {
  tokS: number;
  /** The level it was measured at, in words ("16 streams", "4 req/s poisson (seed 1)"). */
  level: string;
  /** Why this level: "the highest throughput holding every SLO" or "the peak (the run sets no SLO)". */
  basis: string;
}

/** The capacity a run's levels show, or why they show none. */
export function capacityOfLevels(levels: readonly LevelResult[], hasSlo: boolean): CapacitySource | { reason: string } {
  const usable = levels.filter((l) => !l.invalid && !l.clientBound.bound && (!hasSlo || l.goodput?.holds === true));
  const best = usable.reduce<LevelResult | null>((a, l) => (a === null || l.throughputTokS > a.throughputTokS ? l : a), null);
  if (best === null || !(best.throughputTokS > 0)) {
    return { reason: hasSlo ? 'no valid level of the capacity run held every SLO' : 'the capacity run has no valid level' };
  }
  return {
    tokS: best.throughputTokS,
    level: best.load?.label ?? `${best.concurrency} streams`,
    basis: hasSlo ? 'the highest output throughput of a level holding every SLO' : 'the peak output throughput (the capacity run sets no SLO)',
  };
}

/** The replay's time series in `buckets` equal buckets (measured requests only). */
export function replaySeries(records: readonly RequestRecord[], slo: Slo | null, buckets = 60): SeriesPoint[] {
  const measured = records.filter((r) => !r.warmup);
  if (measured.length === 0) return [];
  const start = Math.min(...measured.map((r) => r.sendNs));
  const end = Math.max(...measured.map((r) => r.endNs ?? r.sendNs));
  const width = Math.max(1, (end - start) / buckets);
  const points: SeriesPoint[] = Array.from({ length: buckets }, (_, i) => ({ atS: (i * width) / 1e9, arrivals: 0, inFlight: 0, tokS: 0, attainment: null }));
  const ended = new Array<number>(buckets).fill(0);
  const met = new Array<number>(buckets).fill(0);
  const at = (ns: number) => Math.min(buckets - 1, Math.max(0, Math.floor((ns - start) / width)));
  for (const r of measured) {
    (points[at(r.sendNs)] as SeriesPoint).arrivals++;
    r.chunkNs.forEach((ns, i) => {
      (points[at(ns)] as SeriesPoint).tokS += r.chunkTokens[i] ?? 1;
    });
    for (let b = 0; b < buckets; b++) {
      const mid = start + (b + 0.5) * width;
      if (r.sendNs <= mid && (r.endNs ?? end) > mid) (points[b] as SeriesPoint).inFlight++;
    }
    if (slo !== null) {
      const b = at(r.endNs ?? end);
      ended[b] = (ended[b] ?? 0) + 1;
      if (judgeRequest(r, slo).met) met[b] = (met[b] ?? 0) + 1;
    }
  }
  for (const [b, p] of points.entries()) {
    p.tokS /= width / 1e9;
    if (slo !== null && (ended[b] ?? 0) > 0) p.attainment = (met[b] ?? 0) / (ended[b] as number);
  }
  return points;
}

const BARS = '▁▂▃▄▅▆▇█';

/** A terminal sparkline of `values` scaled to their own max (a blank for a missing value). */
export function sparkline(values: ReadonlyArray<number | null>, max?: number): string {
  const top = max ?? Math.max(0, ...values.filter((v): v is number => v !== null));
  return values.map((v) => (v === null ? ' ' : BARS[top > 0 ? Math.min(7, Math.floor((v / top) * 7.999)) : 0])).join('');
}
