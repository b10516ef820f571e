/**
 * The run history: server, date, peak throughput and status per run; open
 * any run; tick two to compare them (the older is the baseline).
 */
import { useState } from 'preact/hooks';
import type { RunSummary } from '../../store/index.js';
import { historyPeak, historyWorkload, num, when } from '../view/index.js';
import { go } from './route.js';

export function History({ runs, shownRun }: { runs: RunSummary[] | null; shownRun: number | null }) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (id: number, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id)));
  const compare = () => {
    const [a, b] = [...picked].sort((x, y) => x - y);
    if (a !== undefined && b !== undefined) go(`#/compare/${a}/${b}`);
  };
  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title">Run history</h2>
      {runs === null ? <p class="hint">Loading…</p> : runs.length === 0 ? <p class="hint">No runs yet: start a sweep above.</p> : (
        <>
          <div class="table-wrap"><table class="history">
            <caption>Past runs, newest first. Peak throughput is over valid levels only.</caption>
            <thead><tr><th scope="col">Compare</th><th scope="col">Run</th><th scope="col">Server</th><th scope="col">Date</th><th scope="col" class="num">Peak throughput tok/s</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {runs.map((r) => {
                const server = r.serverName ?? r.targetUrl;
                return (
                  <tr class={r.id === shownRun ? 'current' : ''}>
                    <td><input type="checkbox" aria-label={`Compare run ${r.id} (${when(r.startedAt)}, ${server})`} checked={picked.includes(r.id)} onChange={(e) => toggle(r.id, (e.target as HTMLInputElement).checked)} /></td>
                    <th scope="row"><a href={`#/runs/${r.id}`} aria-current={r.id === shownRun ? 'page' : undefined}>Run {r.id}</a></th>
                    <td>{server}<span class="hint"> · {r.model ?? 'model not known'} · {historyWorkload(r)}</span></td>
                    <td>{when(r.startedAt)}</td>
                    <td class="num">{r.peakThroughputTokS === null ? '—' : `${num(r.peakThroughputTokS)} @ ${historyPeak(r)}`}</td>
                    <td><span class={`badge status-${r.status}`}>{r.status}</span> <span class="hint">{r.levelsDone}/{r.levelsPlanned} levels</span></td>
                  </tr>
                );
              })}
            </tbody>
          </table></div>
          <div class="actions">
            <button type="button" class="secondary" disabled={picked.length !== 2} onClick={compare}>Compare selected runs</button>
            <span class="hint">{picked.length === 2 ? '' : 'Tick two runs to compare them.'}</span>
          </div>
        </>
      )}
    </section>
  );
}
