/**
 * One chart as a <figure>: title and "unit · direction" in the caption, the
 * SVG from the view module (role img, a one-line summary), and its data as a
 * table inside <details>. Redrawn when the data changes, never animated.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { ChartSeries, ChartSpec, SmallChart } from '../view/index.js';

interface FigureProps {
  title: string;
  subtitle: string;
  legend?: string | undefined;
  table: { headers: string[]; rows: string[][] };
  /** Draws the SVG at a width, px. */
  draw(width: number): Element;
  /** Redrawn when one of these changes. */
  deps: readonly unknown[];
}

function Figure({ title, subtitle, legend, table, draw, deps }: FigureProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    el.replaceChildren(draw(Math.min(720, Math.max(360, el.clientWidth || 640))));
  }, deps);
  return (
    <figure class="chart">
      <figcaption>
        <strong>{title}</strong>
        <span class="subtitle">{subtitle}</span>
        {legend && <span class="legend">{legend}</span>}
      </figcaption>
      <div ref={host} class="chart-svg" />
      <details>
        <summary>Data table</summary>
        <table>
          <thead><tr>{table.headers.map((h) => <th scope="col">{h}</th>)}</tr></thead>
          <tbody>{table.rows.map((r) => <tr>{r.map((c, i) => (i === 0 ? <th scope="row">{c}</th> : <td class="num">{c}</td>))}</tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}

/** A chart of the levels of one or more runs (charts.ts). */
export function ChartFigure({ spec, series, legend }: { spec: ChartSpec; series: readonly ChartSeries[]; legend?: string }) {
  return <Figure title={spec.title} subtitle={spec.subtitle} legend={legend} table={spec.table(series)} draw={(width) => spec.render(series, { width })} deps={[spec, series]} />;
}

/** A chart of one level's series (replay-charts.ts). */
export function SmallChartFigure({ chart }: { chart: SmallChart }) {
  return <Figure title={chart.title} subtitle={chart.subtitle} table={chart.table} draw={(width) => chart.render({ width })} deps={[chart]} />;
}
