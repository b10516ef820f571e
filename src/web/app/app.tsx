/**
 * The Benchmarks page: the form (server, levels, output tokens, thinking,
 * cost; Start and Stop), then the run being watched or read (progress, table,
 * charts, cards), then the history with compare.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { RunSummary, ServerView } from '../../store/index.js';
import { api } from './api.js';
import { CompareView } from './compare-view.js';
import { WorkersPanel } from './clients-panel.js';
import { History } from './history.js';
import { RunForm } from './run-form.js';
import { RunView } from './run-view.js';
import { go, useRoute } from './route.js';

export function App() {
  const route = useRoute();
  const [servers, setServers] = useState<ServerView[] | null>(null);
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [liveRunId, setLiveRunId] = useState<number | null>(null);

  const refreshRuns = useCallback(() => {
    api.runs().then(setRuns, (e: Error) => setLoadError(e.message));
  }, []);
  const refreshServers = useCallback(async (probe: boolean) => {
    try {
      setServers(await api.servers());
      if (probe) setServers(await api.checkServers());
    } catch (e) {
      setLoadError((e as Error).message);
    }
  }, []);
  useEffect(() => {
    void refreshServers(true);
    refreshRuns();
  }, [refreshServers, refreshRuns]);

  const shownRun = route.kind === 'run' ? route.id : route.kind === 'home' ? (runs?.[0]?.id ?? null) : null;
  return (
    <>
      <header class="top">
        <h1>Benchmarks</h1>
        <p class="lede">
          Concurrency sweeps against a running OpenAI-compatible server: one level at a time, ascending, each after a warm-up no number includes.
        </p>
      </header>
      <main>
        {loadError && (
          <p class="error" role="alert">
            {loadError}
          </p>
        )}
        <RunForm
          servers={servers}
          liveRunId={liveRunId}
          onServersChanged={(probe) => refreshServers(probe)}
          onStarted={(id) => {
            refreshRuns();
            go(`#/runs/${id}`);
          }}
        />
        {route.kind === 'compare' ? (
          <CompareView sets={route.sets} />
        ) : shownRun !== null ? (
          <RunView id={shownRun} onLive={setLiveRunId} onEnded={refreshRuns} />
        ) : (
          runs !== null && (
            <section class="panel empty">
              <h2>Results</h2>
              <p>No runs yet. Start a sweep above: pick a server, give the levels, press Start.</p>
            </section>
          )
        )}
        <WorkersPanel />
        <History runs={runs} shownRun={shownRun} />
      </main>
    </>
  );
}
