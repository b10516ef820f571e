/**
 * What a run-history row says of its workload and its peak, on the run's own
 * axis: a replay's peak is at a speed, a session run's at a session rate, and
 * a run whose requests carried their own lengths is not labelled with the
 * sweep default.
 */
import { kindOfEndpoint } from '../../core/index.js';
import type { RunSummary } from '../../store/index.js';

type HistoryRun = Pick<RunSummary, 'peakConcurrency' | 'outputTokens' | 'arrivalKind' | 'promptsKind' | 'endpoint'>;

/** An embeddings or rerank run: its peak is in items per second, not output tokens. */
const isPooling = (r: Pick<RunSummary, 'endpoint'>) => r.endpoint === 'embeddings' || r.endpoint === 'rerank';

/** A row's peak rate and its unit: tok/s for text, inputs/s for embeddings, documents/s for rerank; null when there is none. */
export function historyPeakRate(r: Pick<RunSummary, 'endpoint' | 'peakThroughputTokS' | 'peakItemsPerS'>): { value: number; unit: string } | null {
  if (isPooling(r)) return r.peakItemsPerS == null ? null : { value: r.peakItemsPerS, unit: r.endpoint === 'rerank' ? 'documents/s' : 'inputs/s' };
  return r.peakThroughputTokS === null ? null : { value: r.peakThroughputTokS, unit: 'tok/s' };
}

/** "c=4", "2×", "1.5 req/s", "burst 8", "0.5 sessions/s". */
export function historyPeak(r: HistoryRun): string {
  const v = r.peakConcurrency;
  if (v === null) return '—';
  if (r.arrivalKind === 'trace') return `${v}×`;
  if (r.arrivalKind === 'rate') return r.promptsKind === 'sessions' ? `${v} sessions/s` : `${v} req/s`;
  if (r.arrivalKind === 'burst') return `burst ${v}`;
  return r.promptsKind === 'sessions' ? `${v} sessions` : `c=${v}`;
}

/** "256 tok"; "trace lengths" for a replay; "per-turn lengths" for sessions; a run of another kind than text generation: its endpoint ("embeddings"). */
export function historyWorkload(r: HistoryRun): string {
  if (kindOfEndpoint(r.endpoint) !== 'text') return r.endpoint as string;
  if (r.promptsKind === 'trace') return 'trace lengths';
  if (r.promptsKind === 'sessions') return 'per-turn lengths';
  return `${r.outputTokens} tok`;
}
