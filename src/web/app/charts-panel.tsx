/** A run's Charts section (any kind's charts inside), and a text run's: the scaling curve (throughput and per-request, stacked on one x axis) and TTFT p50/p95. */
import type { ComponentChildren } from 'preact';
import { type ChartSeries, perRequestChart, throughputChart, ttftChart } from '../view/index.js';
import { ChartFigure } from './chart-figure.js';
import { levelValue } from '../../core/index.js';

/** The Charts section of a run with `levels` measured levels (a hint when that is too few for a curve). */
export function ChartsSection({ levels, children }: { levels: number; children: ComponentChildren }) {
  return (
    <section class="charts" aria-labelledby="charts-title">
      <h3 id="charts-title">Charts</h3>
      {levels < 2 && <p class="hint">A curve needs two or more levels; this run has one.</p>}
      {children}
    </section>
  );
}

export function ChartsPanel({ series, legend }: { series: readonly ChartSeries[]; legend?: string }) {
  const levels = new Set(series.flatMap((s) => s.levels.map(levelValue)));
  if (levels.size === 0) return null;
  return (
    <ChartsSection levels={levels.size}>
      <div class="chart-grid">
        <div class="scaling">
          <h4>Scaling curve</h4>
          <ChartFigure spec={throughputChart} series={series} legend={legend} />
          <ChartFigure spec={perRequestChart} series={series} legend={legend} />
        </div>
        <div>
          <h4>Latency</h4>
          <ChartFigure spec={ttftChart} series={series} legend={legend ?? 'solid: p50 · dashed: p95'} />
        </div>
      </div>
    </ChartsSection>
  );
}
