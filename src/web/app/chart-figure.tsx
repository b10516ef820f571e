/**
 * One chart as a <figure>: title and "unit · direction" in the caption, the
 * SVG from the view module (role img, a one-line summary), and its data as a
 * table inside <details>. Redrawn when the data changes, never animated.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { ChartSeries, ChartSpec } from '../view/index.js';

export function ChartFigure({ spec, series, legend }: { spec: ChartSpec; series: readonly ChartSeries[]; legend?: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    el.replaceChildren(spec.render(series, { width: Math.min(720, Math.max(360, el.clientWidth || 640)) }));
  }, [spec, series]);
  const t = spec.table(series);
  return (
    <figure class="chart">
      <figcaption>
        <strong>{spec.title}</strong>
        <span class="subtitle">{spec.subtitle}</span>
        {legend && <span class="legend">{legend}</span>}
      </figcaption>
      <div ref={host} class="chart-svg" />
      <details>
        <summary>Data table</summary>
        <table>
          <thead><tr>{t.headers.map((h) => <th scope="col">{h}</th>)}</tr></thead>
          <tbody>{t.rows.map((r) => <tr>{r.map((c, i) => (i === 0 ? <th scope="row">{c}</th> : <td class="num">{c}</td>))}</tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}
