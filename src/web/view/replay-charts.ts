/**
 * The charts of a trace replay and of a multi-turn run, as functions of data
 * like charts.ts: the replay's arrivals, requests in flight, output tok/s and
 * SLO attainment over time (one small chart each, same x axis), and TTFT by
 * turn index (p50 solid, p95 dashed). Each has a one-line summary and its data
 * as a table.
 */
import * as Plot from '@observablehq/plot';
import type { LevelResult } from '../../core/index.js';
import { COLORS } from './chart-lines.js';
import { type SmallChart, framedPlot } from './charts.js';
import { num } from './format.js';

type Point = NonNullable<LevelResult['replaySeries']>[number];
type Turn = NonNullable<LevelResult['sessions']>['turns'][number];

const WHAT = {
  arrivals: { title: 'Arrivals', unit: 'requests/s', value: (p: Point, width: number) => p.arrivals / width },
  inFlight: { title: 'Requests in flight', unit: 'requests', value: (p: Point) => p.inFlight },
  tokS: { title: 'Output throughput', unit: 'tok/s', value: (p: Point) => p.tokS },
  attainment: { title: 'Requests meeting every SLO', unit: '%', value: (p: Point) => (p.attainment === null ? null : p.attainment * 100) },
} as const;

/** The replay's time series as small charts (attainment only when the run had SLOs). */
export function replayCharts(points: readonly Point[]): SmallChart[] {
  if (points.length === 0) return [];
  const width = points.length > 1 ? (points[1] as Point).atS - (points[0] as Point).atS : 1;
  const keys = (Object.keys(WHAT) as Array<keyof typeof WHAT>).filter((k) => k !== 'attainment' || points.some((p) => p.attainment !== null));
  return keys.map((k) => {
    const w = WHAT[k];
    const data = points.map((p) => ({ x: p.atS, y: w.value(p, width) }));
    const ys = data.map((d) => d.y).filter((y): y is number => y !== null);
    const peak = ys.length === 0 ? null : Math.max(...ys);
    const summary = `${w.title} over the replay's ${num(points.length * width, 1)} s: peak ${num(peak)} ${w.unit}, mean ${num(ys.length === 0 ? null : ys.reduce((a, b) => a + b, 0) / ys.length)} ${w.unit}.`;
    return {
      id: `replay-${k}`,
      title: w.title,
      subtitle: w.unit,
      summary,
      render: (o = {}) =>
        framedPlot(o, {
          height: 150,
          marginLeft: 56,
          marginBottom: 36,
          x: { label: 'Seconds into the replay', labelArrow: 'none' },
          y: { zero: true, grid: true, nice: true, label: w.unit, labelArrow: 'none', ...(k === 'attainment' ? { domain: [0, 100] } : {}) },
          ariaLabel: summary,
          marks: [
            Plot.ruleY([0], { stroke: '#9ca3af' }),
            Plot.line(
              data.map((d) => ({ x: d.x, y: d.y ?? NaN })),
              { x: 'x', y: 'y', stroke: COLORS.accent, strokeWidth: 2, curve: 'step-after' },
            ),
          ],
        }),
      table: { headers: ['Seconds', `${w.title} (${w.unit})`], rows: data.map((d) => [num(d.x, 1), num(d.y)]) },
    };
  });
}

/** TTFT p50 and p95 by turn index. */
export function turnsChart(turns: readonly Turn[]): SmallChart | null {
  const pts = turns.filter((t) => t.ttftMs !== null);
  if (pts.length === 0) return null;
  const first = pts[0] as Turn;
  const last = pts[pts.length - 1] as Turn;
  const summary = `TTFT p50 is ${num(first.ttftMs?.p50 ?? null)} ms at turn ${first.turn} and ${num(last.ttftMs?.p50 ?? null)} ms at turn ${last.turn}, as the conversation grows from ${num(first.promptTokensMean)} to ${num(last.promptTokensMean)} prompt tokens (mean cached: ${num(first.cachedPromptTokensMean)} to ${num(last.cachedPromptTokensMean)}).`;
  const p50 = pts.map((t) => ({ x: t.turn, y: t.ttftMs?.p50 ?? NaN }));
  const p95 = pts.map((t) => ({ x: t.turn, y: t.ttftMs?.p95 ?? NaN }));
  return {
    id: 'turns-ttft',
    title: 'Time to first token by turn',
    subtitle: 'ms · lower is better',
    summary,
    render: (o = {}) =>
      framedPlot(o, {
        height: 240,
        marginLeft: 56,
        marginBottom: 40,
        x: { ticks: pts.map((t) => t.turn), tickFormat: (d: number) => String(d), label: 'Turn', labelArrow: 'none' },
        y: { zero: true, grid: true, nice: true, label: 'TTFT (ms)', labelArrow: 'none' },
        ariaLabel: summary,
        marks: [
          Plot.ruleY([0], { stroke: '#9ca3af' }),
          Plot.line(p50, { x: 'x', y: 'y', stroke: COLORS.accent, strokeWidth: 2 }),
          Plot.dot(p50, { x: 'x', y: 'y', fill: COLORS.accent, r: 4 }),
          Plot.line(p95, { x: 'x', y: 'y', stroke: COLORS.accent, strokeWidth: 2, strokeDasharray: '3 3' }),
        ],
      }),
    table: {
      headers: ['Turn', 'Requests', 'TTFT p50 (ms)', 'TTFT p95 (ms)', 'Prompt tokens (mean)', 'Cached (mean)'],
      rows: pts.map((t) => [
        String(t.turn),
        String(t.requests),
        num(t.ttftMs?.p50 ?? null),
        num(t.ttftMs?.p95 ?? null),
        num(t.promptTokensMean, 0),
        num(t.cachedPromptTokensMean, 0),
      ]),
    },
  };
}
