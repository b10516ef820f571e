/**
 * The receipt's figures, drawn server-side with the same chart functions as
 * the live page (web/view): bar charts of one figure by configuration, and the
 * scaling curves with both configurations as series. Each is a figure with a
 * caption, an SVG with role img and an aria-label, and a data table whose
 * numbers are marked like every other number on the page.
 */
import { parseHTML } from 'linkedom';
import {
  type ChartDocument,
  type ChartLevel,
  type ChartSeries,
  type ChartSpec,
  METRICS,
  type MetricKey,
  barChart,
  capacityMarkup,
  figureMarkup,
  paretoFigure,
  perRequestChart,
  paretoLegend,
  renderPareto,
  throughputChart,
  toolTtftChart,
  toolValidChart,
  ttftChart,
} from '../web/index.js';
import type { ConfigurationKey } from './fact.js';
import { Raw, dataNumber, esc, html, scrollFrame } from './html.js';
import { pointNumber } from './receipt-pareto.js';
import type { BarView, ReceiptView } from './receipt-view.js';
import { ENERGY_METRICS, ENERGY_NOT_VALID, SPEC_DECODE_METRICS } from './stated-facts.js';
import { FLEET_METRICS, POOL_METRICS } from './parts-facts.js';
import { standingWords } from './standing.js';
import type { ViewNumber } from './view-number.js';

const doc = (): ChartDocument => parseHTML('<!doctype html><html><body></body></html>').document as unknown as ChartDocument;

export function barFigure(b: BarView): Raw {
  const svg = barChart(b.input, { document: doc() });
  return html`<figure class="chart" id="chart-${b.id}"><figcaption><strong>${b.title}</strong><span class="muted">${b.subtitle}</span></figcaption>
${new Raw(svg.outerHTML)}
<details><summary>Data table: ${b.title}</summary>${scrollFrame(
    `Data of ${b.title}`,
    html`<table><thead><tr><th scope="col">Configuration</th><th scope="col">Value (${b.input.unit})</th><th scope="col">Statistic</th></tr></thead><tbody>
${b.numbers.map((n) => html`<tr><th scope="row">${n.configuration}</th><td class="n">${dataNumber(n)}</td><td>${n.statistic}, ${n.provenance}</td></tr>`)}</tbody></table>`,
  )}</details></figure>`;
}

const valueOf = (numbers: readonly ViewNumber[], metric: string): number | null => numbers.find((n) => n.id.endsWith(`.${metric}`))?.value ?? null;

/** The curve rebuilt from the published facts, so the charts draw exactly the numbers the page and dataset carry. */
function series(v: ReceiptView): ChartSeries[] {
  return (['baseline', 'optimized'] as const).map((cfg: ConfigurationKey) => ({
    label: cfg,
    role: cfg === 'baseline' ? 'baseline' : 'candidate',
    levels: v.levels[cfg].map((l): ChartLevel => {
      const p50 = valueOf(l.numbers, 'ttftP50');
      const p95 = valueOf(l.numbers, 'ttftP95');
      const perRequest = valueOf(l.numbers, 'perRequest');
      const toolP50 = valueOf(l.numbers, 'toolTtftP50');
      const toolP95 = valueOf(l.numbers, 'toolTtftP95');
      // A level sent with tools carries its tool facts (fact set 2), each stated even without a value.
      const tools = l.numbers.some((n) => n.id.endsWith('.toolValid'));
      return {
        concurrency: l.concurrency,
        invalid: l.invalid,
        clientBound: { bound: l.clientBound },
        throughputTokS: valueOf(l.numbers, 'throughput') ?? Number.NaN,
        perRequestTokS: perRequest === null ? null : { mean: perRequest },
        ttftMs: p50 === null || p95 === null ? null : { p50, p95 },
        tpotMs: null,
        e2eMs: null,
        failed: valueOf(l.numbers, 'failed') ?? 0,
        gpuMemMiB: { available: false },
        ...(tools
          ? {
              toolCalls: {
                validRate: valueOf(l.numbers, 'toolValid'),
                ttftToolMs: toolP50 === null || toolP95 === null ? null : { p50: toolP50, p95: toolP95 },
              },
            }
          : {}),
      };
    }),
  }));
}

/** The figure's data: one row per level, a column per configuration and metric, every value marked. */
function levelTable<M extends string>(v: ReceiptView, title: string, metrics: readonly M[], header: (m: M) => string, open = false): Raw {
  const cfgs = ['baseline', 'optimized'] as const;
  const levels = [...new Set(cfgs.flatMap((c) => v.levels[c].map((l) => l.concurrency)))].sort((a, b) => a - b);
  const heads = cfgs.flatMap((c) => metrics.map((m) => `${c} · ${header(m)}`));
  const cell = (c: ConfigurationKey, concurrency: number, m: M) => {
    const l = v.levels[c].find((x) => x.concurrency === concurrency);
    const n = l?.numbers.find((x) => x.id.endsWith(`.c${concurrency}.${m}`));
    if (!n) return html`<td class="n">—</td>`;
    const flag = n.levelState === 'invalid' ? ' (invalid level)' : n.levelState === 'client-bound' ? ' (client-bound)' : '';
    return html`<td class="n${n.levelState === 'invalid' ? ' invalid' : ''}"${new Raw(n.note === null ? '' : ` title="${esc(n.note)}"`)}>${dataNumber(n)}${flag}</td>`;
  };
  return html`<details${open ? new Raw(' open') : ''}><summary>Data table: ${title}</summary>${scrollFrame(
    `Data of ${title}`,
    html`<table><thead><tr><th scope="col">Concurrency</th>${heads.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>
${levels.map((c) => html`<tr><th scope="row">${String(c)}</th>${cfgs.flatMap((cfg) => metrics.map((m) => cell(cfg, c, m)))}</tr>`)}</tbody></table>`,
  )}</details>`;
}

/** The scaling charts of the live page, with the metrics each one's table lists (failures beside throughput). */
const CURVE_CHARTS: ReadonlyArray<[ChartSpec, readonly MetricKey[]]> = [
  [throughputChart, ['throughput', 'failed']],
  [perRequestChart, ['perRequest']],
  [ttftChart, ['ttftP50', 'ttftP95']],
];

/** A receipt of runs sent with tools (fact set 2) draws these too, from each level's tool facts. */
const TOOL_CHARTS: ReadonlyArray<[ChartSpec, readonly MetricKey[]]> = [
  [toolValidChart, ['toolValid']],
  [toolTtftChart, ['toolTtftP50', 'toolTtftP95']],
];

export function curveFigures(v: ReceiptView): Raw {
  const s = series(v);
  const tools = s.some((x) => x.levels.some((l) => l.toolCalls !== undefined));
  return html`${[...CURVE_CHARTS, ...(tools ? TOOL_CHARTS : [])].map(
    ([
      spec,
      metrics,
    ]) => html`<figure class="chart" id="chart-${spec.id}"><figcaption><strong>${spec.title}</strong><span class="muted">${spec.subtitle}; baseline grey solid, optimized accent dashed</span></figcaption>
${new Raw(spec.render(s, { document: doc() }).outerHTML)}
${levelTable(v, spec.title, metrics, (m) => METRICS[m].header)}</figure>`,
  )}`;
}

/** The metrics of fact set 4's table, in column order. */
const STATED_TABLE: readonly MetricKey[] = [...SPEC_DECODE_METRICS, ...ENERGY_METRICS];

/**
 * Fact set 4's figures by level: the server's speculative decoding beside our
 * tokens per chunk, and energy per token; each level whose energy is not valid
 * says why. Nothing for a receipt without them, so its page renders as before.
 */
export function statedFiguresSection(v: ReceiptView): Raw {
  const all = [...v.levels.baseline, ...v.levels.optimized].flatMap((l) => l.numbers);
  const metrics = STATED_TABLE.filter((m) => all.some((n) => n.id.endsWith(`.${m}`)));
  if (metrics.length === 0) return html``;
  const notValid = (['baseline', 'optimized'] as const).flatMap((cfg) =>
    v.levels[cfg].flatMap((l) => {
      const n = l.numbers.find((x) => x.id.endsWith('.joulesPerOutputToken'));
      // The level's state (invalid, client-bound) leads its notes and is flagged in the table: the reason alone here.
      const at = n === undefined || n.value !== null || n.note === null ? -1 : n.note.indexOf(ENERGY_NOT_VALID);
      return at < 0 || n?.note == null ? [] : [`${cfg} at concurrency ${l.concurrency}: ${n.note.slice(at)}`];
    }),
  );
  const stands = standingOf(
    v,
    STATED_TABLE.filter((m) => m !== 'chunkTokens'),
  );
  return html`<section id="speculative-energy" aria-labelledby="speculative-energy-h"><h2 id="speculative-energy-h">Speculative decoding and energy</h2>
<p class="muted">The server's own speculative-decoding figures and the GPU source's energy, per level, as each run's result states them. The records recompute our tokens per chunk, the measured window and its tokens, and the arithmetic (acceptance length and rate from the server's counters, joules per token from the mean power over the window); the counters, gauges and readings themselves are not in the records. Acceptance length is the headline: the rate falls as the draft budget rises even with the same drafter.${stands.length === 0 ? '' : ` Standing of these figures: ${stands.join('; ')}.`}</p>
${levelTable(v, 'speculative decoding and energy', metrics, (m) => METRICS[m].header, true)}${notValid.length === 0 ? '' : html`<ul id="energy-not-valid">${notValid.map((t) => html`<li>${t}</li>`)}</ul>`}</section>`;
}

/** The standing of the first value of `metrics` on each side, in words; none without a standing or a value. */
function standingOf(v: ReceiptView, metrics: readonly MetricKey[]): string[] {
  return (['baseline', 'optimized'] as const).flatMap((cfg) => {
    const n = v.levels[cfg].flatMap((l) => l.numbers).find((x) => x.value !== null && metrics.some((m) => x.id.endsWith(`.${m}`)));
    return v.standing === null || n === undefined ? [] : [`${cfg}: ${standingWords(v.standing.of(n.id))}`];
  });
}

/**
 * Fact set 5's figures by level: a disaggregated server's pools and a fleet's
 * targets, each cell's note (its title) saying where it came from or why it has
 * none. Nothing for a receipt without them, so its page renders as before.
 */
export function partsFiguresSection(v: ReceiptView): Raw {
  const all = [...v.levels.baseline, ...v.levels.optimized].flatMap((l) => l.numbers);
  const has = (ms: readonly MetricKey[]) => ms.filter((m) => all.some((n) => n.id.endsWith(`.${m}`)));
  const pools = has(POOL_METRICS);
  const fleet = has(FLEET_METRICS);
  if (pools.length === 0 && fleet.length === 0) return html``;
  const said = (what: string, stands: string[]) => (stands.length === 0 ? '' : ` Standing of the ${what}: ${stands.join('; ')}.`);
  return html`<section id="server-parts" aria-labelledby="server-parts-h"><h2 id="server-parts-h">Pools and fleet targets</h2>
<p class="muted">Per level, a disaggregated server's pools, as each run's result states their own counters over the measured window (the records recompute the window and the arithmetic: rates, per GPU, the KV rates; not the counters), and a fleet's targets, recomputed from the records (each names its target): the least- and most-served target's throughput and the slowest target's TTFT. Each cell's note gives the pool's counters or every target's value.${said('pool figures', standingOf(v, POOL_METRICS))}${said('target figures', standingOf(v, FLEET_METRICS))}</p>
${levelTable(v, 'pools and fleet targets', [...pools, ...fleet], (m) => METRICS[m].header, true)}</section>`;
}

/** A receipt's levels as one table (an embeddings or rerank receipt's): both configurations, the kind's own figures per level. */
export function levelsTable(v: ReceiptView, table: { metrics: readonly string[]; header(metric: string): string }): Raw {
  return html`<section id="levels" aria-labelledby="levels-h"><h2 id="levels-h">Per level</h2><p class="muted">Each concurrency level of both runs, recomputed from their records; a level with a failed request is excluded from the peak.</p>
${levelTable(v, 'per-level figures', table.metrics, table.header)}</section>`;
}

/**
 * The Pareto view and its capacity answer, drawn by the page's own view code
 * (figure, chart, capacity table); the receipt only marks each plotted value
 * and each capacity figure as the published number it is.
 */
export function paretoSection(v: ReceiptView): Raw {
  if (v.pareto === null) return html``;
  const { model, configurations, gpus, answer, capacity } = v.pareto;
  const mark = (i: number, p: Parameters<typeof pointNumber>[2], axis: 'x' | 'y'): Raw => {
    const n = pointNumber(v.levels[configurations[i] as ConfigurationKey], model.per, p, axis);
    return n === null ? html`—` : dataNumber(n);
  };
  const legend = html`${paretoLegend(model)}. GPUs serving each configuration (from the hardware label the publisher declared): ${gpus.map((n, i) => html`${i > 0 ? '; ' : ''}${configurations[i]} ${dataNumber(n, { unit: true })}`)}`;
  // Two drawings, one shown by the window's width (no script): scaled down to a phone, the wide one's text was 5 px.
  const svg = `<span class="wide">${renderPareto(model, { document: doc(), width: 640 }).outerHTML}</span><span class="narrow">${renderPareto(model, { document: doc(), narrow: true }).outerHTML}</span>`;
  const figure = figureMarkup({ ...paretoFigure(model, svg, mark), id: 'chart-pareto', legend });
  const cell = (_: unknown, i: number, what: 'y' | 'cost'): Raw | null => {
    const c = capacity[i];
    return c === undefined ? null : dataNumber(what === 'y' ? c.y : c.cost);
  };
  return html`<section id="pareto" aria-labelledby="pareto-h"><h2 id="pareto-h">Pareto view and capacity</h2>${figure}<div class="capacity-answer">${capacityMarkup(model, answer, cell)}</div></section>`;
}
