/**
 * Bar charts of one figure across configurations (the receipt's charts):
 * one unit per chart, bars from 0 carrying their values, the baseline grey and
 * first, the direction said in the subtitle. Drawn with Observable Plot, so the
 * browser and Node (linkedom's document) get the same SVG.
 */
import * as Plot from '@observablehq/plot';
import { COLORS } from './chart-lines.js';
import type { ChartElement, ChartOptions } from './charts.js';
import { num } from './format.js';
import type { Direction } from './metrics.js';

/** One bar: a configuration's value of the figure (null: not recorded, drawn as text only). */
export interface Bar {
  /** The configuration identity shown beside the bar. */
  label: string;
  role: 'baseline' | 'candidate';
  value: number | null;
}

/** One chart: one figure, one statistic, one unit. */
export interface BarChartInput {
  /** The figure, e.g. "Peak throughput". */
  label: string;
  unit: string;
  statistic: string;
  direction: Direction | null;
  digits: number;
  bars: readonly Bar[];
}

/** Baseline bars first, whatever order they came in. */
function ordered(bars: readonly Bar[]): Bar[] {
  return [...bars].sort((a, b) => (a.role === b.role ? 0 : a.role === 'baseline' ? -1 : 1));
}

/** "tok/s · peak over the valid levels tested · higher is better". */
export function barSubtitle(c: BarChartInput): string {
  return [c.unit, c.statistic, c.direction === null ? null : `${c.direction} is better`].filter(Boolean).join(' · ');
}

/** One sentence for screen readers: every bar with its value. */
export function barSummary(c: BarChartInput): string {
  const parts = ordered(c.bars).map((b) => `${b.label}: ${b.value === null ? 'not recorded' : `${num(b.value, c.digits)} ${c.unit}`}`);
  return `${c.label} (${c.statistic}) by configuration; ${parts.join('; ')}.`;
}

export function barChart(c: BarChartInput, o: ChartOptions = {}): ChartElement {
  const bars = ordered(c.bars);
  const drawn = bars.filter((b) => b.value !== null);
  const max = Math.max(0, ...drawn.map((b) => b.value as number));
  const svg = Plot.plot({
    document: o.document,
    width: o.width ?? 640,
    height: 60 + 44 * bars.length,
    marginLeft: 230,
    marginRight: 90,
    marginBottom: 40,
    style: { fontSize: '12px', fontVariantNumeric: 'tabular-nums' },
    x: { domain: [0, max === 0 ? 1 : max * 1.05], grid: true, nice: true, label: `${c.label} (${c.unit})`, labelAnchor: 'center', labelArrow: 'none' },
    y: { domain: bars.map((b) => b.label), label: null },
    ariaLabel: barSummary(c),
    marks: [
      Plot.barX(drawn, { x1: 0, x2: 'value', y: 'label', fill: (b: Bar) => (b.role === 'baseline' ? COLORS.baseline : COLORS.accent) }),
      Plot.ruleX([0], { stroke: '#111827' }),
      Plot.text(bars, {
        x: (b: Bar) => b.value ?? 0,
        y: 'label',
        dx: 6,
        textAnchor: 'start',
        fill: '#111827',
        fontWeight: 'bold',
        text: (b: Bar) => (b.value === null ? 'not recorded' : num(b.value, c.digits)),
      }),
    ],
  });
  svg.setAttribute('role', 'img');
  return svg;
}
