/**
 * Live progress of a running sweep: two progress bars (levels, requests of
 * the level in flight) and the running throughput, labelled provisional.
 */
import type { RunDetail } from '../../store/index.js';
import { num } from '../view/index.js';
import type { Live } from './use-run.js';

export function ProgressPanel({ run, live }: { run: RunDetail; live: Live }) {
  const total = run.levelsPlanned;
  const done = live.levels.length;
  const c = live.current;
  const levelText = c ? `level ${c.index + 1} of ${c.total}, concurrency ${c.concurrency}` : `${done} of ${total} levels done`;
  return (
    <div class="progress" aria-label="Live progress">
      <div class="bar-row">
        <span class="bar-label" id="levels-bar-label">
          Levels
        </span>
        <div
          role="progressbar"
          aria-labelledby="levels-bar-label"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={done}
          aria-valuetext={levelText}
          class="bar"
        >
          <div style={{ width: `${total > 0 ? (done / total) * 100 : 0}%` }} />
        </div>
        <span class="bar-text">{levelText}</span>
      </div>
      {c && (
        <div class="bar-row">
          <span class="bar-label" id="requests-bar-label">
            Requests
          </span>
          <div
            role="progressbar"
            aria-labelledby="requests-bar-label"
            aria-valuemin={0}
            aria-valuemax={c.requests}
            aria-valuenow={c.done}
            aria-valuetext={`${c.done} of ${c.requests} requests, ${c.failed} failed`}
            class="bar"
          >
            <div style={{ width: `${c.requests > 0 ? (c.done / c.requests) * 100 : 0}%` }} />
          </div>
          <span class="bar-text">
            {c.done} of {c.requests} done · <span class={c.failed > 0 ? 'alarm' : ''}>{c.failed} failed</span> · {num(c.liveTokS)} tok/s{' '}
            <em>(live, provisional)</em>
          </span>
        </div>
      )}
    </div>
  );
}
