/**
 * Open-loop levels' latency from the intended send beside the usual (from the
 * actual send), with the schedule lag between them: the rows of the page's
 * "From the schedule" table. Closed-loop levels have no scheduled send to measure from.
 */
import type { LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const SCHEDULE_HEADERS: readonly string[] = [
  'Level',
  'TTFT p50 from send (ms)',
  'TTFT p50 from schedule (ms)',
  'TTFT p99 from schedule (ms)',
  'e2e p50 from send (ms)',
  'e2e p50 from schedule (ms)',
  'Schedule lag p99 (ms)',
];

/** One row per open-loop level, in the table's order; empty for a closed-loop run. */
export function scheduleRows(levels: readonly LevelResult[]): string[][] {
  return levels
    .filter((l) => l.fromSchedule !== undefined)
    .map((l) => [
      l.load?.label ?? String(l.concurrency),
      num(l.ttftMs?.p50),
      num(l.fromSchedule?.ttftMs?.p50),
      num(l.fromSchedule?.ttftMs?.p99),
      num(l.e2eMs?.p50, 0),
      num(l.fromSchedule?.e2eMs?.p50, 0),
      num(l.load?.scheduleLagMs?.p99, 2),
    ]);
}
