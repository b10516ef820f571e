/**
 * What a run-history row says of its workload and its peak, on the run's own
 * axis: a replay's peak is at a speed, a session run's at a session rate, and
 * a run whose requests carried their own lengths is not labelled with the
 * sweep default.
 */
import type { RunSummary } from '../../store/index.js';

type HistoryRun = Pick<RunSummary, 'peakConcurrency' | 'outputTokens' | 'arrivalKind' | 'promptsKind'>;

/** "c=4", "2×", "1.5 req/s", "burst 8", "0.5 sessions/s". */
export function historyPeak(r: HistoryRun): string {
  const v = r.peakConcurrency;
  if (v === null) return '—';
  if (r.arrivalKind === 'trace') return `${v}×`;
  if (r.arrivalKind === 'rate') return r.promptsKind === 'sessions' ? `${v} sessions/s` : `${v} req/s`;
  if (r.arrivalKind === 'burst') return `burst ${v}`;
  return r.promptsKind === 'sessions' ? `${v} sessions` : `c=${v}`;
}

/** "256 tok"; "trace lengths" for a replay; "per-turn lengths" for sessions. */
export function historyWorkload(r: HistoryRun): string {
  if (r.promptsKind === 'trace') return 'trace lengths';
  if (r.promptsKind === 'sessions') return 'per-turn lengths';
  return `${r.outputTokens} tok`;
}
