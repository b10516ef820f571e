/**
 * One run: its identity line, status, warnings, live progress while it runs,
 * the failures summary first, then the table, the charts and the cards.
 * An interrupted run shows its finished levels but is not a result: no cards.
 */
import { useEffect } from 'preact/hooks';
import { failureSummary, identityLine, isPoolingSpec, runLabel, undrawnReason } from '../view/index.js';
import { CardsPanel } from './cards-panel.js';
import { ChartsPanel } from './charts-panel.js';
import { ClientsPanel } from './clients-panel.js';
import { DisaggPanel } from './disagg-panel.js';
import { AdaptersPanel } from './adapters-panel.js';
import { EnergyPanel } from './energy-panel.js';
import { PoolingPanels } from './pooling-panels.js';
import { ProgressPanel } from './progress-panel.js';
import { ReplayPanel } from './replay-panel.js';
import { AgentsPanel } from './agents-panel.js';
import { ToolsPanel } from './tools-panel.js';
import { ResultsTable } from './results-table.js';
import { SchedulePanel } from './schedule-panel.js';
import { SpecDecodePanel } from './spec-decode-panel.js';
import { InFlightPanel } from './in-flight-panel.js';
import { ServerViewPanel } from './server-view-panel.js';
import { FleetPanel } from './fleet-panel.js';
import { useRun } from './use-run.js';

/** A stop reason as a sentence of its own (the store's reasons end without a full stop). */
const sentence = (text: string | null) => (text === null ? '' : /[.!?]$/.test(text) ? text : `${text}.`);

const STATUS_WORDS = {
  running: 'running',
  complete: 'complete',
  stopped: 'stopped by the user',
  'server-failed': 'the server failed',
  interrupted: 'interrupted',
} as const;

export function RunView({ id, onLive, onEnded }: { id: number; onLive(id: number | null): void; onEnded(): void }) {
  const { run, live, announcement, error } = useRun(id, onEnded);
  useEffect(() => {
    onLive(run?.status === 'running' ? run.id : null);
  }, [run?.status, run?.id]);
  useEffect(() => () => onLive(null), []);
  if (error)
    return (
      <section class="panel">
        <h2>Run {id}</h2>
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!run)
    return (
      <section class="panel" aria-busy="true">
        <h2>Run {id}</h2>
        <p class="hint">Loading…</p>
      </section>
    );
  const levels = live ? live.levels : run.levels;
  const warnings = live ? live.warnings : run.warnings;
  const failures = failureSummary(levels);
  const current = live?.current ?? null;
  const spec = run.spec;
  return (
    <section class="panel" aria-labelledby="run-title">
      <h2 id="run-title">
        Run {run.id} <span class={`badge status-${run.status}`}>{STATUS_WORDS[run.status]}</span>
      </h2>
      <p class="identity">{identityLine(run)}</p>
      <p role="status" class="announce">
        {announcement}
      </p>
      {run.status === 'interrupted' && (
        <p class="banner bad">
          Interrupted — not a result. {sentence(run.stopReason)}{' '}
          {levels.length > 0
            ? 'The finished levels are below; no cards are drawn from a run that did not end.'
            : 'No level finished, so there is nothing to show.'}
        </p>
      )}
      {run.stopReason && run.status !== 'interrupted' && <p class="banner">{run.stopReason}</p>}
      {warnings.length > 0 && (
        <ul class="warnings" aria-label="Warnings">
          {warnings.map((w) => (
            <li>
              <strong>Warning:</strong> {w.message}
            </li>
          ))}
        </ul>
      )}
      {undrawnReason(spec) !== null ? (
        <p class="banner">
          {undrawnReason(spec)}: goodput runs show {run.id}, goodput runs export {run.id}.
        </p>
      ) : isPoolingSpec(spec) ? (
        <PoolingPanels spec={spec} pooling={run.pooling} live={live ? (live.poolingLevels ?? []) : null} />
      ) : (
        <>
          {live && <ProgressPanel run={run} live={live} />}
          {failures && (
            <p class="banner bad failures">
              <span aria-hidden="true">⚠ </span>
              <strong>Failed requests.</strong> {failures}
            </p>
          )}
          {(levels.length > 0 || live) && (
            <ResultsTable
              levels={levels}
              spec={spec}
              planned={live ? spec.levels : []}
              live={current && { concurrency: current.concurrency, done: current.done, requests: current.requests, failed: current.failed }}
            />
          )}
          {levels.length > 0 && <ChartsPanel series={[{ label: runLabel(run), role: 'single', levels }]} />}
          <InFlightPanel levels={levels} />
          <ServerViewPanel levels={levels} />
          <AdaptersPanel levels={levels} />
          <ClientsPanel levels={levels} />
          <EnergyPanel levels={levels} />
          <SpecDecodePanel levels={levels} />
          <DisaggPanel levels={levels} />
          <FleetPanel levels={levels} />
          <SchedulePanel levels={levels} />
          <ReplayPanel levels={levels} />
          <ToolsPanel levels={levels} />
          <AgentsPanel levels={levels} />
          {run.cards && <CardsPanel cards={run.cards} />}
        </>
      )}
    </section>
  );
}
