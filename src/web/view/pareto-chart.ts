/**
 * The Pareto chart, drawn with Observable Plot like the page's other charts
 * (in the browser, or in Node with linkedom for the report and receipts):
 * every level a point, each run's frontier a line joining its frontier points
 * only (a footnote says so), invalid levels a × and client-bound ones a ring
 * in their run's colour, off the frontier. Colour and marker shape are fixed
 * by run order, the baseline grey; a legend says whose each is. Labels are
 * placed so that none overlaps another or a point.
 */
import * as Plot from '@observablehq/plot';
import type { ChartDocument, ChartElement, ChartOptions } from './charts.js';
import { num } from './format.js';
import { placeLabels } from './label-placement.js';
import type { ParetoModel, ParetoPoint } from './pareto.js';

/** One colour per run, baseline first (grey); each at 3:1 contrast or better on white. */
export const RUN_COLORS = ['#6b7280', '#1d4ed8', '#047857', '#7c3aed', '#be185d', '#0e7490', '#4d7c0f', '#9a3412'] as const;
const SYMBOLS = ['circle', 'square', 'triangle', 'diamond', 'star', 'cross', 'wye', 'hexagon'] as const;

export const runColor = (i: number): string => RUN_COLORS[i % RUN_COLORS.length] as string;

export const COLOR_NAMES = ['grey', 'blue', 'green', 'purple', 'pink', 'teal', 'olive', 'brown'] as const;
/** "grey solid: run 1 (baseline) · blue dashed: run 2 · green dashed: run 3": what each curve's colour and dash mean. */
export const curvesLegend = (runs: ReadonlyArray<{ label: string }>): string =>
  runs.map((r, i) => `${COLOR_NAMES[i % COLOR_NAMES.length]} ${i === 0 ? 'solid' : 'dashed'}: ${r.label}${i === 0 ? ' (baseline)' : ''}`).join(' · ');

const SYMBOL_GLYPHS = ['●', '■', '▲', '◆', '★', '✚', 'Y', '⬢'] as const;

/** The chart's title, per GPU or per server as its axis says. */
export const paretoTitle = (m: Pick<ParetoModel, 'per'>) => `Throughput per ${m.per} against speed per user`;
export const paretoSubtitle = (m: ParetoModel) =>
  `${m.per === 'GPU' ? 'output tok/s per GPU' : 'output tok/s per server (GPU count not recorded)'} · higher and further right is better`;
/** Whose each colour and marker is, and what a ring and a cross mean (drawn in the run's colour). */
export function paretoLegend(m: ParetoModel): string {
  const states = new Set(m.series.flatMap((s) => s.points.map((p) => p.state)));
  return [
    m.series
      .map((s, i) => `${COLOR_NAMES[i % COLOR_NAMES.length]} ${SYMBOL_GLYPHS[i % SYMBOL_GLYPHS.length]}: ${s.label}${i === 0 ? ' (baseline)' : ''}`)
      .join(' · '),
    ...(states.has('client-bound') ? ["a ring ○ in a run's colour: its client-bound level"] : []),
    ...(states.has('invalid') ? ["a cross × in a run's colour: its invalid level"] : []),
  ].join('; ');
}
export const PARETO_FOOTNOTE =
  "Lines join each run's frontier points only (no other of its valid levels is both faster per user and higher in throughput); invalid and client-bound levels are drawn apart and never on a frontier.";

/** One sentence for screen readers: each run's frontier from slowest-per-user to fastest. */
export function paretoSummary(m: ParetoModel): string {
  return (
    m.series
      .map((s) => {
        const f = s.frontier;
        if (f.length === 0) return `${s.label}: no valid level`;
        const a = f[0] as (typeof f)[number];
        const b = f[f.length - 1] as (typeof f)[number];
        return `${s.label}: ${num(a.y)} tok/s per ${m.per} at ${num(a.x)} tok/s per user to ${num(b.y)} at ${num(b.x)}`;
      })
      .join('; ') +
    (m.series.some((s) => s.points.some((p) => p.state !== 'valid')) ? '; invalid and client-bound levels are marked apart' : '') +
    '.'
  );
}

/** How a point's plotted value is written in the table: as text by default; a receipt marks it as its published fact. */
export type ParetoCell<T> = (series: number, point: ParetoPoint, axis: 'x' | 'y') => T;

export function paretoTable(m: ParetoModel): { headers: string[]; rows: string[][] };
export function paretoTable<T>(m: ParetoModel, cell: ParetoCell<T>): { headers: string[]; rows: Array<Array<string | T>> };
export function paretoTable<T>(m: ParetoModel, cell?: ParetoCell<T>): { headers: string[]; rows: Array<Array<string | T>> } {
  const headers = ['Run', 'Level', 'tok/s per user', `Output tok/s per ${m.per}`, 'On frontier', 'State'];
  const write = cell ?? ((_: number, p: ParetoPoint, axis: 'x' | 'y') => num(p[axis]));
  const rows = m.series.flatMap((s, i) =>
    s.points.map((p) => [s.label, String(p.level), write(i, p, 'x'), write(i, p, 'y'), s.frontier.includes(p) ? 'yes' : 'no', p.state]),
  );
  return { headers, rows };
}

const WIDTH = 640;
const HEIGHT = 300;
const MARGIN = { top: 24, right: 120, bottom: 44, left: 64 } as const;

/** The narrow drawing's outer width, px: shown 1:1 in a 360 px window (24 px margins), so its text stays 10–12 px on screen. */
export const NARROW_PARETO_WIDTH = 312;
const NARROW = { height: 280, margin: { top: 24, right: 16, bottom: 44, left: 52 } } as const;

/** A point as drawn: its series, state and the label it carries (its level, or what it is when not valid). */
interface Drawn {
  series: number;
  x: number;
  y: number;
  label: string;
  bold: boolean;
}

/**
 * `narrow`: for a phone's width, margins trimmed (labels are placed inside the
 * plot, so no right margin is needed for run names), text sizes unchanged, so
 * the drawing is shown at its own size rather than scaled down.
 */
export function renderPareto(m: ParetoModel, o: ChartOptions & { narrow?: boolean } = {}): ChartElement {
  const width = o.width ?? (o.narrow ? NARROW_PARETO_WIDTH : WIDTH);
  const height = o.narrow ? NARROW.height : HEIGHT;
  const margin = o.narrow ? NARROW.margin : MARGIN;
  const all = m.series.flatMap((s) => s.points);
  // The scales fixed here (niced as Plot would) so labels can be placed in pixels before drawing.
  const sx = Plot.scale({ x: { domain: [0, Math.max(0, ...all.map((p) => p.x)) || 1], nice: true, range: [margin.left, width - margin.right] } });
  const sy = Plot.scale({ y: { domain: [0, Math.max(0, ...all.map((p) => p.y)) || 1], nice: true, range: [height - margin.bottom, margin.top] } });
  const px = (v: number) => sx.apply(v) as number;
  const py = (v: number) => sy.apply(v) as number;
  const marks: Plot.Markish[] = [Plot.ruleY([0], { stroke: '#9ca3af' }), Plot.ruleX([0], { stroke: '#9ca3af' })];
  const names: Drawn[] = [];
  const levels: Drawn[] = [];
  m.series.forEach((s, i) => {
    const color = runColor(i);
    const valid = s.points.filter((p) => p.state === 'valid');
    marks.push(
      Plot.line(s.frontier, {
        x: 'x',
        y: 'y',
        stroke: color,
        strokeWidth: 2,
        strokeDasharray: i === 0 ? undefined : i % 2 === 1 ? '6 3' : undefined,
        curve: 'linear',
      }),
    );
    marks.push(Plot.dot(valid, { x: 'x', y: 'y', r: 4, symbol: SYMBOLS[i % SYMBOLS.length], fill: color, stroke: 'white', strokeWidth: 1 }));
    // Invalid and client-bound levels in their run's colour, so each says whose it is (the legend says what the shape means).
    marks.push(
      Plot.dot(
        s.points.filter((p) => p.state === 'invalid'),
        { x: 'x', y: 'y', r: 6, symbol: 'times', stroke: color, strokeWidth: 2.5, fill: 'none' },
      ),
    );
    marks.push(
      Plot.dot(
        s.points.filter((p) => p.state === 'client-bound'),
        { x: 'x', y: 'y', r: 7, stroke: color, strokeWidth: 2, fill: 'none' },
      ),
    );
    for (const p of s.points) levels.push({ series: i, x: p.x, y: p.y, label: p.state === 'valid' ? String(p.level) : p.state, bold: p.state === 'invalid' });
    const last = s.frontier[s.frontier.length - 1];
    if (last) names.push({ series: i, x: last.x, y: last.y, label: s.label, bold: true });
  });
  // Run names first (they matter most), then each point's label; none overlaps another or a point.
  const drawn = [...names, ...levels];
  const placed = placeLabels(
    drawn.map((d) => ({ px: px(d.x), py: py(d.y), text: d.label, fontSize: d.bold || o.narrow ? 11 : 10 })),
    all.map((p) => ({ px: px(p.x), py: py(p.y) })),
    { x0: 0, y0: 0, x1: width, y1: height - margin.bottom + 12 },
  );
  for (const l of placed) {
    const d = drawn[l.index] as Drawn;
    marks.push(
      Plot.text([{ x: sx.invert?.(l.x) as number, y: sy.invert?.(l.y) as number }], {
        x: 'x',
        y: 'y',
        text: () => l.text,
        textAnchor: l.anchor,
        lineAnchor: 'bottom',
        fill: runColor(d.series),
        fontSize: l.fontSize,
        fontWeight: d.bold ? 'bold' : 'normal',
      }),
    );
  }
  const svg = Plot.plot({
    document: o.document as ChartDocument | undefined,
    width,
    height,
    marginTop: margin.top,
    marginLeft: margin.left,
    marginRight: margin.right,
    marginBottom: margin.bottom,
    style: { fontSize: '12px', fontVariantNumeric: 'tabular-nums' },
    x: { domain: sx.domain, grid: true, label: m.xLabel, labelAnchor: 'center', labelArrow: 'none' },
    y: { domain: sy.domain, grid: true, label: m.yLabel, labelArrow: 'none' },
    ariaLabel: paretoSummary(m),
    marks,
  });
  svg.setAttribute('role', 'img');
  return svg;
}
