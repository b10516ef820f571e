/**
 * Chart data: each run's levels as lines of points (x = concurrency), one
 * line per run and statistic, with invalid and client-bound levels marked.
 * Colours are fixed by role: the baseline grey, the run or candidate accent.
 */
import { type AxisLevel, levelValue } from '../../core/index.js';
import { METRICS, type MetricKey, type MetricLevel } from './metrics.js';

/** What a chart reads of a level: its metrics, its concurrency and whether it is valid. */
export interface ChartLevel extends MetricLevel, AxisLevel {
  concurrency: number;
  invalid: boolean;
  clientBound: { bound: boolean };
}

/** One run on a chart. */
export interface ChartSeries {
  /** Shown beside its lines, e.g. "run 3". */
  label: string;
  /** `single`: the only run; in a comparison the older run is the baseline. */
  role: 'single' | 'baseline' | 'candidate';
  levels: readonly ChartLevel[];
  /** A colour of its own (several candidates compared); by role otherwise. */
  color?: string;
}

export interface ChartPoint {
  concurrency: number;
  /** The level's figure; null when it has none (no successful request). */
  value: number | null;
  invalid: boolean;
  clientBound: boolean;
}

export interface ChartLine {
  label: string;
  color: string;
  /** SVG dash pattern; null for solid. */
  dash: string | null;
  /** Marker shape, repeating what the colour says. */
  symbol: 'circle' | 'square';
  points: ChartPoint[];
}

/** Colours at 3:1 contrast or better on white. */
export const COLORS = { accent: '#1d4ed8', baseline: '#6b7280', invalid: '#b91c1c', clientBound: '#b45309' } as const;

/** Where a level of any kind sits on a chart: its x and how it is marked. */
export type LevelPlace = Omit<ChartPoint, 'value'>;

/** A text level's place: x is its own value on its axis (a replay's speed, not the peak it reached in flight). */
export const levelPlace = (l: ChartLevel): LevelPlace => ({ concurrency: levelValue(l), invalid: l.invalid, clientBound: l.clientBound.bound });

/** One line of `value` over the levels of any kind, in x order; unstyled parts are the accent colour with circles. */
export function levelLine<L>(
  levels: readonly L[],
  place: (l: L) => LevelPlace,
  style: Pick<ChartLine, 'label' | 'dash'> & Partial<Pick<ChartLine, 'color' | 'symbol'>>,
  value: (l: L) => number | null,
): ChartLine {
  const points = levels.map((l) => ({ ...place(l), value: value(l) })).sort((a, b) => a.concurrency - b.concurrency);
  return { color: COLORS.accent, symbol: 'circle', ...style, points };
}

/** Lines of `metrics` (each with a tag such as "p95", and a dash) for every series. */
export function chartLines(series: readonly ChartSeries[], metrics: ReadonlyArray<{ key: MetricKey; tag: string | null; dash: string | null }>): ChartLine[] {
  return series.flatMap((s) =>
    metrics.map((m) =>
      levelLine(
        s.levels,
        levelPlace,
        {
          label: [series.length > 1 ? s.label : null, metrics.length > 1 ? m.tag : null].filter(Boolean).join(' · '),
          color: s.color ?? (s.role === 'baseline' ? COLORS.baseline : COLORS.accent),
          dash: s.role === 'candidate' && m.dash === null ? '6 4' : m.dash,
          symbol: s.role === 'candidate' ? 'square' : 'circle',
        },
        (l) => METRICS[m.key].value(l),
      ),
    ),
  );
}

/** Every measured concurrency across the lines, ascending: the x ticks. */
export function measuredLevels(lines: readonly ChartLine[]): number[] {
  return [...new Set(lines.flatMap((l) => l.points.map((p) => p.concurrency)))].sort((a, b) => a - b);
}
