/**
 * Who sent a run's levels: each level split over client threads or worker
 * processes, one row per client with its share and its own verdict; and the
 * live workers a sweep can be split over.
 */
import type { LevelResult } from '../../core/index.js';
import type { WorkerView } from '../../store/index.js';
import { num } from './format.js';

export const CLIENT_HEADERS = [
  'Level',
  'Client',
  'Requests',
  'Busy %',
  'Loop delay p99 ms',
  'Send lateness p99 ms',
  'Clock vs database ms',
  'Verdict',
] as const;

/** One row per client of every split level, in level order. */
export function clientRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) =>
    (l.shares ?? []).map((s) => [
      l.load?.label ?? `${l.concurrency} streams`,
      s.label,
      String(s.requests),
      num(s.clientCpuPct, 0),
      num(s.loopDelayMs?.p99, 2),
      num(s.sendLatenessMs?.p99, 2),
      s.clockToDb ? `${s.clockToDb.offsetMs >= 0 ? '+' : ''}${num(s.clockToDb.offsetMs, 2)} ±${num(s.clockToDb.uncertaintyMs, 2)}` : '—',
      s.lost ? `lost: ${s.lost}` : s.bound ? `client-bound: ${s.reason ?? ''}` : 'ok',
    ]),
  );
}

export const WORKER_HEADERS = ['Worker', 'Host', 'Cores', 'Sending', 'Clock vs database ms', 'Last seen'] as const;

/** A live worker's row: what it sends now (`level L, share i`) or idle. */
export function workerRows(workers: readonly WorkerView[]): string[][] {
  return workers.map((w) => {
    const [, level, index] = w.share?.split('/') ?? [];
    return [
      w.name,
      w.host,
      String(w.cores),
      w.share === null ? 'idle' : `level ${level}, share ${Number(index) + 1}`,
      w.clockOffsetMs === null ? '—' : `${w.clockOffsetMs >= 0 ? '+' : ''}${num(w.clockOffsetMs, 2)}`,
      `${num(w.seenMsAgo / 1000, 1)} s ago`,
    ];
  });
}

export const SELF_CHECK_HEADERS = ['Level', 'Send lag p99 ms', 'Event-loop delay p99 ms', 'Budget ms (sends / loop)', 'Client CPU %', 'Verdict'] as const;

/** The level's budgets, sends / event loop; a result of an earlier version had one budget for both. */
const budgetCell = (cb: LevelResult['clientBound']): string =>
  cb.budgets === undefined ? num(cb.budgetMs, 0) : `${num(cb.budgets.sendMs, 1)} / ${num(cb.budgets.loopMs, 1)}`;

/** The client's check on itself per level: how late it sent and how delayed its loop was, against the budgets of what each distorts. */
export function selfCheckRows(levels: readonly LevelResult[]): string[][] {
  return levels.map((l) => [
    l.load?.label ?? `${l.concurrency} streams`,
    num(l.clientBound.sendLagMs?.p99, 2),
    num(l.clientBound.loopDelayMs?.p99, 2),
    budgetCell(l.clientBound),
    num(l.clientBound.clientCpuPct, 0),
    l.clientBound.bound ? `client-bound: ${l.clientBound.reason ?? 'our client was the bottleneck'}` : 'ok: the client kept up',
  ]);
}
