/**
 * One number from the several series a metric can have: vLLM labels by model and
 * engine, SGLang repeats scheduler gauges once per tensor/pipeline rank, DCGM
 * labels by GPU. Replica series (differing only in a rank label) count once;
 * the rest are summed, averaged or maxed as the metric requires.
 */
import type { PromSample, PromScrape } from './prometheus-text.js';

export type Combine = 'sum' | 'mean' | 'max';

/** Labels whose series repeat one value (SGLang's ranks): among series differing only in these, the largest counts. */
export const REPLICA_LABELS: readonly string[] = ['tp_rank', 'pp_rank'];

export interface SeriesOptions {
  combine: Combine;
  /** Only series whose labels include these pairs. */
  match?: Readonly<Record<string, string>>;
  /** Replica labels; default {@link REPLICA_LABELS}. */
  replicaLabels?: readonly string[];
}

function matches(s: PromSample, match: Readonly<Record<string, string>> | undefined): boolean {
  if (!match) return true;
  for (const [k, v] of Object.entries(match)) if (s.labels[k] !== v) return false;
  return true;
}

/** The identity of a series with its replica labels removed. */
function seriesKey(s: PromSample, replica: readonly string[]): string {
  return Object.keys(s.labels)
    .filter((k) => !replica.includes(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(s.labels[k])}`)
    .join(',');
}

/**
 * The combined value of metric `name` (a full sample name, e.g. `vllm:ttft_seconds_sum`);
 * null when it has no series, or only NaN or infinite ones.
 */
export function seriesValue(scrape: PromScrape, name: string, opts: SeriesOptions): number | null {
  const series = scrape.byName.get(name);
  if (!series) return null;
  const replica = opts.replicaLabels ?? REPLICA_LABELS;
  const distinct = new Map<string, number>();
  for (const s of series) {
    // No counter or gauge is infinite: a series stated as +Inf (a hostile or broken exporter) is no figure, as NaN is not.
    if (!Number.isFinite(s.value) || !matches(s, opts.match)) continue;
    const key = seriesKey(s, replica);
    const prev = distinct.get(key);
    distinct.set(key, prev === undefined ? s.value : Math.max(prev, s.value));
  }
  if (distinct.size === 0) return null;
  const values = [...distinct.values()];
  switch (opts.combine) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'mean':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'max':
      return values.reduce((a, b) => Math.max(a, b), -Infinity);
  }
}

/** Each series of `name` with its labels, replicas not merged (for per-GPU sources). */
export function seriesList(scrape: PromScrape, name: string): readonly PromSample[] {
  return scrape.byName.get(name) ?? [];
}

/** Whether the scrape has at least one series named `name`. */
export function hasSeries(scrape: PromScrape, name: string): boolean {
  return (scrape.byName.get(name)?.length ?? 0) > 0;
}
