/**
 * An embeddings or rerank run: capacity at its latency objective when it had
 * one, then the page's own table, Charts and Cards sections drawn from the
 * pooling kind's view (web/view/pooling-view.ts: its columns, charts and
 * cards), and the failure reasons under the table.
 */
import { type PoolingLevel, poolingCapacity } from '../../core/index.js';
import type { PoolingRunSpec, StoredPooling } from '../../store/index.js';
import { kindTableMarkup, poolingCaption, poolingCardViews, poolingCharts, poolingColumns, poolingFailures } from '../view/index.js';
import { CardsPanel } from './cards-panel.js';
import { ChartGrid } from './chart-figure.js';
import { ChartsSection } from './charts-panel.js';
import { Markup } from './markup.js';

/** Everything below the run's identity and banners, for an embeddings or rerank run (stored or live). */
export function PoolingPanels({ spec, pooling, live }: { spec: PoolingRunSpec; pooling: StoredPooling | undefined; live: readonly PoolingLevel[] | null }) {
  const levels = live ?? pooling?.levels ?? [];
  if (levels.length === 0) return <p class="hint">{live ? 'No level has finished yet.' : 'No level finished.'}</p>;
  // A finished run's capacity is its result's; a live or interrupted one's is over the levels so far.
  const capacity = pooling?.result?.capacity ?? (spec.latencySlo === null ? null : poolingCapacity(levels, spec.latencySlo));
  const failures = poolingFailures(levels);
  return (
    <>
      {capacity && (
        <p class={`banner${capacity.concurrency === null ? ' bad' : ''} capacity`}>
          <strong>Capacity at SLO.</strong> {capacity.statement}
        </p>
      )}
      <Markup html={kindTableMarkup(poolingCaption(spec), poolingColumns(spec), levels)} />
      {failures.length > 0 && (
        <ul class="warnings" aria-label="Failure reasons">
          {failures.map((f) => (
            <li>
              <strong>Concurrency {f.concurrency}:</strong> {f.count} failed: {f.reason}
            </li>
          ))}
        </ul>
      )}
      <ChartsSection levels={levels.length}>
        <ChartGrid charts={poolingCharts(levels, spec.endpoint)} />
      </ChartsSection>
      <CardsPanel views={poolingCardViews(levels, spec.endpoint)} />
    </>
  );
}
