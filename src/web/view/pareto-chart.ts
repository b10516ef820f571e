/**
 * The Pareto chart, drawn with Observable Plot like the page's other charts
 * (in the browser, or in Node with linkedom for the report and receipts):
 * every level a point, each run's frontier a line joining its frontier points
 * only (a footnote says so), invalid levels a red × and client-bound ones a
 * ringed point, each labelled, off the frontier. Colour and marker shape are
 * fixed by run order, the baseline grey.
 */
import * as Plot from '@observablehq/plot';
import type { ChartDocument, ChartElement, ChartOptions } from './charts.js';
import { COLORS } from './chart-lines.js';
import { num } from './format.js';
import type { ParetoModel, ParetoPoint } from './pareto.js';

/** One colour per run, baseline first (grey); each at 3:1 contrast or better on white. */
export const RUN_COLORS = ['#6b7280', '#1d4ed8', '#047857', '#7c3aed', '#be185d', '#0e7490', '#4d7c0f', '#9a3412'] as const;
const SYMBOLS = ['circle', 'square', 'triangle', 'diamond', 'star', 'cross', 'wye', 'hexagon'] as const;

export const runColor = (i: number): string => RUN_COLORS[i % RUN_COLORS.length] as string;

const COLOR_NAMES = ['grey', 'blue', 'green', 'purple', 'pink', 'teal', 'olive', 'brown'] as const;
/** "grey solid: run 1 (baseline) · blue dashed: run 2 · green dashed: run 3": what each curve's colour and dash mean. */
export const curvesLegend = (runs: ReadonlyArray<{ label: string }>): string =>
  runs.map((r, i) => `${COLOR_NAMES[i % COLOR_NAMES.length]} ${i === 0 ? 'solid' : 'dashed'}: ${r.label}${i === 0 ? ' (baseline)' : ''}`).join(' · ');

export const PARETO_TITLE = 'Throughput per GPU against speed per user';
export const paretoSubtitle = (m: ParetoModel) => `${m.per === 'GPU' ? 'output tok/s per GPU' : 'output tok/s per server (GPU count not recorded)'} · higher and further right is better`;
export const PARETO_FOOTNOTE = 'Lines join each run\'s frontier points only (no other of its valid levels is faster per user and higher per GPU); invalid and client-bound levels are drawn apart and never on a frontier.';

/** One sentence for screen readers: each run's frontier from slowest-per-user to fastest. */
export function paretoSummary(m: ParetoModel): string {
  return m.series.map((s) => {
    const f = s.frontier;
    if (f.length === 0) return `${s.label}: no valid level`;
    const a = f[0] as (typeof f)[number];
    const b = f[f.length - 1] as (typeof f)[number];
    return `${s.label}: ${num(a.y)} tok/s per ${m.per} at ${num(a.x)} tok/s per user to ${num(b.y)} at ${num(b.x)}`;
  }).join('; ') + (m.series.some((s) => s.points.some((p) => p.state !== 'valid')) ? '; invalid and client-bound levels are marked apart' : '') + '.';
}

/** How a point's plotted value is written in the table: as text by default; a receipt marks it as its published fact. */
export type ParetoCell<T> = (series: number, point: ParetoPoint, axis: 'x' | 'y') => T;

export function paretoTable(m: ParetoModel): { headers: string[]; rows: string[][] };
export function paretoTable<T>(m: ParetoModel, cell: ParetoCell<T>): { headers: string[]; rows: Array<Array<string | T>> };
export function paretoTable<T>(m: ParetoModel, cell?: ParetoCell<T>): { headers: string[]; rows: Array<Array<string | T>> } {
  const headers = ['Run', 'Level', 'tok/s per user', `Output tok/s per ${m.per}`, 'On frontier', 'State'];
  const write = cell ?? ((_: number, p: ParetoPoint, axis: 'x' | 'y') => num(p[axis]));
  const rows = m.series.flatMap((s, i) => s.points.map((p) => [s.label, String(p.level), write(i, p, 'x'), write(i, p, 'y'), s.frontier.includes(p) ? 'yes' : 'no', p.state]));
  return { headers, rows };
}

/** The narrow drawing's outer width, px: shown 1:1 in a 360 px window (24 px margins), so its text stays 10–12 px on screen. */
export const NARROW_PARETO_WIDTH = 312;

/**
 * `narrow`: for a phone's width, margins trimmed and each run's name set
 * left of its last frontier point (no right margin to hold it), text sizes
 * unchanged, so the drawing is shown at its own size rather than scaled down.
 */
export function renderPareto(m: ParetoModel, o: ChartOptions & { narrow?: boolean } = {}): ChartElement {
  const marks: Plot.Markish[] = [Plot.ruleY([0], { stroke: '#9ca3af' }), Plot.ruleX([0], { stroke: '#9ca3af' })];
  m.series.forEach((s, i) => {
    const color = runColor(i);
    const valid = s.points.filter((p) => p.state === 'valid');
    marks.push(Plot.line(s.frontier, { x: 'x', y: 'y', stroke: color, strokeWidth: 2, strokeDasharray: i === 0 ? undefined : i % 2 === 1 ? '6 3' : undefined, curve: 'linear' }));
    marks.push(Plot.dot(valid, { x: 'x', y: 'y', r: 4, symbol: SYMBOLS[i % SYMBOLS.length], fill: color, stroke: 'white', strokeWidth: 1 }));
    marks.push(Plot.text(valid, { x: 'x', y: 'y', text: (p: { level: number }) => String(p.level), dy: -10, fill: color, fontSize: o.narrow ? 11 : 10 }));
    const invalid = s.points.filter((p) => p.state === 'invalid');
    marks.push(Plot.dot(invalid, { x: 'x', y: 'y', r: 6, symbol: 'times', stroke: COLORS.invalid, strokeWidth: 2, fill: 'none' }));
    marks.push(Plot.text(invalid, { x: 'x', y: 'y', text: () => 'invalid', dy: 14, fill: COLORS.invalid, fontWeight: 'bold' }));
    const bound = s.points.filter((p) => p.state === 'client-bound');
    marks.push(Plot.dot(bound, { x: 'x', y: 'y', r: 7, stroke: COLORS.clientBound, strokeWidth: 2, fill: 'none' }));
    marks.push(Plot.text(bound, { x: 'x', y: 'y', text: () => 'client-bound', dy: 15, fill: COLORS.clientBound }));
    const last = s.frontier[s.frontier.length - 1];
    const name = o.narrow ? { dx: -8, dy: -16 - 12 * i, textAnchor: 'end' as const } : { dx: 8, dy: 4 + 12 * i, textAnchor: 'start' as const };
    if (last) marks.push(Plot.text([last], { x: 'x', y: 'y', text: () => s.label, ...name, fill: color, fontWeight: 'bold' }));
  });
  const frame = o.narrow ? { width: o.width ?? NARROW_PARETO_WIDTH, height: 280, marginLeft: 52, marginRight: 16, marginTop: 24 } : { width: o.width ?? 640, height: 300, marginLeft: 64, marginRight: 120 };
  const svg = Plot.plot({
    document: o.document as ChartDocument | undefined, ...frame, marginBottom: 44,
    style: { fontSize: '12px', fontVariantNumeric: 'tabular-nums' },
    x: { zero: true, nice: true, grid: true, label: m.xLabel, labelAnchor: 'center', labelArrow: 'none' },
    y: { zero: true, nice: true, grid: true, label: m.yLabel, labelArrow: 'none' },
    ariaLabel: paretoSummary(m), marks,
  });
  svg.setAttribute('role', 'img');
  return svg;
}
