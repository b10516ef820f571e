/**
 * The run history: server, date, peak throughput and status per run; open
 * any run; tick 2 to 8 to compare them (the oldest is the baseline).
 */
import { useState } from 'preact/hooks';
import type { RunSummary } from '../../store/index.js';
import { COMPARE_MAX_RUNS, COMPARE_MIN_RUNS, historyPeak, historyPeakRate, historyWorkload, num, when } from '../view/index.js';
import { go } from './route.js';

export function History({ runs, shownRun }: { runs: RunSummary[] | null; shownRun: number | null }) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (id: number, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-COMPARE_MAX_RUNS) : p.filter((x) => x !== id)));
  const ready = picked.length >= COMPARE_MIN_RUNS;
  const compare = () => {
    if (ready) go(`#/compare/${[...picked].sort((x, y) => x - y).join('/')}`);
  };
  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title">Run history</h2>
      {runs === null ? (
        <p class="hint">Loading…</p>
      ) : runs.length === 0 ? (
        <p class="hint">No runs yet: start a sweep above.</p>
      ) : (
        <>
          <div class="table-wrap" role="region" tabindex={0} aria-label="Run history (scrolls sideways when wider than the window)">
            <table class="history">
              <caption>
                Past runs, newest first. Peak throughput is over valid levels only: output tok/s, or inputs/s (documents/s) for embeddings (rerank).
              </caption>
              <thead>
                <tr>
                  <th scope="col">Compare</th>
                  <th scope="col">Run</th>
                  <th scope="col">Server</th>
                  <th scope="col">Date</th>
                  <th scope="col" class="num">
                    Peak
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((r) => {
                  const server = r.serverName ?? r.targetUrl;
                  const peak = historyPeakRate(r);
                  return (
                    <tr class={r.id === shownRun ? 'current' : ''}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Compare run ${r.id} (${when(r.startedAt)}, ${server})`}
                          checked={picked.includes(r.id)}
                          onChange={(e) => toggle(r.id, (e.target as HTMLInputElement).checked)}
                        />
                      </td>
                      <th scope="row">
                        <a href={`#/runs/${r.id}`} aria-current={r.id === shownRun ? 'page' : undefined}>
                          Run {r.id}
                        </a>
                      </th>
                      <td>
                        {server}
                        <span class="hint">
                          {' '}
                          · {r.model ?? 'model not known'} · {historyWorkload(r)}
                        </span>
                      </td>
                      <td>{when(r.startedAt)}</td>
                      <td class="num">{peak === null ? '—' : `${num(peak.value)} ${peak.unit} @ ${historyPeak(r)}`}</td>
                      <td>
                        <span class={`badge status-${r.status}`}>{r.status}</span>{' '}
                        <span class="hint">
                          {r.levelsDone}/{r.levelsPlanned} levels
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div class="actions">
            <button type="button" class="secondary" disabled={!ready} onClick={compare}>
              Compare selected runs
            </button>
            <span class="hint">
              {ready ? `${picked.length} runs picked; the oldest is the baseline.` : `Tick ${COMPARE_MIN_RUNS} to ${COMPARE_MAX_RUNS} runs to compare them.`}
            </span>
          </div>
        </>
      )}
    </section>
  );
}
