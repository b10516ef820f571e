/**
 * Live progress of a running sweep: two progress bars (levels, requests of
 * the level in flight) and the running throughput, labelled provisional.
 */
import type { ComponentChildren } from 'preact';
import type { RunDetail } from '../../store/index.js';
import { num } from '../view/index.js';
import type { Live } from './use-run.js';

/** One labelled progress bar, `now` of `max`, and what it says beside it. */
function Bar({ id, label, max, now, text, children }: { id: string; label: string; max: number; now: number; text: string; children: ComponentChildren }) {
  return (
    <div class="bar-row">
      <span class="bar-label" id={id}>
        {label}
      </span>
      <div role="progressbar" aria-labelledby={id} aria-valuemin={0} aria-valuemax={max} aria-valuenow={now} aria-valuetext={text} class="bar">
        <div style={{ width: `${max > 0 ? (now / max) * 100 : 0}%` }} />
      </div>
      <span class="bar-text">{children}</span>
    </div>
  );
}

export function ProgressPanel({ run, live }: { run: RunDetail; live: Live }) {
  const total = run.levelsPlanned;
  const done = live.levels.length;
  const c = live.current;
  const levelText = c ? `level ${c.index + 1} of ${c.total}, concurrency ${c.concurrency}` : `${done} of ${total} levels done`;
  return (
    <div class="progress" aria-label="Live progress">
      <Bar id="levels-bar-label" label="Levels" max={total} now={done} text={levelText}>
        {levelText}
      </Bar>
      {c && c.durationS !== undefined && (
        // A level bounded by time fills with its time; its requests are counted, not planned.
        <Bar
          id="requests-bar-label"
          label="Time"
          max={c.durationS * 1000}
          now={Math.min(c.elapsedMs, c.durationS * 1000)}
          text={`${c.done} requests in ${(c.elapsedMs / 1000).toFixed(0)} of ${c.durationS} s, ${c.failed} failed`}
        >
          {c.done} requests in {(c.elapsedMs / 1000).toFixed(0)} of {c.durationS} s · <span class={c.failed > 0 ? 'alarm' : ''}>{c.failed} failed</span> ·{' '}
          {num(c.liveTokS)} tok/s <em>(live, provisional)</em>
        </Bar>
      )}
      {c && c.durationS === undefined && (
        <Bar id="requests-bar-label" label="Requests" max={c.requests} now={c.done} text={`${c.done} of ${c.requests} requests, ${c.failed} failed`}>
          {c.done} of {c.requests} done · <span class={c.failed > 0 ? 'alarm' : ''}>{c.failed} failed</span> · {num(c.liveTokS)} tok/s{' '}
          <em>(live, provisional)</em>
        </Bar>
      )}
    </div>
  );
}
