/**
 * 2–8 runs compared (the first is the baseline): what differs in their
 * contracts first, one table aligned on the level axis with a column group
 * per run, each run's differences from the baseline with their intervals,
 * the Pareto chart with the capacity answer at a target speed per user, and
 * the curves overlaid. Tables and figures are the view module's markup, the
 * same `goodput report` writes.
 */
import { Fragment } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  type CompareRun,
  capacityAt,
  compareRunOf,
  curvesLegend,
  DECISION_TITLE,
  decisionMarkup,
  decisionView,
  runColor,
  capacityMarkup,
  compareRuns,
  compareTableMarkup,
  contractDiffsMarkup,
  defaultTarget,
  differencesMarkup,
  sideTableMarkup,
  sideTables,
  drawnMarkup,
  paretoFigure,
  qualityMarkup,
  paretoModel,
  renderPareto,
  repeatSetLabel,
  repeatSetProblem,
  repeatSetsProblem,
} from '../view/index.js';
import { api } from './api.js';
import { Figure } from './chart-figure.js';
import { ChartsPanel } from './charts-panel.js';
import { Markup } from './markup.js';

/** One compared configuration: a stored run, or a repeat set of stored runs of one contract (the first run, the others its repeats). */
async function load(ids: readonly number[]): Promise<CompareRun> {
  const members = await Promise.all(
    ids.map(async (id, i) => {
      const [result, records] = await Promise.all([api.result(id), i === 0 ? api.records(id) : Promise.resolve(undefined)]);
      return { id: String(id), result, records };
    }),
  );
  const problem = ids.length > 1 ? repeatSetProblem(ids.join('+'), members) : null;
  if (problem !== null) throw new Error(problem);
  const [first, ...rest] = members as [(typeof members)[number], ...typeof members];
  const run = compareRunOf(repeatSetLabel(ids), { ...first.result, records: first.records });
  return rest.length > 0 ? { ...run, repeats: rest.map((m) => ({ levels: m.result.levels })) } : run;
}

export function CompareView({ sets }: { sets: number[][] }) {
  const [runs, setRuns] = useState<CompareRun[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const key = sets.map((s) => s.join('+')).join('/');
  useEffect(() => {
    setRuns(null);
    setError(null);
    // A set past the limit, or a run named twice, is refused before any run is fetched.
    const problem = repeatSetsProblem(sets);
    if (problem !== null) {
      setError(`Cannot compare: ${problem}`);
      return;
    }
    Promise.all(sets.map(load)).then(setRuns, (e: Error) => setError(`Cannot compare: ${e.message}`));
  }, [key]);
  const model = useMemo(() => (runs ? { cmp: compareRuns(runs), pareto: paretoModel(runs), decision: decisionView(runs) } : null), [runs]);
  const title = `Compare runs ${sets.map((s) => s.join('+')).join(', ')}`;
  if (error)
    return (
      <section class="panel">
        <h2>{title}</h2>
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!runs || !model)
    return (
      <section class="panel" aria-busy="true">
        <h2>{title}</h2>
        <p class="hint">Loading…</p>
      </section>
    );
  const { cmp, pareto, decision } = model;
  const at = target ?? defaultTarget(pareto);
  const answer = at === null ? null : capacityAt(pareto, at);
  return (
    <section class="panel compare-view" aria-labelledby="compare-title">
      <h2 id="compare-title">{title}</h2>
      <p class="hint">{runs[0]?.label} is the baseline: every difference is another run minus it.</p>
      {decision && (
        <>
          <h3 id="decision-title">{DECISION_TITLE}</h3>
          <Markup html={decisionMarkup(decision)} class="decision" />
        </>
      )}
      <h3>What differs</h3>
      <Markup html={contractDiffsMarkup(cmp)} />
      <h3>Side by side</h3>
      {cmp.drawn.length > 0 && <Markup html={drawnMarkup(cmp)} />}
      <Markup html={compareTableMarkup(cmp)} />
      <h3>Differences from {runs[0]?.label}</h3>
      <Markup html={differencesMarkup(cmp)} />
      {sideTables(cmp).map((t) => (
        <Fragment key={t.key}>
          <h3>{t.title}</h3>
          <Markup html={sideTableMarkup(cmp, t)} />
        </Fragment>
      ))}
      {cmp.quality && (
        <>
          <h3>Quality</h3>
          <Markup html={qualityMarkup(cmp)} />
        </>
      )}
      <h3>Pareto view and capacity</h3>
      <div class="pareto">
        <Figure {...paretoFigure(pareto)} draw={(width) => renderPareto(pareto, { width })} deps={[pareto]} />
        <div class="capacity-answer">
          <label for="target">Target tok/s per user</label>
          <input
            id="target"
            type="number"
            min="0"
            step="any"
            value={at ?? ''}
            onChange={(e) => {
              const v = Number((e.target as HTMLInputElement).value);
              if (Number.isFinite(v) && v > 0) setTarget(v);
            }}
          />
          <Markup html={capacityMarkup(pareto, answer)} />
        </div>
      </div>
      <ChartsPanel
        series={runs.map((r, i) => ({ label: r.label, role: i === 0 ? 'baseline' : 'candidate', levels: r.levels, color: runColor(i) }))}
        legend={curvesLegend(runs)}
      />
    </section>
  );
}
