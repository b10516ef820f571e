/**
 * An embeddings or rerank run: its Engine card (peak inputs/s or documents/s
 * and input tokens/s at that concurrency), its Latency card (p50/p95/p99 at the
 * peak), capacity at its latency objective when it had one, charts of items/s
 * and latency against concurrency, and the per-level table with failures and
 * their reasons. No TTFT or per-token rate: these answers arrive whole.
 */
import { type PoolingLevel, allFailed, poolingCapacity, poolingCards } from '../../core/index.js';
import type { PoolingRunSpec, StoredPooling } from '../../store/index.js';
import { num, poolingCharts } from '../view/index.js';
import { SmallChartFigure } from './chart-figure.js';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Why no level makes a peak: each level left out with its reason (failed requests, or our own client was the bottleneck). */
function noLevelCounts(excluded: ReadonlyArray<{ concurrency: number; reason: string }>): string {
  return `Not available: no level counts (left out: ${excluded.map((e) => `${e.concurrency}, ${e.reason}`).join('; ')}).`;
}

function Cards({ levels, spec }: { levels: readonly PoolingLevel[]; spec: PoolingRunSpec }) {
  const { engine, latency } = poolingCards(levels, spec.endpoint);
  const lat = latency.latencyMs;
  return (
    <div class="cards">
      <section class="card" aria-labelledby="card-pooling-engine">
        <h4 id="card-pooling-engine">Engine</h4>
        <p class="question">How many {engine.unit} per second does this server handle at its best level?</p>
        {engine.peakItemsPerS === null ? (
          <p class="hint">{noLevelCounts(engine.excluded)}</p>
        ) : (
          <dl>
            <Fact label={`Peak ${engine.unit}/s`} value={num(engine.peakItemsPerS)} />
            <Fact label="Input tok/s at the peak" value={num(engine.peakInputTokensPerS, 0)} />
            <Fact label="At concurrency" value={String(engine.peakConcurrency)} />
            <Fact
              label="Basis"
              value={
                engine.excluded.length === 0
                  ? 'every level'
                  : `levels without failures (left out: ${engine.excluded.map((e) => `${e.concurrency}, ${e.reason}`).join('; ')})`
              }
            />
          </dl>
        )}
      </section>
      <section class="card" aria-labelledby="card-pooling-latency">
        <h4 id="card-pooling-latency">Latency</h4>
        <p class="question">How long does one request take at the peak, send to the whole answer?</p>
        {lat === null ? (
          <p class="hint">{noLevelCounts(engine.excluded)}</p>
        ) : (
          <dl>
            <Fact label="p50" value={`${num(lat.p50)} ms`} />
            <Fact label="p95" value={`${num(lat.p95)} ms`} />
            <Fact label="p99" value={`${num(lat.p99)} ms`} />
            <Fact label="At concurrency" value={String(latency.concurrency)} />
          </dl>
        )}
      </section>
    </div>
  );
}

function LevelsTable({ levels, spec }: { levels: readonly PoolingLevel[]; spec: PoolingRunSpec }) {
  const items = spec.endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s';
  const embeddings = spec.endpoint === 'embeddings';
  const cost = spec.hourlyCostUsd !== null;
  const slo = spec.latencySlo;
  const what =
    spec.endpoint === 'rerank'
      ? `a query of ${spec.queryTokens ?? '?'} tokens with ${spec.itemsPerRequest} documents of ${spec.itemTokens} tokens`
      : `${spec.itemsPerRequest} inputs of ${spec.itemTokens} tokens`;
  const failures = levels.flatMap((l) => l.failures.map((f) => ({ concurrency: l.concurrency, ...f })));
  return (
    <>
      <div class="table-wrap" role="region" tabindex={0} aria-label="Results table (scrolls sideways when wider than the window)">
        <table class="results">
          <caption>
            Per level, {spec.endpoint}: {what} per request. Latency is send to the whole answer; a level with failed requests is left out of the peak.
          </caption>
          <thead>
            <tr>
              <th scope="col">Concurrency</th>
              <th scope="col" class="num">
                Requests/s
              </th>
              <th scope="col" class="num">
                {items}
              </th>
              <th scope="col" class="num">
                Input tok/s
              </th>
              <th scope="col" class="num">
                Latency p50 (ms)
              </th>
              <th scope="col" class="num">
                p95 (ms)
              </th>
              <th scope="col" class="num">
                p99 (ms)
              </th>
              {embeddings && (
                <th scope="col" class="num">
                  Dimension
                </th>
              )}
              {cost && (
                <th scope="col" class="num">
                  $/1M input tok
                </th>
              )}
              <th scope="col" class="num">
                Failed
              </th>
              {slo && (
                <th scope="col">
                  SLO p{slo.p} ≤ {slo.maxMs} ms
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {levels.map((l) => {
              // A level where every request failed has no rates, whatever an older stored level says.
              const rate = (x: number | null, digits = 1) => (allFailed(l) ? '—' : num(x, digits));
              return (
                <tr class={l.failed > 0 ? 'invalid' : ''}>
                  <th scope="row" class="num">
                    {l.concurrency}
                  </th>
                  <td class="num">{rate(l.requestsPerS)}</td>
                  <td class="num">{rate(l.itemsPerS)}</td>
                  <td class="num">{rate(l.inputTokensPerS, 0)}</td>
                  <td class="num">{num(l.latencyMs?.p50)}</td>
                  <td class="num">{num(l.latencyMs?.p95)}</td>
                  <td class="num">{num(l.latencyMs?.p99)}</td>
                  {embeddings && <td class="num">{l.dimension === null ? '—' : String(l.dimension)}</td>}
                  {cost && <td class="num">{rate(l.costPerMInputTokensUsd, 4)}</td>}
                  <td class="num">
                    {l.failed > 0 ? (
                      <strong class="alarm">
                        <span aria-hidden="true">⚠ </span>
                        {l.failed}/{l.requests}
                        {allFailed(l) ? ' all failed' : ''}
                      </strong>
                    ) : (
                      `0/${l.requests}`
                    )}
                  </td>
                  {slo && (
                    <td>
                      {l.slo === null ? '—' : `${l.slo.holds ? 'holds' : 'misses'} (${l.slo.observedMs === null ? 'failed' : `${num(l.slo.observedMs)} ms`})`}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {failures.length > 0 && (
        <ul class="warnings" aria-label="Failure reasons">
          {failures.map((f) => (
            <li>
              <strong>Concurrency {f.concurrency}:</strong> {f.count} failed: {f.reason}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Everything below the run's identity and banners, for an embeddings or rerank run (stored or live). */
export function PoolingPanels({ spec, pooling, live }: { spec: PoolingRunSpec; pooling: StoredPooling | undefined; live: readonly PoolingLevel[] | null }) {
  const levels = live ?? pooling?.levels ?? [];
  if (levels.length === 0) return <p class="hint">{live ? 'No level has finished yet.' : 'No level finished.'}</p>;
  // A finished run's capacity is its result's; a live or interrupted one's is over the levels so far.
  const capacity = pooling?.result?.capacity ?? (spec.latencySlo === null ? null : poolingCapacity(levels, spec.latencySlo));
  return (
    <>
      {capacity && (
        <p class={`banner${capacity.concurrency === null ? ' bad' : ''} capacity`}>
          <strong>Capacity at SLO.</strong> {capacity.statement}
        </p>
      )}
      <LevelsTable levels={levels} spec={spec} />
      <section class="charts" aria-labelledby="pooling-charts-title">
        <h3 id="pooling-charts-title">Charts</h3>
        {levels.length < 2 && <p class="hint">A curve needs two or more levels; this run has one.</p>}
        <div class="chart-grid">
          {poolingCharts(levels, spec.endpoint).map((c) => (
            <div>
              <SmallChartFigure chart={c} />
            </div>
          ))}
        </div>
      </section>
      <section class="cards-panel" aria-labelledby="pooling-cards-title">
        <div class="cards-head">
          <h3 id="pooling-cards-title">Cards</h3>
        </div>
        <Cards levels={levels} spec={spec} />
      </section>
    </>
  );
}
