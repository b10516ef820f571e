/**
 * Two runs side by side: what differs in their contracts first, then both
 * tables, the deltas (only when the workloads match, worded with direction),
 * and the curves overlaid — the baseline grey and solid, the candidate blue
 * and dashed, each labelled with its configuration.
 */
import { useEffect, useState } from 'preact/hooks';
import type { RunDetail } from '../../store/index.js';
import { type CompareSide, DELTA_METRICS, METRICS, contractDiffs, deltaRows, incomparableReason, runLabel } from '../view/index.js';
import { api } from './api.js';
import { ChartsPanel } from './charts-panel.js';
import { ResultsTable } from './results-table.js';

const side = (r: RunDetail): CompareSide => ({ label: `run ${r.id}`, model: r.model, server: r.serverName ?? r.targetUrl, spec: r.spec, levels: r.levels });

export function CompareView({ a, b }: { a: number; b: number }) {
  const [runs, setRuns] = useState<[RunDetail, RunDetail] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setRuns(null);
    Promise.all([api.run(Math.min(a, b)), api.run(Math.max(a, b))]).then(([x, y]) => setRuns([x, y]), (e: Error) => setError(e.message));
  }, [a, b]);
  if (error) return <section class="panel"><h2>Compare</h2><p class="error" role="alert">{error}</p></section>;
  if (!runs) return <section class="panel" aria-busy="true"><h2>Compare</h2><p class="hint">Loading…</p></section>;
  const [base, cand] = runs;
  const diffs = contractDiffs(side(base), side(cand));
  const refused = incomparableReason(diffs);
  const rows = refused ? [] : deltaRows(side(base), side(cand));
  return (
    <section class="panel" aria-labelledby="compare-title">
      <h2 id="compare-title">Compare run {base.id} (baseline) with run {cand.id}</h2>
      <h3>What differs</h3>
      {diffs.length === 0 ? <p>The two contracts are the same.</p> : (
        <table class="diffs">
          <thead><tr><th scope="col">Field</th><th scope="col">Run {base.id} (baseline)</th><th scope="col">Run {cand.id}</th></tr></thead>
          <tbody>{diffs.map((d) => <tr><th scope="row">{d.field}</th><td>{d.baseline}</td><td>{d.candidate}</td></tr>)}</tbody>
        </table>
      )}
      {refused && <p class="banner bad">{refused}</p>}
      <div class="side-by-side">
        <ResultsTable levels={base.levels} spec={base.spec} title={`Baseline: ${runLabel(base)}`} />
        <ResultsTable levels={cand.levels} spec={cand.spec} title={`Candidate: ${runLabel(cand)}`} />
      </div>
      {rows.length > 0 && (
        <table class="deltas">
          <caption>Run {cand.id} against run {base.id} at each concurrency both measured (candidate − baseline).</caption>
          <thead><tr><th scope="col">Concurrency</th>{DELTA_METRICS.map((k) => <th scope="col">{METRICS[k].header}</th>)}</tr></thead>
          <tbody>{rows.map((r) => <tr><th scope="row" class="num">{r.concurrency}</th>{r.deltas.map((d) => <td class="num">{d.text}</td>)}</tr>)}</tbody>
        </table>
      )}
      <ChartsPanel
        series={[{ label: `run ${base.id}`, role: 'baseline', levels: base.levels }, { label: `run ${cand.id}`, role: 'candidate', levels: cand.levels }]}
        legend={`grey solid: ${runLabel(base)} (baseline) · blue dashed: ${runLabel(cand)}`}
      />
    </section>
  );
}
