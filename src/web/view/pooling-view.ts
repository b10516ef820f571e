/**
 * The pooling kind's page view (embeddings, rerank): what it supplies to the
 * page's shared table, cards and chart frames, and nothing they draw. Its
 * columns (items/s, input tok/s, latency p50/p95/p99, the dimension, a cost
 * and an objective when the run had them); its Engine and Latency cards;
 * items/s and latency p50/p95/p99 against concurrency, on the text sweep's
 * line renderer. A level with failed requests is marked as an invalid one is
 * (a red ×), a client-bound one ringed; both are left out of the peak, which
 * is core's (the Engine card's). No TTFT: these answers arrive whole.
 */
import { type PoolingEndpoint, type PoolingLevel, allFailed, poolingCards, poolingPeak } from '../../core/index.js';
import type { PoolingRunSpec } from '../../store/index.js';
import type { CardView } from './cards-model.js';
import { type LevelPlace, levelLine } from './chart-lines.js';
import { type SmallChart, lineChart } from './charts.js';
import { num } from './format.js';
import { type LevelColumn, html } from './markup.js';

/** A failed level is drawn as an invalid one; a client-bound one only when nothing failed there. */
const place = (l: PoolingLevel): LevelPlace => ({
  concurrency: l.concurrency,
  invalid: l.failed > 0,
  clientBound: l.failed === 0 && l.clientBound?.bound === true,
});
const line = (levels: readonly PoolingLevel[], label: string, dash: string | null, value: (l: PoolingLevel) => number | null) =>
  levelLine(levels, place, { label, dash }, value);

const failedNote = (levels: readonly PoolingLevel[]) =>
  (levels.some((l) => l.failed > 0) ? '; levels with failed requests are marked and left out of the peak' : '') +
  (levels.some((l) => l.failed === 0 && l.clientBound?.bound === true) ? '; client-bound levels are marked and left out of the peak' : '');
const cell = (l: PoolingLevel, v: number | null, digits = 1) => `${num(v, digits)}${allFailed(l) ? ' (all failed)' : l.failed > 0 ? ' (failed requests)' : ''}`;
/** A level's rate, none where every request failed (a stored level may still carry one). */
const rateOf = (l: PoolingLevel, v: number | null) => (allFailed(l) ? null : v);
/** "Documents/s" for rerank, "Inputs/s" for embeddings. */
const itemsHeader = (endpoint: PoolingEndpoint) => (endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s');

/** Items/s and latency percentiles against concurrency; empty without a level. */
export function poolingCharts(levels: readonly PoolingLevel[], endpoint: PoolingEndpoint): SmallChart[] {
  if (levels.length === 0) return [];
  const items = itemsHeader(endpoint);
  const unit = items.toLowerCase();
  const sorted = [...levels].sort((a, b) => a.concurrency - b.concurrency);
  // The Engine card's peak, by the one rule (failed and client-bound levels left out).
  const best = poolingPeak(sorted);
  const first = sorted[0] as PoolingLevel;
  const last = sorted[sorted.length - 1] as PoolingLevel;
  const p = (l: PoolingLevel, q: 'p50' | 'p95' | 'p99') => l.latencyMs?.[q] ?? null;
  const rateSummary =
    `${items} is ${num(rateOf(first, first.itemsPerS))} at concurrency ${first.concurrency}` +
    (best === null ? ' and no level counts toward a peak' : ` and peaks at ${num(best.itemsPerS)} ${unit} at concurrency ${best.concurrency}`) +
    `${failedNote(sorted)}.`;
  const latSummary =
    `Latency p50 is ${num(p(first, 'p50'))} ms at concurrency ${first.concurrency} and ${num(p(last, 'p50'))} ms at concurrency ${last.concurrency}` +
    `; p99 ${num(p(last, 'p99'))} ms there${failedNote(sorted)}.`;
  return [
    lineChart({
      id: 'pooling-items',
      title: `${items} against concurrency`,
      subtitle: `${unit} · higher is better`,
      summary: rateSummary,
      xName: 'Concurrency',
      yLabel: items,
      lines: [line(sorted, '', null, (l) => rateOf(l, l.itemsPerS))],
      table: {
        headers: ['Concurrency', items, 'Input tok/s'],
        rows: sorted.map((l) => [String(l.concurrency), cell(l, rateOf(l, l.itemsPerS)), cell(l, rateOf(l, l.inputTokensPerS), 0)]),
      },
    }),
    lineChart({
      id: 'pooling-latency',
      title: 'Latency against concurrency',
      subtitle: 'ms · lower is better',
      legend: 'p50 solid, p95 dashed, p99 long dashes',
      summary: latSummary,
      xName: 'Concurrency',
      yLabel: 'Latency (ms)',
      lines: [line(sorted, 'p50', null, (l) => p(l, 'p50')), line(sorted, 'p95', '3 3', (l) => p(l, 'p95')), line(sorted, 'p99', '8 3', (l) => p(l, 'p99'))],
      table: {
        headers: ['Concurrency', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
        rows: sorted.map((l) => [String(l.concurrency), cell(l, p(l, 'p50')), cell(l, p(l, 'p95')), cell(l, p(l, 'p99'))]),
      },
    }),
  ];
}

/** A rate cell: none where every request failed, whatever an older stored level says. */
const rate = (l: PoolingLevel, x: number | null, digits = 1) => (allFailed(l) ? '—' : num(x, digits));

/** The per-level table's columns after Concurrency, those a run had (the dimension of embeddings, a cost, an objective). */
export function poolingColumns(spec: PoolingRunSpec): Array<LevelColumn<PoolingLevel>> {
  const slo = spec.latencySlo;
  const columns: Array<LevelColumn<PoolingLevel> | false> = [
    { header: 'Requests/s', cell: (l) => rate(l, l.requestsPerS) },
    { header: itemsHeader(spec.endpoint), cell: (l) => rate(l, l.itemsPerS) },
    { header: 'Input tok/s', cell: (l) => rate(l, l.inputTokensPerS, 0) },
    { header: 'Latency p50 (ms)', cell: (l) => num(l.latencyMs?.p50) },
    { header: 'p95 (ms)', cell: (l) => num(l.latencyMs?.p95) },
    { header: 'p99 (ms)', cell: (l) => num(l.latencyMs?.p99) },
    spec.endpoint === 'embeddings' && { header: 'Dimension', cell: (l) => (l.dimension === null ? '—' : String(l.dimension)) },
    spec.hourlyCostUsd !== null && { header: '$/1M input tok', cell: (l) => rate(l, l.costPerMInputTokensUsd, 4) },
    {
      header: 'Failed',
      cell: (l) =>
        l.failed > 0
          ? html`<strong class="alarm"><span aria-hidden="true">⚠ </span>${l.failed}/${l.requests}${allFailed(l) ? ' all failed' : ''}</strong>`
          : `0/${l.requests}`,
    },
    slo !== null && {
      header: `SLO p${slo.p} ≤ ${slo.maxMs} ms`,
      text: true,
      cell: (l) => (l.slo === null ? '—' : `${l.slo.holds ? 'holds' : 'misses'} (${l.slo.observedMs === null ? 'failed' : `${num(l.slo.observedMs)} ms`})`),
    },
  ];
  return columns.filter((c) => c !== false);
}

/** The table's caption: what one request carried. */
export function poolingCaption(spec: PoolingRunSpec): string {
  const what =
    spec.endpoint === 'rerank'
      ? `a query of ${spec.queryTokens ?? '?'} tokens with ${spec.itemsPerRequest} documents of ${spec.itemTokens} tokens`
      : `${spec.itemsPerRequest} inputs of ${spec.itemTokens} tokens`;
  return `Per level, ${spec.endpoint}: ${what} per request. Latency is send to the whole answer; a level with failed requests is left out of the peak.`;
}

/** The Engine card (peak items/s and input tok/s at that concurrency) and the Latency card (p50/p95/p99 at the peak). */
export function poolingCardViews(levels: readonly PoolingLevel[], endpoint: PoolingEndpoint): CardView[] {
  const { engine, latency } = poolingCards(levels, endpoint);
  const lat = latency.latencyMs;
  const leftOut = engine.excluded.map((e) => `${e.concurrency}, ${e.reason}`).join('; ');
  // Why no level makes a peak: each level left out with its reason (failed requests, or our own client was the bottleneck).
  const none = `no level counts (left out: ${leftOut}).`;
  const fact = (label: string, value: string) => ({ label, value, note: '' });
  return [
    {
      title: 'Engine',
      question: `How many ${engine.unit} per second does this server handle at its best level?`,
      unavailable: engine.peakItemsPerS === null ? none : null,
      facts:
        engine.peakItemsPerS === null
          ? []
          : [
              fact(`Peak ${engine.unit}/s`, num(engine.peakItemsPerS)),
              fact('Input tok/s at the peak', num(engine.peakInputTokensPerS, 0)),
              fact('At concurrency', String(engine.peakConcurrency)),
              fact('Basis', engine.excluded.length === 0 ? 'every level' : `levels without failures (left out: ${leftOut})`),
            ],
    },
    {
      title: 'Latency',
      question: 'How long does one request take at the peak, send to the whole answer?',
      unavailable: lat === null ? none : null,
      facts:
        lat === null
          ? []
          : [
              fact('p50', `${num(lat.p50)} ms`),
              fact('p95', `${num(lat.p95)} ms`),
              fact('p99', `${num(lat.p99)} ms`),
              fact('At concurrency', String(latency.concurrency)),
            ],
    },
  ];
}

/** Each level's failure reasons, for the list under the table. */
export const poolingFailures = (levels: readonly PoolingLevel[]) => levels.flatMap((l) => l.failures.map((f) => ({ concurrency: l.concurrency, ...f })));
