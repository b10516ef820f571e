/**
 * The page's charts as functions `(series, { document }) => SVG element`,
 * drawn with Observable Plot: in the browser with its document, in Node with
 * linkedom's (the static page and share image reuse them). One unit per
 * chart; x is concurrency on a log₂ scale with ticks at the measured levels;
 * straight segments with a marker on every level, no smoothing; an invalid
 * level is a red ×, labelled, and the line is broken around it.
 */
import * as Plot from '@observablehq/plot';
import { COLORS, type ChartLine, type ChartSeries, chartLines, measuredLevels } from './chart-lines.js';
import { num } from './format.js';
import { levelAxis, levelValue } from '../../core/index.js';
import { METRICS, type MetricKey, directionText } from './metrics.js';

/** The DOM to draw into (the browser's by default). */
export type ChartDocument = NonNullable<Plot.PlotOptions['document']>;
export type ChartElement = ReturnType<typeof Plot.plot>;

export interface ChartOptions {
  document?: ChartDocument;
  /** Outer width, px. Default 640. */
  width?: number;
}

export interface ChartSpec {
  id: 'throughput' | 'per-request' | 'ttft' | 'tool-valid' | 'tool-ttft';
  title: string;
  /** Unit and direction: "tok/s · higher is better". */
  subtitle: string;
  /** One sentence for screen readers (the SVG's aria-label). */
  summary(series: readonly ChartSeries[]): string;
  render(series: readonly ChartSeries[], o?: ChartOptions): ChartElement;
  /** The same data as a table (headers, rows), for a details element. */
  table(series: readonly ChartSeries[]): { headers: string[]; rows: string[][] };
}

/** A chart of its own data (a replay's time series, a kind's own figures): drawn, summarised and tabled without series. */
export interface SmallChart {
  id: string;
  title: string;
  subtitle: string;
  /** What the line styles or colours mean, when there are several. */
  legend?: string;
  summary: string;
  render(o?: ChartOptions): ChartElement;
  table: { headers: string[]; rows: string[][] };
}

/** A SmallChart of lines over a log₂ level axis, drawn by plotLines with its summary as the SVG's label. */
export function lineChart(c: Omit<SmallChart, 'render'> & { xName: string; yLabel: string; lines: readonly ChartLine[] }): SmallChart {
  const { xName, yLabel, lines, ...chart } = c;
  return { ...chart, render: (o = {}) => plotLines(lines, xName, yLabel, chart.summary, o) };
}

type MetricLine = { key: MetricKey; tag: string | null; dash: string | null };

/** A plot in the page's frame (its width, type and tabular figures) as an image with its `ariaLabel`: every chart is drawn through it. */
export function framedPlot(o: ChartOptions, plot: Plot.PlotOptions): ChartElement {
  const svg = Plot.plot({ document: o.document, width: o.width ?? 640, style: { fontSize: '12px', fontVariantNumeric: 'tabular-nums' }, ...plot });
  svg.setAttribute('role', 'img');
  return svg;
}

/** Lines over a log₂ level axis (also the agent and tool-call charts' renderer). */
export function plotLines(lines: readonly ChartLine[], xName: string, yLabel: string, ariaLabel: string, o: ChartOptions): ChartElement {
  const xs = measuredLevels(lines);
  const lo = xs[0] ?? 1;
  const hi = xs[xs.length - 1] ?? 1;
  const domain = xs.length < 2 ? [lo / 2, lo * 2] : [lo / 1.3, hi * 1.3];
  const marks: Plot.Markish[] = [Plot.ruleY([0], { stroke: '#9ca3af' })];
  // Direct labels at each line's last valid point, nudged apart top to bottom so close lines stay readable.
  const lastValue = (l: ChartLine) => [...l.points].reverse().find((p) => !p.invalid && p.value !== null)?.value ?? -Infinity;
  const rank = new Map([...lines].sort((a, b) => lastValue(b) - lastValue(a)).map((l, i) => [l, i]));
  // "invalid level" is said once per level, however many lines mark it.
  const said = new Set<number>();
  for (const l of lines) {
    const drawn = l.points.map((p) => ({ x: p.concurrency, y: p.invalid || p.value === null ? NaN : p.value }));
    const valid = l.points.filter((p) => !p.invalid && p.value !== null);
    const invalid = l.points.filter((p) => p.invalid && p.value !== null);
    marks.push(Plot.line(drawn, { x: 'x', y: 'y', stroke: l.color, strokeWidth: 2, strokeDasharray: l.dash ?? undefined, curve: 'linear' }));
    marks.push(Plot.dot(valid, { x: 'concurrency', y: 'value', r: 4, symbol: l.symbol, fill: l.color, stroke: 'white', strokeWidth: 1 }));
    marks.push(Plot.dot(invalid, { x: 'concurrency', y: 'value', r: 6, symbol: 'times', stroke: COLORS.invalid, strokeWidth: 2, fill: 'none' }));
    const unsaid = invalid.filter((p) => !said.has(p.concurrency));
    unsaid.forEach((p) => said.add(p.concurrency));
    marks.push(Plot.text(unsaid, { x: 'concurrency', y: 'value', text: () => 'invalid level', dy: -13, fill: COLORS.invalid, fontWeight: 'bold' }));
    // A client-bound level stays on the line (its timing is suspect, not wrong) but is ringed and named, as the peak leaves it out.
    const bound = valid.filter((p) => p.clientBound);
    marks.push(Plot.dot(bound, { x: 'concurrency', y: 'value', r: 8, stroke: COLORS.clientBound, strokeWidth: 2, fill: 'none' }));
    marks.push(
      Plot.text(
        bound.filter((p) => !said.has(p.concurrency)),
        { x: 'concurrency', y: 'value', text: () => 'client-bound', dy: 16, fill: COLORS.clientBound },
      ),
    );
    bound.forEach((p) => said.add(p.concurrency));
    const last = valid[valid.length - 1];
    const dy = -6 + 13 * (rank.get(l) ?? 0);
    if (l.label && last)
      marks.push(Plot.text([last], { x: 'concurrency', y: 'value', text: () => l.label, dx: 9, dy, textAnchor: 'start', fill: l.color, fontWeight: 'bold' }));
  }
  return framedPlot(o, {
    height: 280,
    marginLeft: 60,
    marginRight: 110,
    marginBottom: 44,
    x: {
      type: 'log',
      base: 2,
      domain,
      ticks: xs,
      tickFormat: (d: number) => String(d),
      label: `${xName} (log₂ scale)`,
      labelAnchor: 'center',
      labelArrow: 'none',
    },
    y: { zero: true, grid: true, nice: true, label: yLabel, labelArrow: 'none' },
    ariaLabel,
    marks,
  });
}

function rise(series: readonly ChartSeries[], key: MetricKey, what: string): string {
  const m = METRICS[key];
  const axis = levelAxis(series.flatMap((s) => s.levels));
  return (
    series
      .map((s) => {
        const pts = [...s.levels].filter((l) => !l.invalid && m.value(l) !== null).sort((a, b) => levelValue(a) - levelValue(b));
        const first = pts[0];
        if (!first) return `${series.length > 1 ? `${s.label}: ` : ''}no valid level`;
        // Peaks come from trusted levels only, as the cards' peak does.
        const trusted = pts.filter((l) => !l.clientBound.bound);
        const best = (trusted.length > 0 ? trusted : pts).reduce((a, b) =>
          (m.direction === 'lower' ? (m.value(b) ?? Infinity) < (m.value(a) ?? Infinity) : (m.value(b) ?? 0) > (m.value(a) ?? 0)) ? b : a,
        );
        const last = pts[pts.length - 1] as typeof first;
        const tail =
          m.direction === 'higher'
            ? `peaks at ${num(m.value(best))} ${m.unit} at ${axis.describe(levelValue(best))}`
            : `is ${num(m.value(last))} ${m.unit} at ${axis.describe(levelValue(last))}`;
        return `${series.length > 1 ? `${s.label}: ` : ''}${what} ${m.statistic} is ${num(m.value(first))} ${m.unit} at ${axis.describe(levelValue(first))} and ${tail}`;
      })
      .join('; ') +
    (series.some((s) => s.levels.some((l) => l.invalid)) ? '; invalid levels are marked' : '') +
    (series.some((s) => s.levels.some((l) => !l.invalid && l.clientBound.bound)) ? '; client-bound levels are marked and left out of the peak' : '') +
    '.'
  );
}

function table(series: readonly ChartSeries[], metrics: readonly MetricLine[]) {
  const axis = levelAxis(series.flatMap((s) => s.levels));
  const headers = [
    axis.name,
    ...series.flatMap((s) => metrics.map((m) => [series.length > 1 ? s.label : null, METRICS[m.key].header].filter(Boolean).join(' · '))),
  ];
  const levels = [...new Set(series.flatMap((s) => s.levels.map(levelValue)))].sort((a, b) => a - b);
  const rows = levels.map((c) => [
    axis.format(c),
    ...series.flatMap((s) =>
      metrics.map((m) => {
        const l = s.levels.find((x) => levelValue(x) === c);
        return l ? `${num(METRICS[m.key].value(l), METRICS[m.key].digits)}${l.invalid ? ' (invalid)' : ''}` : '—';
      }),
    ),
  ]);
  return { headers, rows };
}

function spec(id: ChartSpec['id'], title: string, yLabel: string, metrics: readonly MetricLine[], what: string): ChartSpec {
  const first = METRICS[(metrics[0] as MetricLine).key];
  return {
    id,
    title,
    subtitle: directionText(first),
    summary: (series) => rise(series, (metrics[0] as MetricLine).key, what),
    render: (series, o = {}) =>
      plotLines(chartLines(series, metrics), levelAxis(series.flatMap((x) => x.levels)).name, yLabel, rise(series, (metrics[0] as MetricLine).key, what), o),
    table: (series) => table(series, metrics),
  };
}

export const throughputChart = spec(
  'throughput',
  'Throughput against concurrency',
  'Throughput (tok/s)',
  [{ key: 'throughput', tag: null, dash: null }],
  'throughput',
);
export const perRequestChart = spec(
  'per-request',
  'Per-request rate against concurrency',
  'Per-request (tok/s, mean)',
  [{ key: 'perRequest', tag: null, dash: null }],
  'per-request rate',
);
export const ttftChart = spec(
  'ttft',
  'Time to first token against concurrency',
  'TTFT (ms)',
  [
    { key: 'ttftP50', tag: 'p50', dash: null },
    { key: 'ttftP95', tag: 'p95', dash: '3 3' },
  ],
  'TTFT',
);

/** A run sent with tools, against concurrency: the share of valid calls, and time to first tool-call token (the receipt's tool charts). */
export const toolValidChart = spec(
  'tool-valid',
  'Valid tool calls against concurrency',
  'Valid tool calls (share)',
  [{ key: 'toolValid', tag: null, dash: null }],
  'valid tool-call share',
);
export const toolTtftChart = spec(
  'tool-ttft',
  'Time to first tool-call token against concurrency',
  'First tool-call token (ms)',
  [
    { key: 'toolTtftP50', tag: 'p50', dash: null },
    { key: 'toolTtftP95', tag: 'p95', dash: '3 3' },
  ],
  'first tool-call token',
);

/** Every chart of the Benchmarks page, in page order. */
export const CHARTS: readonly ChartSpec[] = [throughputChart, perRequestChart, ttftChart];
