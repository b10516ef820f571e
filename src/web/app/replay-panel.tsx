/** A trace replay's time series and a multi-turn run's TTFT by turn, per level, as small charts with their data tables. */
import type { LevelResult } from '../../core/index.js';
import { replayCharts, turnsChart } from '../view/index.js';
import { SmallChartFigure } from './chart-figure.js';

export function ReplayPanel({ levels }: { levels: readonly LevelResult[] }) {
  const parts = levels.flatMap((l) => {
    const label = l.load?.label ?? `concurrency ${l.concurrency}`;
    const replay = replayCharts(l.replaySeries ?? []);
    const turns = l.sessions ? turnsChart(l.sessions.turns) : null;
    return [
      ...(replay.length > 0 ? [{ key: `r${l.concurrency}`, title: `Replay over time: ${label}`, charts: replay }] : []),
      ...(turns ? [{ key: `t${l.concurrency}`, title: `Turns: ${label}`, charts: [turns] }] : []),
    ];
  });
  if (parts.length === 0) return null;
  return (
    <section class="charts" aria-labelledby="replay-title">
      <h3 id="replay-title">Over time and by turn</h3>
      {parts.map((p) => (
        <div key={p.key}>
          <h4>{p.title}</h4>
          {p.charts.map((c) => (
            <SmallChartFigure chart={c} />
          ))}
        </div>
      ))}
    </section>
  );
}
