/**
 * The charts of an embeddings or rerank run: items per second (inputs, or
 * documents for rerank) and latency p50/p95/p99 against concurrency, drawn by
 * the same line renderer as the text sweep's charts. A level with failed
 * requests is marked as an invalid one is there (a red ×), a client-bound one
 * ringed; both are left out of the peak, which is core's (the Engine card's).
 * There is no TTFT here: these answers arrive whole.
 */
import { type PoolingEndpoint, type PoolingLevel, allFailed, poolingPeak } from '../../core/index.js';
import { COLORS, type ChartLine } from './chart-lines.js';
import { plotLines } from './charts.js';
import { num } from './format.js';
import type { SmallChart } from './replay-charts.js';

type Value = (l: PoolingLevel) => number | null;

function line(levels: readonly PoolingLevel[], label: string, dash: string | null, value: Value): ChartLine {
  return {
    label,
    color: COLORS.accent,
    dash,
    symbol: 'circle',
    points: [...levels]
      .sort((a, b) => a.concurrency - b.concurrency)
      .map((l) => ({ concurrency: l.concurrency, value: value(l), invalid: l.failed > 0, clientBound: l.failed === 0 && l.clientBound?.bound === true })),
  };
}

const failedNote = (levels: readonly PoolingLevel[]) =>
  (levels.some((l) => l.failed > 0) ? '; levels with failed requests are marked and left out of the peak' : '') +
  (levels.some((l) => l.failed === 0 && l.clientBound?.bound === true) ? '; client-bound levels are marked and left out of the peak' : '');
const cell = (l: PoolingLevel, v: number | null, digits = 1) => `${num(v, digits)}${allFailed(l) ? ' (all failed)' : l.failed > 0 ? ' (failed requests)' : ''}`;
/** A level's rate, none where every request failed (a stored level may still carry one). */
const rateOf = (l: PoolingLevel, v: number | null) => (allFailed(l) ? null : v);

/** Items/s and latency percentiles against concurrency; empty without a level. */
export function poolingCharts(levels: readonly PoolingLevel[], endpoint: PoolingEndpoint): SmallChart[] {
  if (levels.length === 0) return [];
  const items = endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s';
  const unit = endpoint === 'rerank' ? 'documents/s' : 'inputs/s';
  const sorted = [...levels].sort((a, b) => a.concurrency - b.concurrency);
  // The Engine card's peak, by the one rule (failed and client-bound levels left out).
  const best = poolingPeak(sorted);
  const first = sorted[0] as PoolingLevel;
  const last = sorted[sorted.length - 1] as PoolingLevel;
  const rateSummary =
    `${items} is ${num(rateOf(first, first.itemsPerS))} at concurrency ${first.concurrency}` +
    (best === null ? ' and no level counts toward a peak' : ` and peaks at ${num(best.itemsPerS)} ${unit} at concurrency ${best.concurrency}`) +
    `${failedNote(sorted)}.`;
  const latSummary =
    `Latency p50 is ${num(first.latencyMs?.p50 ?? null)} ms at concurrency ${first.concurrency} and ${num(last.latencyMs?.p50 ?? null)} ms at concurrency ${last.concurrency}` +
    `; p99 ${num(last.latencyMs?.p99 ?? null)} ms there${failedNote(sorted)}.`;
  const latencyLines = [
    line(sorted, 'p50', null, (l) => l.latencyMs?.p50 ?? null),
    line(sorted, 'p95', '3 3', (l) => l.latencyMs?.p95 ?? null),
    line(sorted, 'p99', '8 3', (l) => l.latencyMs?.p99 ?? null),
  ];
  return [
    {
      id: 'pooling-items',
      title: `${items} against concurrency`,
      subtitle: `${unit} · higher is better`,
      summary: rateSummary,
      render: (o = {}) => plotLines([line(sorted, '', null, (l) => rateOf(l, l.itemsPerS))], 'Concurrency', items, rateSummary, o),
      table: {
        headers: ['Concurrency', items, 'Input tok/s'],
        rows: sorted.map((l) => [String(l.concurrency), cell(l, rateOf(l, l.itemsPerS)), cell(l, rateOf(l, l.inputTokensPerS), 0)]),
      },
    },
    {
      id: 'pooling-latency',
      title: 'Latency against concurrency',
      subtitle: 'ms · lower is better',
      legend: 'p50 solid, p95 dashed, p99 long dashes',
      summary: latSummary,
      render: (o = {}) => plotLines(latencyLines, 'Concurrency', 'Latency (ms)', latSummary, o),
      table: {
        headers: ['Concurrency', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
        rows: sorted.map((l) => [
          String(l.concurrency),
          cell(l, l.latencyMs?.p50 ?? null),
          cell(l, l.latencyMs?.p95 ?? null),
          cell(l, l.latencyMs?.p99 ?? null),
        ]),
      },
    },
  ];
}
