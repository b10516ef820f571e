/**
 * One chart as a <figure>: title and "unit · direction" in the caption, the
 * SVG from the view module (role img, a one-line summary), and its data as a
 * table inside <details>. Redrawn when the data changes, never animated.
 */
import { useEffect, useRef } from 'preact/hooks';
import { type ChartSeries, type ChartSpec, type FigureInput, type SmallChart, figureMarkup } from '../view/index.js';
import { Markup } from './markup.js';

interface FigureProps {
  title: string;
  subtitle: string;
  legend?: FigureInput['legend'];
  footnote?: string | undefined;
  table: FigureInput['table'];
  /** Draws the SVG at a width, px. */
  draw(width: number): Element;
  /** Redrawn when one of these changes. */
  deps: readonly unknown[];
}

export function Figure({ title, subtitle, legend, footnote, table, draw, deps }: FigureProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current?.querySelector('.chart-svg');
    if (!el) return;
    el.replaceChildren(draw(Math.min(720, Math.max(320, el.clientWidth || 640))));
  }, deps);
  return (
    <div ref={host}>
      <Markup html={figureMarkup({ title, subtitle, legend, footnote, table })} />
    </div>
  );
}
/** A chart of the levels of one or more runs (charts.ts). */
export function ChartFigure({ spec, series, legend }: { spec: ChartSpec; series: readonly ChartSeries[]; legend?: string }) {
  return (
    <Figure
      title={spec.title}
      subtitle={spec.subtitle}
      legend={legend}
      table={spec.table(series)}
      draw={(width) => spec.render(series, { width })}
      deps={[spec, series]}
    />
  );
}

/** A chart of one level's series (replay-charts.ts). */
export function SmallChartFigure({ chart }: { chart: SmallChart }) {
  return (
    <Figure title={chart.title} subtitle={chart.subtitle} legend={chart.legend} table={chart.table} draw={(width) => chart.render({ width })} deps={[chart]} />
  );
}

/** Small charts side by side, each in its own cell of the grid. */
export function ChartGrid({ charts }: { charts: readonly SmallChart[] }) {
  return (
    <div class="chart-grid">
      {charts.map((c) => (
        <div key={c.id}>
          <SmallChartFigure chart={c} />
        </div>
      ))}
    </div>
  );
}
